import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { shapeOf } from './shape.ts';
import { memberOf, newPhone, ownerWithEnterprise } from './enterprise-helpers.ts';
import { employeeIdOf, giveCredits, operatorCookie, topUpPool } from './credit-helpers.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';
import { SMS_TYPES } from '../../core/constants.ts';
import { CREDIT_AMOUNT_MAX, PENDING_ORDERS_MAX } from '../../core/credits.ts';
import { ApiError } from '../../server/errors.ts';
import { chargeRegistration } from '../../server/services/credits.ts';

/** Vault files cost 200 here (credits.vaultFile by configuration), assets 300: not the §9 defaults, so the prices are read from the configuration. */
const PRICES = { assetRegistration: 300, vaultFile: 200, commit: 0, applicationFile: 10 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: { ...PRICES } });
});
afterAll(async () => {
  await h?.close();
});

type Res = { statusCode: number; json(): any; body: string };
const expect400 = (res: Res, message: string, field?: string) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};
const data = (res: Res) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

const get = (url: string, cookie?: string) => h.request({ method: 'GET', url, cookie });
const summaryOf = async (cookie: string) => data(await get('/api/v1/credits/summary', cookie));
const order = (cookie: string, body: unknown) => h.request({ method: 'POST', url: '/api/v1/credits/orders', cookie, body });
const decide = (operator: string, id: number, body: unknown) => h.request({ method: 'PUT', url: `/api/v1/operator/credit-orders/${id}`, cookie: operator, body });
const allocate = (cookie: string, body: unknown) => h.request({ method: 'POST', url: '/api/v1/credits/allocations', cookie, body });

/**
 * The ledger invariant, for every account in the database: the movements sum to the
 * balance, the newest movement's balance_after is the balance, and no balance is negative.
 */
async function expectLedgerConsistent() {
  const accounts = await h.app.db.selectFrom('credit_accounts').select(['id', 'balance']).execute();
  const sums = await h.app.db
    .selectFrom('credit_movements')
    .select(['account_id', (eb) => eb.fn.sum<number>('delta').as('s'), (eb) => eb.fn.max<number>('id').as('last')])
    .groupBy('account_id')
    .execute();
  const sumOf = new Map(sums.map((s) => [Number(s.account_id), { sum: Number(s.s), last: Number(s.last) }]));
  expect(accounts.length).toBeGreaterThan(0);
  for (const a of accounts) {
    const balance = Number(a.balance);
    expect(balance, `account ${a.id}`).toBeGreaterThanOrEqual(0);
    const s = sumOf.get(Number(a.id));
    expect(s?.sum ?? 0, `account ${a.id}: movements sum to the balance`).toBe(balance);
    if (s) {
      const last = await h.app.db.selectFrom('credit_movements').select('balance_after').where('id', '=', s.last).executeTakeFirstOrThrow();
      expect(Number(last.balance_after), `account ${a.id}: newest balance_after`).toBe(balance);
    }
  }
  // Movements point at accounts of their own enterprise, and their owner column is the account's owner.
  const mismatched = await h.app.db
    .selectFrom('credit_movements as m')
    .innerJoin('credit_accounts as a', 'a.id', 'm.account_id')
    .select('m.id')
    .where((eb) => eb.or([eb('m.enterprise_id', '<>', eb.ref('a.enterprise_id')), sql<boolean>`coalesce(m.user_id, 0) <> coalesce(a.user_id, 0)`]))
    .execute();
  expect(mismatched).toEqual([]);
}

