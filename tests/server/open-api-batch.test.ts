import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { giveCredits } from './credit-helpers.ts';
import { createApplication, signed, type AppCredentials } from './application-helpers.ts';
import { EMPLOYEE_STATUS } from '../../core/enterprise.ts';

vi.setConfig({ testTimeout: 120_000 });
process.env.APPLICATION_MONITOR_TICK_MS = '60000';

let h: Harness;
let owner: Awaited<ReturnType<typeof ownerWithEnterprise>>;
let app: AppCredentials;
let ownerId: number;
const PRICE = 10;
beforeAll(async () => {
  h = await startHarness({ credits: { assetRegistration: 200, vaultFile: 1000, commit: 0, applicationFile: PRICE } });
  await h.app.ledger.stop();
  owner = await ownerWithEnterprise(h, `批量测试企业${process.pid}`);
  ownerId = Number((await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', owner.phone).executeTakeFirstOrThrow()).id);
  app = await createApplication(h, owner.cookie);
});
afterAll(async () => {
  await h?.close();
});

const newIdentity = () => `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}.csv`;
const balance = async () => Number((await h.app.db.selectFrom('credit_accounts').select('balance').where('user_id', '=', ownerId).executeTakeFirstOrThrow()).balance);
const movements = async () => h.app.db.selectFrom('credit_movements').select(['delta', 'balance_after', 'reference', 'detail', 'kind']).where('user_id', '=', ownerId).where('delta', '<', 0).orderBy('id').execute();
const stats = async () => h.app.db.selectFrom('application_stats').select((eb) => [eb.fn.sum<number>('registrations').as('registrations'), eb.fn.sum<number>('bytes').as('bytes'), eb.fn.sum<number>('refusals').as('refusals')]).where('application_id', '=', app.application_id).executeTakeFirstOrThrow();

describe('the batch endpoint, registered in one transaction', () => {
  it('registers the first files the credits cover, answers repeats with the first entry, refuses the rest on their index', async () => {
    await giveCredits(h, owner, owner, PRICE * 3);
    const before = await balance();
    expect(before).toBe(PRICE * 3);
    const [a, b, c, d] = [newIdentity(), newIdentity(), newIdentity(), newIdentity()];
    const res = await signed(h, app, 'POST', '/open-api/v1/files/batch', {
      items: [
        { file_hash: a, name: 'a.csv', size: 5 },
        { file_hash: 'nope', name: 'bad.csv', size: 1 },
        { file_hash: b, name: 'b.csv', size: 7, metadata: { run: 1 } },
        { file_hash: a, name: 'a-again.csv', size: 5 },
        { file_hash: c, name: 'c.csv', size: 9 },
        { file_hash: d, name: 'd.csv', size: 11 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.results.map((r: { ok: boolean; message?: string; file?: { duplicate: boolean } }) => (r.ok ? (r.file!.duplicate ? 'dup' : 'ok') : r.message))).toEqual(['ok', 'invalid_param', 'ok', 'dup', 'ok', 'integrals_not_enough']);
    expect(data.results[3].file.dip_id).toBe(data.results[0].file.dip_id);
    expect(data.results[2].file).toMatchObject({ name: 'b.csv', size: 7, metadata: { run: 1 }, credits: PRICE, proof_status: 1 });
    expect(data.registered).toBe(4);
    expect(data.refused).toBe(2);
    // The files this batch registered are answered from what it wrote: the same as reading each entry back.
    for (const k of [0, 2, 4]) {
      const { duplicate, ...answered } = data.results[k].file;
      expect(duplicate).toBe(false);
      const read = await signed(h, app, 'GET', `/open-api/v1/files/${answered.dip_id}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(answered).toEqual(read.json().data);
    }
    // Charged once per new file, one movement each naming its entry, balances after each in order.
    expect(await balance()).toBe(0);
    const moved = await movements();
    expect(moved.map((m) => [Number(m.delta), Number(m.balance_after), m.reference, m.detail])).toEqual([
      [-PRICE, PRICE * 2, data.results[0].file.dip_id, 'a.csv'],
      [-PRICE, PRICE, data.results[2].file.dip_id, 'b.csv'],
      [-PRICE, 0, data.results[4].file.dip_id, 'c.csv'],
    ]);
    const counted = await stats();
    expect([counted.registrations, counted.bytes, counted.refusals].map(Number)).toEqual([3, 21, 2]);
    // Each entry and its proof row exist; the refused file wrote nothing.
    const entries = await h.app.db.selectFrom('ledger_entries').select('file_hash').where('kind', '=', 'application').execute();
    expect(entries.map((e) => e.file_hash).sort()).toEqual([a, b, c].sort());
  });

  it('answers an earlier registration as a duplicate without charging, and refuses every new file when no credits are left', async () => {
    const earlier = (await h.app.db.selectFrom('application_files').select(['file_hash', 'dna']).where('name', '=', 'a.csv').executeTakeFirstOrThrow());
    const res = await signed(h, app, 'POST', '/open-api/v1/files/batch', { items: [{ file_hash: earlier.file_hash, name: 'a.csv', size: 5 }, { file_hash: newIdentity(), name: 'e.csv', size: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.results[0]).toMatchObject({ ok: true, file: { dip_id: earlier.dna, duplicate: true } });
    expect(data.results[1]).toEqual({ index: 1, ok: false, message: 'integrals_not_enough' });
  });

  it('refuses a batch replayed with the same nonce, registering nothing twice', async () => {
    await giveCredits(h, owner, owner, PRICE * 5);
    const body = { items: Array.from({ length: 5 }, (_, k) => ({ file_hash: newIdentity(), name: `once-${k}.csv`, size: 2 })) };
    const nonce = `batch-replay-${Date.now()}`;
    const first = await signed(h, app, 'POST', '/open-api/v1/files/batch', body, { nonce, headers: { 'accept-encoding': 'br, gzip' } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined(); // registration answers go uncompressed
    expect(first.json().data.registered).toBe(5);
    expect(first.body.length).toBeGreaterThan(1024); // over the compression threshold
    const replay = await signed(h, app, 'POST', '/open-api/v1/files/batch', body, { nonce });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'token_invalid', field_name: 'x-provena-nonce' });
    const rows = await h.app.db.selectFrom('application_files').select('id').where('name', 'like', 'once-%').execute();
    expect(rows).toHaveLength(5);
  });

  it('two concurrent batches naming the same new contents: each content registered and charged once', async () => {
    await giveCredits(h, owner, owner, PRICE * 20);
    const shared = Array.from({ length: 5 }, () => newIdentity());
    const body = (tag: string) => ({ items: shared.map((file_hash, i) => ({ file_hash, name: `${tag}-${i}.csv`, size: 1 })) });
    const [one, two] = await Promise.all([signed(h, app, 'POST', '/open-api/v1/files/batch', body('one')), signed(h, app, 'POST', '/open-api/v1/files/batch', body('two'))]);
    expect(one.statusCode, one.body).toBe(200);
    expect(two.statusCode, two.body).toBe(200);
    const dnas = (r: typeof one) => r.json().data.results.map((x: { ok: boolean; file: { dip_id: string } }) => (expect(x.ok).toBe(true), x.file.dip_id));
    expect(dnas(one)).toEqual(dnas(two));
    const files = await h.app.db.selectFrom('application_files').select('dna').where('file_hash', 'in', shared).execute();
    expect(files.length).toBe(5);
    expect((await h.app.db.selectFrom('credit_movements').select('id').where('reference', 'in', files.map((f) => f.dna)).execute()).length).toBe(5);
  });

  it('refuses every new file with forbidden when the owner is frozen, and registers nothing', async () => {
    const enterpriseId = Number((await h.app.db.selectFrom('applications').select('enterprise_id').where('id', '=', app.application_id).executeTakeFirstOrThrow()).enterprise_id);
    await h.app.db.updateTable('employees').set({ status: EMPLOYEE_STATUS.frozen }).where('user_id', '=', ownerId).where('enterprise_id', '=', enterpriseId).execute();
    try {
      const hashes = [newIdentity(), newIdentity()];
      const res = await signed(h, app, 'POST', '/open-api/v1/files/batch', { items: hashes.map((file_hash, i) => ({ file_hash, name: `f${i}.csv`, size: 1 })) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.results.map((r: { message: string }) => r.message)).toEqual(['forbidden', 'forbidden']);
      expect(await h.app.db.selectFrom('ledger_entries').select('dna').where('file_hash', 'in', hashes).execute()).toEqual([]);
    } finally {
      await h.app.db.updateTable('employees').set({ status: EMPLOYEE_STATUS.confirmed }).where('user_id', '=', ownerId).where('enterprise_id', '=', enterpriseId).execute();
    }
  });
});
