import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { dummyVerifyChannel } from '../../server/services/passwords.ts';
import { upsertOperator } from '../../server/services/operators.ts';
import { enrolledOperator, totpCode } from './operator-helpers.ts';
import { topUpPool } from './credit-helpers.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';

/** The operator console's door: limits, lockout, no timing oracle, a second factor, and the audit log. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const login = (body: Record<string, unknown>, remoteAddress = '127.0.0.1') => h.app.inject({ method: 'POST', url: '/api/v1/operator/tokens', payload: body, remoteAddress });
const cookieOf = (res: { cookies: Array<{ name: string; value: string }> }) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

describe('operator login', () => {
  it('limits attempts per address, whatever the login id', async () => {
    let refused = 0;
    for (let i = 0; i < 32 && !refused; i += 1) {
      const res = await login({ login_id: `nobody-${i}`, password: 'Whatever123' }, '198.51.100.77');
      if (res.json().message === 'too_frequent_operation') refused = i + 1;
    }
    expect(refused).toBe(31);
  });

  it('locks a login for an address after 5 wrong passwords (the right one too), not for the operator elsewhere', async () => {
    await upsertOperator(h.app.db, { loginId: 'ops-lock', password: 'OperatorPass1' });
    for (let i = 0; i < 4; i += 1) expect((await login({ login_id: 'ops-lock', password: 'wrong-pass' }, '203.0.113.9')).json().message).toBe('invalid_password');
    expect((await login({ login_id: 'ops-lock', password: 'wrong-pass' }, '203.0.113.9')).json()).toEqual({ message: 'operating_too_frequently', field_name: 'login_id' });
    const right = await login({ login_id: 'ops-lock', password: 'OperatorPass1' }, '203.0.113.9');
    expect(right.json()).toEqual({ message: 'operating_too_frequently', field_name: 'login_id' });
    expect(right.cookies).toHaveLength(0);
    const elsewhere = await login({ login_id: 'ops-lock', password: 'OperatorPass1' }, '198.51.100.3');
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json().data.enroll.secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('an unknown login id is checked against a dummy hash and answers exactly like a wrong password', async () => {
    await upsertOperator(h.app.db, { loginId: 'ops-timing', password: 'OperatorPass1' });
    let dummies = 0;
    const onDummy = () => (dummies += 1);
    dummyVerifyChannel.subscribe(onDummy);
    try {
      const unknown = await login({ login_id: 'ops-nobody', password: 'OperatorPass1' }, '192.0.2.40');
      expect(dummies).toBe(1);
      const wrong = await login({ login_id: 'ops-timing', password: 'not-the-password' }, '192.0.2.40');
      expect(dummies).toBe(1);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual(wrong.json());
      expect(unknown.json()).toEqual({ message: 'invalid_password', field_name: 'password' });
    } finally {
      dummyVerifyChannel.unsubscribe(onDummy);
    }
  });

  it('TOTP: enrolled at first login (QR URI, recovery codes once), required after, each code used once', async () => {
    await upsertOperator(h.app.db, { loginId: 'ops-totp', password: 'OperatorPass1' });
    const first = await login({ login_id: 'ops-totp', password: 'OperatorPass1' }, '192.0.2.50');
    expect(first.cookies).toHaveLength(0);
    const { secret, uri } = first.json().data.enroll;
    expect(uri).toMatch(/^otpauth:\/\/totp\/Provena:ops-totp\?/);
    expect(uri).toContain(`secret=${secret}`);
    // Not at rest in the clear.
    const row = await h.app.db.selectFrom('operators').selectAll().where('login_id', '=', 'ops-totp').executeTakeFirstOrThrow();
    expect(row.totp_pending).not.toContain(secret);
    expect(row.totp_secret).toBeNull();
    // A wrong code does not enroll.
    const wrongCode = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await login({ login_id: 'ops-totp', password: 'OperatorPass1', totp_code: wrongCode }, '192.0.2.50')).json()).toEqual({ message: 'totp_invalid', field_name: 'totp_code' });
    const code = totpCode(secret);
    const enrolled = await login({ login_id: 'ops-totp', password: 'OperatorPass1', totp_code: code }, '192.0.2.50');
    expect(enrolled.statusCode).toBe(200);
    const recovery: string[] = enrolled.json().data.recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    const me = await h.request({ method: 'GET', url: '/api/v1/operator/me', cookie: cookieOf(enrolled) });
    expect(me.json().data.login_id).toBe('ops-totp');
    const stored = await h.app.db.selectFrom('operator_recovery_codes').select('code_hash').execute();
    for (const c of recovery) expect(stored.map((s) => s.code_hash).join(' ')).not.toContain(c.replace(/-/g, ''));
    const enrolledRow = await h.app.db.selectFrom('operators').selectAll().where('login_id', '=', 'ops-totp').executeTakeFirstOrThrow();
    expect(enrolledRow.totp_secret).not.toContain(secret);
    expect(enrolledRow.totp_pending).toBeNull();

    // From now on the password alone opens nothing.
    const passwordOnly = await login({ login_id: 'ops-totp', password: 'OperatorPass1' }, '192.0.2.50');
    expect(passwordOnly.json()).toEqual({ message: 'totp_required', field_name: 'totp_code' });
    expect(passwordOnly.cookies).toHaveLength(0);
    // The code just used cannot be replayed.
    expect((await login({ login_id: 'ops-totp', password: 'OperatorPass1', totp_code: code }, '192.0.2.50')).json()).toEqual({ message: 'totp_invalid', field_name: 'totp_code' });
    // The next step's code works (one step of clock drift is allowed).
    const next = await login({ login_id: 'ops-totp', password: 'OperatorPass1', totp_code: totpCode(secret, Date.now() + 30_000) }, '192.0.2.51');
    expect(next.statusCode).toBe(200);
    expect(next.json().data.recovery_codes).toBeUndefined();
    // A recovery code works once.
    expect((await login({ login_id: 'ops-totp', password: 'OperatorPass1', recovery_code: recovery[3] }, '192.0.2.52')).statusCode).toBe(200);
    expect((await login({ login_id: 'ops-totp', password: 'OperatorPass1', recovery_code: recovery[3] }, '192.0.2.52')).json()).toEqual({ message: 'totp_invalid', field_name: 'recovery_code' });
    // A right password with a wrong code is still refused, and counts toward the lockout.
    for (let i = 0; i < 4; i += 1) expect((await login({ login_id: 'ops-totp', password: 'OperatorPass1', totp_code: '000000' }, '192.0.2.53')).json().message).toBe('totp_invalid');
    expect((await login({ login_id: 'ops-totp', password: 'OperatorPass1', totp_code: '000000' }, '192.0.2.53')).json().message).toBe('operating_too_frequently');
  });

  it('operator-create --reset-totp makes the operator enroll again and voids the recovery codes', async () => {
    const op = await enrolledOperator(h, 'ops-reset');
    await upsertOperator(h.app.db, { loginId: 'ops-reset', password: 'OperatorPass2', resetTotp: true });
    const again = await login({ login_id: 'ops-reset', password: 'OperatorPass2' }, '192.0.2.60');
    expect(again.json().data.enroll.secret).not.toBe(op.secret);
    expect(await h.app.db.selectFrom('operator_recovery_codes').innerJoin('operators', 'operators.id', 'operator_recovery_codes.operator_id').where('login_id', '=', 'ops-reset').selectAll().execute()).toEqual([]);
  });
});

describe('operator audit log', () => {
  it('records logins and decisions, shows them to operators only, and refuses to be rewritten', async () => {
    const op = await enrolledOperator(h, 'ops-audit');
    const owner = await ownerWithEnterprise(h, '审计测试有限公司');
    const order = await topUpPool(h, owner, 500, op.cookie);
    const list = await h.request({ method: 'GET', url: '/api/v1/operator/audit?page_size=100', cookie: op.cookie });
    expect(list.statusCode).toBe(200);
    const mine = list.json().data.items.filter((e: { login_id: string }) => e.login_id === 'ops-audit');
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['credit_order_confirmed', 'login', 'totp_enrolled']);
    expect(mine[0]).toMatchObject({ target: `credit_order:${order.order_id}`, ip: '127.0.0.1' });
    expect((await h.request({ method: 'GET', url: '/api/v1/operator/audit', cookie: owner.cookie })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/v1/operator/audit' })).statusCode).toBe(403);
    // Append-only in the database itself.
    await expect(h.app.db.updateTable('operator_audit').set({ action: 'nothing' }).execute()).rejects.toThrow(/append-only/);
    await expect(h.app.db.deleteFrom('operator_audit').execute()).rejects.toThrow(/append-only/);
  });
});