function newIdentity(ext = '.docx'): string {
  return `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
}

async function unlockVault(who: { cookie: string; phone: string }) {
  await clearRateLimits(h.app);
  data(await get(`/api/v1/validation/private-code?type=${SMS_TYPES.vaultUnlock}`, who.cookie));
  data(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie: who.cookie, body: { new_phone_number: who.phone, validation_code: await h.latestCode(who.phone) } }));
}

async function vaultProject(who: { cookie: string; phone: string }, name: string): Promise<number> {
  await unlockVault(who);
  return data(await h.request({ method: 'POST', url: '/api/v1/vault/projects', cookie: who.cookie, body: { name } })).project_id;
}

const registerFile = (cookie: string, projectId: number, fileHash: string, name = 'formula.docx') =>
  h.request({ method: 'POST', url: `/api/v1/vault/projects/${projectId}/files`, cookie, body: { name, file_hash: fileHash, size: 10 } });

let seq = 0;
async function company() {
  seq += 1;
  const owner = await ownerWithEnterprise(h, `积分测试企业${process.pid}-${seq}`);
  const admin = await memberOf(h, owner, 2);
  const officer = await memberOf(h, owner, 3);
  const alice = await memberOf(h, owner, 0);
  const bob = await memberOf(h, owner, 4);
  return { owner, admin, officer, alice, bob, enterpriseId: owner.company.enterprise_id as number };
}

describe('chargeRegistration (the function registrations call in their own transaction)', () => {
  it('charges the configured price to the member, writes one movement, refuses with integrals_not_enough when short, and is free without integralRequired', async () => {
    const c = await company();
    const aliceId = (await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', c.alice.phone).executeTakeFirstOrThrow()).id;
    const charge = (kind: 'asset' | 'vault_file', dna: string, config = h.app.config) =>
      h.app.db.transaction().execute((trx) => chargeRegistration(trx, config, { enterpriseId: c.enterpriseId, userId: aliceId, kind, dna, name: `${kind}.bin` }));

    // No account yet: refused, and nothing created.
    await expect(charge('asset', 'pvnoaccount')).rejects.toMatchObject({ key: 'integrals_not_enough' });
    await expect(charge('asset', 'pvnoaccount')).rejects.toBeInstanceOf(ApiError);
    expect(await h.app.db.selectFrom('credit_accounts').select('id').where('user_id', '=', aliceId).execute()).toEqual([]);

    await giveCredits(h, c.owner, c.alice, 500);
    expect(await charge('asset', 'pvasset1')).toEqual({ charged: PRICES.assetRegistration });
    expect((await summaryOf(c.alice.cookie))).toMatchObject({ available: 200, consumed: 300 });
    // 200 left: a vault file (200) fits, an asset (300) does not; the failed charge leaves no trace.
    await expect(charge('asset', 'pvasset2')).rejects.toMatchObject({ key: 'integrals_not_enough' });
    expect(await charge('vault_file', 'pvvault1')).toEqual({ charged: PRICES.vaultFile });
    await expect(charge('vault_file', 'pvvault2')).rejects.toMatchObject({ key: 'integrals_not_enough' });
    const movements = await h.app.db.selectFrom('credit_movements').select(['kind', 'delta', 'balance_after', 'reference', 'detail', 'actor_user_id']).where('user_id', '=', aliceId).orderBy('id').execute();
    expect(movements.map((m) => [m.kind, Number(m.delta), Number(m.balance_after), m.reference])).toEqual([
      ['allocate', 500, 500, null],
      ['asset_registration', -300, 200, 'pvasset1'],
      ['vault_file_registration', -200, 0, 'pvvault1'],
    ]);
    expect(movements[1]).toMatchObject({ detail: 'asset.bin', actor_user_id: aliceId });

    // The same registration is never charged twice (the ledger's unique reference).
    await giveCredits(h, c.owner, c.alice, 1000);
    await expect(charge('vault_file', 'pvvault1')).rejects.toThrow();
    expect((await summaryOf(c.alice.cookie)).available).toBe(1000);

    // §9 integralRequired off: free, no movement.
    const free = { ...h.app.config, integralRequired: false };
    expect(await charge('asset', 'pvfree1', free)).toEqual({ charged: 0 });
    expect(await h.app.db.selectFrom('credit_movements').select('id').where('reference', '=', 'pvfree1').execute()).toEqual([]);
    // A price of 0 is free too.
    expect(await charge('asset', 'pvfree2', { ...h.app.config, credits: { assetRegistration: 0, vaultFile: 200, commit: 0, applicationFile: 10 } })).toEqual({ charged: 0 });
    await expectLedgerConsistent();
  });
});

describe('top-up orders (payment provider: offline transfer confirmed by an operator)', () => {
  it('checks the amount and note, and only administrators order', async () => {
    const c = await company();
    expect400(await order(c.owner.cookie, {}), 'required', 'amount');
    for (const bad of [0, -5, 1.5, 'abc', '', CREDIT_AMOUNT_MAX + 1, '1e3']) expect400(await order(c.owner.cookie, { amount: bad }), bad === '' ? 'required' : 'invalid_param', 'amount');
    expect400(await order(c.owner.cookie, { amount: 100, note: '注'.repeat(201) }), 'lt', 'note');
    for (const who of [c.officer, c.alice, c.bob]) expect((await order(who.cookie, { amount: 100 })).statusCode).toBe(403);
    const created = data(await order(c.admin.cookie, { amount: '2500', note: ' 转账备注 ' }));
    expect(created).toMatchObject({ amount: 2500, note: '转账备注', status: 1, provider: 'offline_transfer', reason: '', decided_at: null, created_by_name: '李四' });
    expect(created.order_no).toMatch(/^TU\d{8}[A-Z2-9]{8}$/);
    // The provider says what to quote on the transfer.
    expect(created.payment).toEqual({ reference: created.order_no, pay_url: null });
    const orderShape = { order_id: 'number', order_no: 'string', amount: 'number', note: 'string', status: 'number', provider: 'string', created_by_name: 'string', created_at: 'number', decided_at: 'null', reason: 'string' };
    expect(shapeOf(created)).toEqual({ ...orderShape, payment: { reference: 'string', pay_url: 'null' } });
    // Nothing is credited until an operator confirms.
    expect((await summaryOf(c.owner.cookie)).enterprise).toMatchObject({ pool_available: 0, topped_up: 0, pending_orders: 1 });
    // At most PENDING_ORDERS_MAX open at once.
    for (let i = 1; i < PENDING_ORDERS_MAX; i++) data(await order(c.owner.cookie, { amount: 10 + i }));
    expect400(await order(c.owner.cookie, { amount: 1 }), 'too_frequent_operation', 'amount');
    const listed = data(await get('/api/v1/credits/orders?page_size=3', c.officer.cookie));
    expect(listed).toMatchObject({ total: PENDING_ORDERS_MAX, page: 1, page_size: 3 });
    expect(listed.items[0].amount).toBe(10 + PENDING_ORDERS_MAX - 1);
    expect(shapeOf(listed)).toEqual({ items: [orderShape], page: 'number', page_size: 'number', total: 'number' });
  });

  it('an operator confirms once (double clicks and concurrent confirmations credit the pool exactly once), rejects with a reason; administrators cancel pending orders', async () => {
    const c = await company();
    const other = await company();
    const op = await operatorCookie(h);
    const op2 = await operatorCookie(h);
    const first = data(await order(c.owner.cookie, { amount: 1000, note: '第一笔' }));

    // The console lists pending orders with the enterprise; an enterprise session cannot reach it.
    const pending = data(await get('/api/v1/operator/credit-orders?status=1', op));
    const row = pending.items.find((o: any) => o.order_id === first.order_id);
    expect(row).toMatchObject({ enterprise_name: expect.stringContaining('积分测试企业'), amount: 1000, note: '第一笔', created_by_phone: c.owner.phone });
    const orderShape = { order_id: 'number', order_no: 'string', amount: 'number', note: 'string', status: 'number', provider: 'string', created_by_name: 'string', created_at: 'number', decided_at: 'null', reason: 'string' };
    expect(shapeOf(row)).toEqual({ ...orderShape, enterprise_id: 'number', enterprise_name: 'string', created_by_phone: 'string' });
    expect((await get('/api/v1/operator/credit-orders', c.owner.cookie)).statusCode).toBe(403);
    expect((await decide(c.owner.cookie, first.order_id, { status: 2 })).statusCode).toBe(403);
    expect((await get('/api/v1/credits/orders', op)).json()).toEqual({ message: 'token_invalid' });

    // Confirm, then the same again (a double click): one top-up.
    const confirmed = data(await decide(op, first.order_id, { status: 2 }));
    expect(confirmed).toMatchObject({ status: 2, reason: '' });
    expect(shapeOf(confirmed)).toEqual({ ...orderShape, decided_at: 'number' });
    expect(data(await decide(op, first.order_id, { status: 2 }))).toMatchObject({ status: 2 });
    expect((await summaryOf(c.owner.cookie)).enterprise).toMatchObject({ pool_available: 1000, topped_up: 1000, pending_orders: 0 });

    // Ten confirmations at once, from two operators: one top-up.
    const second = data(await order(c.admin.cookie, { amount: 700 }));
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => decide(i % 2 ? op : op2, second.order_id, { status: 2 })));
    expect(racing.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect((await summaryOf(c.owner.cookie)).enterprise.pool_available).toBe(1700);
    const topUps = await h.app.db.selectFrom('credit_movements').select(['reference', 'delta', 'actor_operator_id']).where('enterprise_id', '=', c.enterpriseId).where('kind', '=', 'top_up').execute();
    expect(topUps.map((m) => [m.reference, Number(m.delta)]).sort()).toEqual([[first.order_no, 1000], [second.order_no, 700]].sort());

    // Confirming and rejecting one order at once: one of them wins, never both.
    const third = data(await order(c.owner.cookie, { amount: 50 }));
    const mixed = await Promise.all([decide(op, third.order_id, { status: 2 }), decide(op2, third.order_id, { status: 3, reason: '未到账' })]);
    const final = data(await get('/api/v1/credits/orders', c.owner.cookie)).items.find((o: any) => o.order_id === third.order_id);
    expect(mixed.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(mixed.find((r) => r.statusCode !== 200)!.json()).toEqual({ message: 'invalid_param', field_name: 'status' });
    expect((await summaryOf(c.owner.cookie)).enterprise.pool_available).toBe(final.status === 2 ? 1750 : 1700);

    // Reject: a reason is required; a rejected order cannot be confirmed afterwards, nor a confirmed one rejected.
    const fourth = data(await order(c.owner.cookie, { amount: 90 }));
    expect400(await decide(op, fourth.order_id, { status: 3 }), 'required', 'reason');
    expect400(await decide(op, fourth.order_id, { status: 3, reason: '   ' }), 'required', 'reason');
    expect400(await decide(op, fourth.order_id, { status: 3, reason: 'x'.repeat(201) }), 'lt', 'reason');
    expect(data(await decide(op, fourth.order_id, { status: 3, reason: '金额不符' }))).toMatchObject({ status: 3, reason: '金额不符' });
    expect400(await decide(op, fourth.order_id, { status: 2 }), 'invalid_param', 'status');
    expect400(await decide(op, first.order_id, { status: 3, reason: '撤销' }), 'invalid_param', 'status');
    expect400(await decide(op, 99999999, { status: 2 }), 'not_found', 'id');
    expect400(await decide(op, fourth.order_id, { status: 4 }), 'invalid_param', 'status');

    // Cancel: administrators of the enterprise, pending orders only; an operator cannot confirm it afterwards.
    const fifth = data(await order(c.owner.cookie, { amount: 30 }));
    const cancel = (cookie: string, id: number) => h.request({ method: 'PUT', url: `/api/v1/credits/orders/${id}`, cookie, body: { status: 4 } });
    expect((await cancel(c.officer.cookie, fifth.order_id)).statusCode).toBe(403);
    expect((await cancel(c.alice.cookie, fifth.order_id)).statusCode).toBe(403);
    expect400(await cancel(other.owner.cookie, fifth.order_id), 'not_found', 'order_id');
    const cancelled = data(await cancel(c.admin.cookie, fifth.order_id));
    expect(cancelled).toMatchObject({ status: 4 });
    expect(Object.keys(cancelled).sort()).toEqual(Object.keys(orderShape).sort());
    expect(data(await cancel(c.owner.cookie, fifth.order_id))).toMatchObject({ status: 4 });
    expect400(await decide(op, fifth.order_id, { status: 2 }), 'invalid_param', 'status');
    expect400(await cancel(c.owner.cookie, first.order_id), 'invalid_param', 'status');
    expect400(await h.request({ method: 'PUT', url: `/api/v1/credits/orders/${first.order_id}`, cookie: c.owner.cookie, body: { status: 2 } }), 'invalid_param', 'status');

    // Each enterprise sees its own orders only; status filter.
    expect(data(await get('/api/v1/credits/orders', other.owner.cookie)).total).toBe(0);
    expect(data(await get('/api/v1/credits/orders?status=4', c.owner.cookie)).items.map((o: any) => o.order_id)).toEqual([fifth.order_id]);
    expect(data(await get('/api/v1/credits/orders?status=3', c.owner.cookie)).items.map((o: any) => o.reason)).toContain('金额不符');
    await expectLedgerConsistent();
  });
});

describe('member top-up (allocations by administrators)', () => {
  it('moves credits pool → member and back, within what the giving side holds, for members of the enterprise', async () => {
    const c = await company();
    const other = await company();
    await topUpPool(h, c.owner, 1000);
    const aliceEmployee = await employeeIdOf(h, c.owner, c.alice.phone);
    expect400(await allocate(c.owner.cookie, { employee_id: aliceEmployee }), 'required', 'amount');
    for (const bad of [0, -1, 2.5, 'x']) expect400(await allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: bad }), 'invalid_param', 'amount');
    expect400(await allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: 10, direction: 'steal' }), 'invalid_param', 'direction');

    // More than the pool holds: refused on the field, nothing written.
    const movementsBefore = await h.app.db.selectFrom('credit_movements').select('id').where('enterprise_id', '=', c.enterpriseId).execute();
    expect400(await allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: 1001 }), 'integrals_not_enough', 'amount');
    expect(await h.app.db.selectFrom('credit_movements').select('id').where('enterprise_id', '=', c.enterpriseId).execute()).toEqual(movementsBefore);

    expect(data(await allocate(c.admin.cookie, { employee_id: aliceEmployee, amount: 600 }))).toEqual({ pool_available: 400, member_available: 600, employee_id: aliceEmployee });
    expect(await summaryOf(c.alice.cookie)).toMatchObject({ available: 600, consumed: 0, enterprise: null, is_admin: false });
    // Take back: not more than the member holds.
    expect400(await allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: 601, direction: 'reclaim' }), 'integrals_not_enough', 'amount');
    expect(data(await allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: 250, direction: 'reclaim' }))).toEqual({ pool_available: 650, member_available: 350, employee_id: aliceEmployee });

    // The history names both sides: the pool's rows name the member, the member's rows the actor.
    const history = data(await get('/api/v1/credits/movements?kind=allocate&kind=reclaim', c.owner.cookie)).items;
    expect(history.map((m: any) => [m.account, m.kind, m.delta, m.balance_after])).toEqual([
      ['member', 'reclaim', -250, 350],
      ['pool', 'reclaim', 250, 650],
      ['member', 'allocate', 600, 600],
      ['pool', 'allocate', -600, 400],
    ]);
    expect(history[1]).toMatchObject({ counterpart_name: '李四', actor_name: '张三', user_id: null, user_name: '' });
    expect(history[2]).toMatchObject({ counterpart_name: '', counterpart_user_id: null, actor_name: '李四', user_name: '李四' });
    const movement = { movement_id: 'number', account: 'string', kind: 'string', delta: 'number', balance_after: 'number', reference: 'null', detail: 'string', counterpart_name: 'string', actor_name: 'string', created_at: 'number', user_name: 'string' };
    expect(shapeOf(history[1])).toEqual({ ...movement, user_id: 'null', counterpart_user_id: 'number' });
    expect(shapeOf(history[2])).toEqual({ ...movement, user_id: 'number', counterpart_user_id: 'null' });

    // Members list with balances; keyword search.
    const members = data(await get(`/api/v1/credits/members?keyword=${c.alice.phone}`, c.officer.cookie));
    expect(members.items).toEqual([expect.objectContaining({ employee_id: aliceEmployee, available: 350, consumed: 0, role: 0, status: 1, phone: c.alice.phone })]);
    expect(shapeOf(members)).toEqual({ items: [{ employee_id: 'number', user_id: 'number', name: 'string', phone: 'string', role: 'number', status: 'number', available: 'number', consumed: 'number' }], page: 'number', page_size: 'number', total: 'number' });
    expect(data(await get('/api/v1/credits/members', c.owner.cookie)).total).toBe(5);

    // Another enterprise's member, a frozen member: not_found (a frozen one can only be taken back from).
    const outsider = await employeeIdOf(h, other.owner, other.alice.phone);
    expect400(await allocate(c.owner.cookie, { employee_id: outsider, amount: 1 }), 'not_found', 'employee_id');
    const bobEmployee = await employeeIdOf(h, c.owner, c.bob.phone);
    data(await allocate(c.owner.cookie, { employee_id: bobEmployee, amount: 100 }));
    data(await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', cookie: c.owner.cookie, body: { employee_id: bobEmployee, status: 4 } }));
    expect400(await allocate(c.owner.cookie, { employee_id: bobEmployee, amount: 1 }), 'not_found', 'employee_id');
    expect(data(await allocate(c.owner.cookie, { employee_id: bobEmployee, amount: 100, direction: 'reclaim' })).member_available).toBe(0);
    expect400(await allocate(c.owner.cookie, { employee_id: 99999999, amount: 1 }), 'not_found', 'employee_id');

    // Administrators may allocate to themselves (they register too).
    const ownerEmployee = await employeeIdOf(h, c.owner, c.owner.phone);
    expect(data(await allocate(c.owner.cookie, { employee_id: ownerEmployee, amount: 50 })).member_available).toBe(50);
    await expectLedgerConsistent();
  });

  it('concurrent allocations never take the pool below zero: exactly as many succeed as the pool covers', async () => {
    const c = await company();
    await topUpPool(h, c.owner, 1000);
    const targets = [c.owner, c.admin, c.officer, c.alice, c.bob];
    const ids = await Promise.all(targets.map((t) => employeeIdOf(h, c.owner, t.phone)));
    // 25 allocations of 100 from two administrators at once, against a pool of 1000.
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => allocate(i % 2 ? c.owner.cookie : c.admin.cookie, { employee_id: ids[i % ids.length], amount: 100 })));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(10);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json()).toEqual({ message: 'integrals_not_enough', field_name: 'amount' });
    const summary = await summaryOf(c.owner.cookie);
    expect(summary.enterprise).toMatchObject({ pool_available: 0, members_available: 1000 });
    // Concurrent reclaims of one member's credits: never below zero either.
    const aliceId = ids[3]!;
    const aliceHas = (await summaryOf(c.alice.cookie)).available;
    const back = await Promise.all(Array.from({ length: 8 }, () => allocate(c.owner.cookie, { employee_id: aliceId, amount: 100, direction: 'reclaim' })));
    expect(back.filter((r) => r.statusCode === 200)).toHaveLength(aliceHas / 100);
    expect((await summaryOf(c.alice.cookie)).available).toBe(0);
    expect((await summaryOf(c.owner.cookie)).enterprise.pool_available).toBe(aliceHas);
    await expectLedgerConsistent();
  });
});

describe('registrations are charged to the registering member (§8 integrals not enough, §9 costs)', () => {
  it('a vault file costs credits.vaultFile; a member without enough credits is refused and nothing is written; integralRequired off makes it free', async () => {
    const c = await company();
    const projectId = await vaultProject(c.alice, '积分项目');
    // No credits: §8, no ledger entry, no vault row, no movement.
    const refused = newIdentity();
    expect400(await registerFile(c.alice.cookie, projectId, refused), 'integrals_not_enough');
    expect(await h.app.db.selectFrom('ledger_entries').select('id').where('file_hash', '=', refused).execute()).toEqual([]);
    expect(await h.app.db.selectFrom('vault_files').select('id').where('project_id', '=', projectId).execute()).toEqual([]);

    await giveCredits(h, c.owner, c.alice, 300);
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie: c.alice.cookie })).json().data.integrals).toBe(300);
    const file = data(await registerFile(c.alice.cookie, projectId, newIdentity('.pdf'), '配方.pdf'));
    expect(file.credits).toBe(200);
    expect(await summaryOf(c.alice.cookie)).toMatchObject({ available: 100, consumed: 200, prices: { asset: 300, vault_file: 200 }, integral_required: true });
    const history = data(await get('/api/v1/credits/movements', c.alice.cookie)).items;
    expect(history[0]).toMatchObject({ kind: 'vault_file_registration', delta: -200, balance_after: 100, reference: file.dip_id, detail: '配方.pdf', actor_name: '李四' });
    // The vault log records what was charged.
    const log = data(await get(`/api/v1/vault/logs?project_id=${projectId}`, c.alice.cookie)).items;
    expect(log.find((l: any) => l.action === 'file_registered').detail.credits).toBe(200);
    // 100 left: refused again, and not charged.
    expect400(await registerFile(c.alice.cookie, projectId, newIdentity()), 'integrals_not_enough');
    expect((await summaryOf(c.alice.cookie)).available).toBe(100);
    // The company state (§3 integrals) follows.
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie: c.alice.cookie })).json().data.integrals).toBe(100);

    // §9 integral required off: free, recorded as 0, no movement; summary prices say 0.
    h.app.config.integralRequired = false;
    try {
      const free = data(await registerFile(c.alice.cookie, projectId, newIdentity(), 'free.docx'));
      expect(free.credits).toBe(0);
      expect(await summaryOf(c.alice.cookie)).toMatchObject({ available: 100, consumed: 200, integral_required: false, prices: { asset: 0, vault_file: 0 } });
      expect(await h.app.db.selectFrom('credit_movements').select('id').where('reference', '=', free.dip_id).execute()).toEqual([]);
    } finally {
      h.app.config.integralRequired = true;
    }
    await expectLedgerConsistent();
  });

  it('ten concurrent registrations with credits for five: exactly five succeed, the rest are refused with nothing written, the balance ends at 0', async () => {
    const c = await company();
    await giveCredits(h, c.owner, c.alice, 1000);
    const projectId = await vaultProject(c.alice, '并发积分项目');
    const hashes = Array.from({ length: 10 }, () => newIdentity());
    const results = await Promise.all(hashes.map((fileHash, i) => registerFile(c.alice.cookie, projectId, fileHash, `f${i}.docx`)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(5);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json()).toEqual({ message: 'integrals_not_enough' });
    expect(await summaryOf(c.alice.cookie)).toMatchObject({ available: 0, consumed: 1000 });
    // The refused ones left nothing: no ledger entry, no vault row, no movement.
    const refused = hashes.filter((_, i) => results[i]!.statusCode !== 200);
    expect(await h.app.db.selectFrom('ledger_entries').select('id').where('file_hash', 'in', refused).execute()).toEqual([]);
    expect(await h.app.db.selectFrom('vault_files').select('id').where('file_hash', 'in', refused).execute()).toEqual([]);
    const dnas = ok.map((r) => r.json().data.dip_id).sort();
    const charges = await h.app.db.selectFrom('credit_movements').select(['reference', 'delta']).where('enterprise_id', '=', c.enterpriseId).where('kind', '=', 'vault_file_registration').execute();
    expect(charges.map((m) => m.reference).sort()).toEqual(dnas);
    expect(charges.every((m) => Number(m.delta) === -200)).toBe(true);
    expect(await h.app.db.selectFrom('vault_files').select('id').where('project_id', '=', projectId).execute()).toHaveLength(5);
    await expectLedgerConsistent();
  });

  it('registrations and allocations racing on one account keep the ledger whole', async () => {
    const c = await company();
    await topUpPool(h, c.owner, 2000);
    await giveCredits(h, c.owner, c.alice, 400);
    const aliceEmployee = await employeeIdOf(h, c.owner, c.alice.phone);
    const projectId = await vaultProject(c.alice, '竞争项目');
    const work = [
      ...Array.from({ length: 8 }, (_, i) => registerFile(c.alice.cookie, projectId, newIdentity(), `r${i}.docx`)),
      ...Array.from({ length: 4 }, () => allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: 200 })),
      ...Array.from({ length: 4 }, () => allocate(c.admin.cookie, { employee_id: aliceEmployee, amount: 100, direction: 'reclaim' })),
    ];
    const results = await Promise.all(work);
    for (const r of results) expect([200, 400]).toContain(r.statusCode);
    const registered = results.slice(0, 8).filter((r) => r.statusCode === 200).length;
    const reclaimed = results.slice(12).filter((r) => r.statusCode === 200).length;
    const allocated = results.slice(8, 12).filter((r) => r.statusCode === 200).length;
    expect(allocated).toBe(4);
    const summary = await summaryOf(c.alice.cookie);
    expect(summary.available).toBe(400 + 4 * 200 - registered * 200 - reclaimed * 100);
    expect(await h.app.db.selectFrom('vault_files').select('id').where('project_id', '=', projectId).execute()).toHaveLength(registered);
    await expectLedgerConsistent();
  });
});

describe('usage history and summary (§3, §6)', () => {
  it('a member sees only their own; the officer and administrators the enterprise’s, filtered by kind, time, member and account, paged', async () => {
    const c = await company();
    const first = await topUpPool(h, c.owner, 5000);
    const aliceEmployee = await employeeIdOf(h, c.owner, c.alice.phone);
    const bobEmployee = await employeeIdOf(h, c.owner, c.bob.phone);
    data(await allocate(c.owner.cookie, { employee_id: aliceEmployee, amount: 1000 }));
    data(await allocate(c.owner.cookie, { employee_id: bobEmployee, amount: 700 }));
    const projectId = await vaultProject(c.alice, '历史项目');
    data(await registerFile(c.alice.cookie, projectId, newIdentity()));
    const aliceId = (await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', c.alice.phone).executeTakeFirstOrThrow()).id;
    const bobId = (await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', c.bob.phone).executeTakeFirstOrThrow()).id;

    // Alice: her account only.
    const mine = data(await get('/api/v1/credits/movements', c.alice.cookie));
    expect(mine.total).toBe(2);
    expect(mine.items.map((m: any) => [m.kind, m.delta])).toEqual([['vault_file_registration', -200], ['allocate', 1000]]);
    expect(mine.items.every((m: any) => m.user_id === aliceId)).toBe(true);
    expect((await get(`/api/v1/credits/movements?user_id=${bobId}`, c.alice.cookie)).statusCode).toBe(403);
    expect((await get('/api/v1/credits/movements?account=pool', c.alice.cookie)).statusCode).toBe(403);
    expect(data(await get(`/api/v1/credits/movements?user_id=${aliceId}`, c.alice.cookie)).total).toBe(2);
    expect(await summaryOf(c.alice.cookie)).toMatchObject({ available: 800, consumed: 200, enterprise: null });
    // Bob (role 4) likewise.
    expect(data(await get('/api/v1/credits/movements', c.bob.cookie)).items.map((m: any) => m.delta)).toEqual([700]);

    // The officer sees the enterprise: pool and members.
    const all = data(await get('/api/v1/credits/movements?page_size=100', c.officer.cookie));
    expect(all.total).toBe(6); // top-up, 2 × 2 allocation rows, the charge
    const officerSummary = await summaryOf(c.officer.cookie);
    expect(officerSummary).toMatchObject({ available: 0, consumed: 0, is_admin: false });
    expect(officerSummary.enterprise).toEqual({ pool_available: 3300, members_available: 1500, consumed: 200, topped_up: 5000, pending_orders: 0 });
    expect(shapeOf(officerSummary)).toEqual({ available: 'number', consumed: 'number', integral_required: 'boolean', prices: { asset: 'number', vault_file: 'number' }, is_admin: 'boolean', enterprise: { pool_available: 'number', members_available: 'number', consumed: 'number', topped_up: 'number', pending_orders: 'number' } });
    expect(shapeOf(await summaryOf(c.alice.cookie))).toMatchObject({ enterprise: 'null' });
    expect((await summaryOf(c.owner.cookie)).is_admin).toBe(true);

    // Filters: kind, member, account, time; paging.
    expect(data(await get('/api/v1/credits/movements?kind=top_up', c.owner.cookie)).items).toEqual([
      expect.objectContaining({ account: 'pool', kind: 'top_up', delta: 5000, balance_after: 5000, reference: first.order_no, detail: 'test top-up', actor_name: '' }),
    ]);
    expect(data(await get(`/api/v1/credits/movements?user_id=${bobId}`, c.admin.cookie)).items.map((m: any) => m.delta)).toEqual([700]);
    expect(data(await get('/api/v1/credits/movements?account=pool', c.admin.cookie)).items.map((m: any) => m.delta)).toEqual([-700, -1000, 5000]);
    expect(data(await get('/api/v1/credits/movements?account=member&kind=allocate', c.admin.cookie)).total).toBe(2);
    const paged = data(await get('/api/v1/credits/movements?page=2&page_size=4', c.admin.cookie));
    expect(paged).toMatchObject({ page: 2, page_size: 4, total: 6 });
    expect(paged.items).toHaveLength(2);
    const times = all.items.map((m: any) => m.created_at);
    const future = Math.max(...times) + 1;
    expect(data(await get(`/api/v1/credits/movements?from=${future}`, c.admin.cookie)).total).toBe(0);
    expect(data(await get(`/api/v1/credits/movements?to=${Math.min(...times)}`, c.admin.cookie)).total).toBe(0);
    expect(data(await get(`/api/v1/credits/movements?from=${Math.min(...times)}&to=${future}`, c.admin.cookie)).total).toBe(6);
    expect400(await get(`/api/v1/credits/movements?from=${future}&to=${future}`, c.admin.cookie), 'invalid_param', 'to');
    expect400(await get('/api/v1/credits/movements?kind=gift', c.admin.cookie), 'invalid_param', 'kind');
    // Another enterprise sees none of it.
    const other = await company();
    expect(data(await get(`/api/v1/credits/movements?user_id=${aliceId}`, other.owner.cookie)).total).toBe(0);
    expect(data(await get('/api/v1/credits/movements', other.officer.cookie)).total).toBe(0);
  });

  it('§6 role matrix: every credits route answers 403 forbidden to those it is not for', async () => {
    const c = await company();
    const outsider = await ownerWithEnterprise(h, `积分外部企业${process.pid}`);
    const loner = await h.register(newPhone());
    const operator = await operatorCookie(h);
    const pending = data(await order(c.owner.cookie, { amount: 10 }));
    const aliceEmployee = await employeeIdOf(h, c.owner, c.alice.phone);
    type Call = { method: string; url: string; body?: unknown };
    const calls: Record<string, Call> = {
      summary: { method: 'GET', url: '/api/v1/credits/summary' },
      movements: { method: 'GET', url: '/api/v1/credits/movements' },
      members: { method: 'GET', url: '/api/v1/credits/members' },
      orders: { method: 'GET', url: '/api/v1/credits/orders' },
      createOrder: { method: 'POST', url: '/api/v1/credits/orders', body: { amount: 5 } },
      cancelOrder: { method: 'PUT', url: `/api/v1/credits/orders/${pending.order_id}`, body: { status: 4 } },
      allocate: { method: 'POST', url: '/api/v1/credits/allocations', body: { employee_id: aliceEmployee, amount: 1 } },
      operatorOrders: { method: 'GET', url: '/api/v1/operator/credit-orders' },
      operatorDecide: { method: 'PUT', url: `/api/v1/operator/credit-orders/${pending.order_id}`, body: { status: 3, reason: 'matrix' } },
    };
    const who: Record<string, string> = {
      superAdmin: c.owner.cookie,
      admin: c.admin.cookie,
      officer: c.officer.cookie,
      member: c.alice.cookie,
      member4: c.bob.cookie,
      outsider: outsider.cookie,
      noCompany: loner,
      operator,
    };
    const allowed: Record<string, string[]> = {
      superAdmin: ['summary', 'movements', 'members', 'orders', 'createOrder', 'cancelOrder', 'allocate'],
      admin: ['summary', 'movements', 'members', 'orders', 'createOrder', 'cancelOrder', 'allocate'],
      officer: ['summary', 'movements', 'members', 'orders'],
      member: ['summary', 'movements'],
      member4: ['summary', 'movements'],
      // Administrator of its own company: the targets are not theirs (not_found), never a leak.
      outsider: ['summary', 'movements', 'members', 'orders', 'createOrder', 'cancelOrder', 'allocate'],
      noCompany: [],
      operator: ['operatorOrders', 'operatorDecide'],
    };
    for (const [caller, cookie] of Object.entries(who)) {
      for (const [key, call] of Object.entries(calls)) {
        const res = await h.request({ method: call.method, url: call.url, body: call.body, cookie });
        const label = `${caller} → ${key}: ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (allowed[caller]!.includes(key)) {
          expect(res.statusCode, label).not.toBe(403);
          if (caller === 'outsider' && key === 'cancelOrder') expect(res.json(), label).toEqual({ message: 'not_found', field_name: 'order_id' });
          if (caller === 'outsider' && key === 'allocate') expect(res.json(), label).toEqual({ message: 'not_found', field_name: 'employee_id' });
        } else if (caller === 'operator') expect(res.json(), label).toEqual({ message: 'token_invalid' });
        else expect(res.statusCode, label).toBe(403);
      }
    }
    // Without any session: token_invalid everywhere but the operator console (403).
    expect((await get('/api/v1/credits/summary')).json()).toEqual({ message: 'token_invalid' });
    expect((await get('/api/v1/operator/credit-orders')).statusCode).toBe(403);
    await expectLedgerConsistent();
  });
});

describe('the default configuration', () => {
  it('prices registrations at §9 200 per asset and 1000 per vault file (and 10 per application file)', () => {
    expect(DEFAULT_CONFIG.credits).toEqual({ assetRegistration: 200, vaultFile: 1000, commit: 0, applicationFile: 10 });
    expect(DEFAULT_CONFIG.integralRequired).toBe(true);
  });
});
