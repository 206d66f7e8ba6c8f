import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { startHarness, type Harness } from './harness.ts';
import { memberOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { giveCredits } from './credit-helpers.ts';
import { createApplication, signed, type AppCredentials } from './application-helpers.ts';
import { signRequest, signedHeaders } from '../../core/applications.ts';
import { ApplicationMonitor, computeState } from '../../server/services/application-monitor.ts';
import { keyringOf } from '../../server/keys/platform-keys.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

vi.setConfig({ testTimeout: 120_000 });
// The scheduler is driven by hand (fake clock) in these tests: its own timer stays out of the way.
process.env.APPLICATION_MONITOR_TICK_MS = '60000';
process.env.APPLICATION_ALARM_REMINDER_MINUTES = '30';
process.env.APPLICATION_ALARM_RETRY_SECONDS = '1,2';
// The webhook receivers here listen on loopback: allowed as an intranet deployment would
// (tests/server/webhook-post.test.ts shows the default refusing them).
process.env.APPLICATION_WEBHOOK_ALLOW_PRIVATE = '1';

let h: Harness;
let owner: Awaited<ReturnType<typeof ownerWithEnterprise>>;
const PRICE = 10;
beforeAll(async () => {
  h = await startHarness({ credits: { assetRegistration: 200, vaultFile: 1000, commit: 0, applicationFile: PRICE } });
  await h.app.ledger.stop();
  owner = await ownerWithEnterprise(h, `应用测试企业${process.pid}`);
  await giveCredits(h, owner, owner, PRICE * 40);
});
afterAll(async () => {
  await h?.close();
});

const newIdentity = (ext = '.csv') => `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
const entryCount = async () => Number((await h.app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const stateOf = async (cookie: string, id: number) => (await h.request({ method: 'GET', url: `/api/v1/applications/${id}`, cookie })).json().data;

describe('the management API', () => {
  it('creates an application with a key shown once; names are unique in the enterprise (§8); rules answer on their fields', async () => {
    const name = `质谱仪${process.pid}`;
    const created = await createApplication(h, owner.cookie, { name, description: '实验室', interval_seconds: 300, grace_seconds: 60 });
    expect(created.key_id).toMatch(/^ak_[0-9a-f]{24}$/);
    expect(created.secret).toMatch(/^sk_/);
    const dup = await h.request({ method: 'POST', url: '/api/v1/applications', cookie: owner.cookie, body: { name, interval_seconds: 300, grace_seconds: 60 } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ message: 'app_name_already_exists', field_name: 'name' });
    for (const [body, field] of [
      [{ name: 'x', interval_seconds: 4, grace_seconds: 60 }, 'interval_seconds'],
      [{ name: 'x', interval_seconds: 60 }, 'grace_seconds'],
      [{ name: ' ', interval_seconds: 60, grace_seconds: 60 }, 'name'],
      [{ name: 'x', interval_seconds: 60, grace_seconds: 60, webhook_urls: ['ftp://x'] }, 'webhook_urls'],
      [{ name: 'x', interval_seconds: 60, grace_seconds: 60, alarm_phones: ['123'] }, 'alarm_phones'],
    ] as const) {
      const res = await h.request({ method: 'POST', url: '/api/v1/applications', cookie: owner.cookie, body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().field_name).toBe(field);
    }
    const one = await stateOf(owner.cookie, created.application_id);
    expect(one).toMatchObject({ name, state: 'not_connected', last_seen_at: null, interval_seconds: 300, grace_seconds: 60, file_count: 0 });
    expect(JSON.stringify(one)).not.toContain(created.secret);
    // The secret is sealed at rest: the row does not hold it.
    const row = await h.app.db.selectFrom('application_keys').select('sealed_secret').where('key_id', '=', created.key_id).executeTakeFirstOrThrow();
    expect(row.sealed_secret).not.toContain(created.secret.slice(3, 20));
    const list = (await h.request({ method: 'GET', url: '/api/v1/applications', cookie: owner.cookie })).json().data;
    expect(list.items.map((a: { application_id: number }) => a.application_id)).toContain(created.application_id);
  });

  it('administrators manage; a member sees only the applications they own; another enterprise sees nothing', async () => {
    const member = await memberOf(h, owner, 0);
    const res = await h.request({ method: 'POST', url: '/api/v1/applications', cookie: member.cookie, body: { name: 'nope', interval_seconds: 60, grace_seconds: 60 } });
    expect(res.statusCode).toBe(403);
    const memberUserId = (await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', member.phone).executeTakeFirstOrThrow()).id;
    const theirs = await createApplication(h, owner.cookie, { owner_user_id: memberUserId });
    const mine = await createApplication(h, owner.cookie);
    const seen = (await h.request({ method: 'GET', url: '/api/v1/applications', cookie: member.cookie })).json().data.items.map((a: { application_id: number }) => a.application_id);
    expect(seen).toEqual([theirs.application_id]);
    expect((await h.request({ method: 'GET', url: `/api/v1/applications/${mine.application_id}`, cookie: member.cookie })).statusCode).toBe(400);
    const other = await ownerWithEnterprise(h, `另一应用企业${process.pid}`);
    const foreign = await h.request({ method: 'GET', url: `/api/v1/applications/${mine.application_id}`, cookie: other.cookie });
    expect(foreign.json()).toEqual({ message: 'not_found', field_name: 'application_id' });
    expect((await h.request({ method: 'PUT', url: `/api/v1/applications/${mine.application_id}`, cookie: member.cookie, body: { name: 'x' } })).statusCode).toBe(403);
  });

  it('rotates keys: two active at most, a revoked key is refused', async () => {
    const app = await createApplication(h, owner.cookie);
    const second = await h.request({ method: 'POST', url: `/api/v1/applications/${app.application_id}/keys`, cookie: owner.cookie });
    expect(second.statusCode, second.body).toBe(200);
    const third = await h.request({ method: 'POST', url: `/api/v1/applications/${app.application_id}/keys`, cookie: owner.cookie });
    expect(third.statusCode).toBe(400);
    expect((await signed(h, second.json().data, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
    const revoked = await h.request({ method: 'DELETE', url: `/api/v1/applications/${app.application_id}/keys/${app.key_id}`, cookie: owner.cookie });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const refused = await signed(h, app, 'POST', '/open-api/v1/heartbeat', {});
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'token_invalid', field_name: 'x-provena-key' });
  });
});

describe('the signed open API', () => {
  let app: AppCredentials;
  beforeAll(async () => {
    app = await createApplication(h, owner.cookie, { interval_seconds: 60, grace_seconds: 30 });
  });

  it('registers a file by its identity, charged to the owner, in one entry; the same content again answers the first entry', async () => {
    const before = await entryCount();
    const identity = newIdentity();
    const res = await signed(h, app, 'POST', '/open-api/v1/files', { file_hash: identity, name: 'run-17.csv', size: 2048, metadata: { instrument: 'HPLC-2' } });
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json().data;
    expect(file).toMatchObject({ file_hash: identity, name: 'run-17.csv', size: 2048, metadata: { instrument: 'HPLC-2' }, credits: PRICE, proof_status: 1, duplicate: false });
    expect(await entryCount()).toBe(before + 1);
    const entry = await h.app.db.selectFrom('ledger_entries').select(['kind', 'enterprise_name']).where('dna', '=', file.dip_id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ kind: 'application', enterprise_name: `应用测试企业${process.pid}` });
    const charge = await h.app.db.selectFrom('credit_movements').select(['delta', 'kind']).where('reference', '=', file.dip_id).execute();
    expect(charge.map((c) => ({ delta: Number(c.delta), kind: c.kind }))).toEqual([{ delta: -PRICE, kind: 'application_file_registration' }]);
    const again = await signed(h, app, 'POST', '/open-api/v1/files', { file_hash: identity, name: 'run-17.csv', size: 2048 });
    expect(again.json().data).toMatchObject({ dip_id: file.dip_id, duplicate: true });
    expect(await entryCount()).toBe(before + 1);
    const read = await signed(h, app, 'GET', `/open-api/v1/files/${file.dip_id}`);
    expect(read.json().data).toMatchObject({ dip_id: file.dip_id, is_generated: false });
    const pdf = await signed(h, app, 'GET', `/open-api/v1/files/${file.dip_id}/proof`);
    expect(pdf.json()).toEqual({ message: 'proof_record_not_found', field_name: 'dna' });
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const ready = await signed(h, app, 'GET', `/open-api/v1/files/${file.dip_id}/proof`);
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['content-type']).toBe('application/pdf');
    expect(ready.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The certificate the object store holds, byte for byte, over the open API and the management screens' route.
    const stored = (await readProofPdf(h.app.db, h.app.fileStore.driver, file.dip_id))!;
    expect(ready.rawPayload.equals(stored)).toBe(true);
    const managed = await h.request({ method: 'GET', url: `/api/v1/applications/${app.application_id}/files/${file.dip_id}/proof`, cookie: owner.cookie });
    expect(managed.statusCode, managed.body).toBe(200);
    expect(managed.rawPayload.equals(stored)).toBe(true);
    // The screens see it too.
    const listed = (await h.request({ method: 'GET', url: `/api/v1/applications/${app.application_id}/files`, cookie: owner.cookie })).json().data;
    expect(listed.items[0]).toMatchObject({ dip_id: file.dip_id, is_generated: true });
  });

  it('a batch answers each item at its index; a bad item does not stop the others', async () => {
    const res = await signed(h, app, 'POST', '/open-api/v1/files/batch', { items: [{ file_hash: newIdentity(), name: 'a.csv', size: 1 }, { file_hash: 'nope', name: 'b.csv', size: 1 }, { file_hash: newIdentity(), name: 'c.csv', size: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.registered).toBe(2);
    expect(data.results[1]).toEqual({ index: 1, ok: false, message: 'invalid_param', field_name: 'file_hash' });
  });

  it('refuses a tampered signature, a replay, a stale timestamp and an unknown key, and the state turns abnormal', async () => {
    const bad = await createApplication(h, owner.cookie, { interval_seconds: 60, grace_seconds: 30 });
    expect((await signed(h, bad, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
    await h.app.applicationMonitor.evaluate(Date.now());
    expect((await stateOf(owner.cookie, bad.application_id)).state).toBe('normal');
    const before = await entryCount();
    const body = { file_hash: newIdentity(), name: 'x.csv', size: 1 };
    // The body changed after signing.
    const raw = JSON.stringify(body);
    const headers = signedHeaders(bad.key_id, bad.secret, { method: 'POST', path: '/open-api/v1/files', body: raw });
    const tampered = await h.app.inject({ method: 'POST', url: '/open-api/v1/files', payload: raw.replace('x.csv', 'y.csv'), headers: { ...headers, 'content-type': 'application/json' } });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toEqual({ message: 'token_invalid', field_name: 'x-provena-signature' });
    // Signed with another secret.
    const forged = await signed(h, { key_id: bad.key_id, secret: 'sk_wrong' }, 'POST', '/open-api/v1/files', body);
    expect(forged.statusCode).toBe(401);
    // A replay: the same headers and body again.
    const first = await h.app.inject({ method: 'POST', url: '/open-api/v1/files', payload: raw, headers: { ...headers, 'content-type': 'application/json' } });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await h.app.inject({ method: 'POST', url: '/open-api/v1/files', payload: raw, headers: { ...headers, 'content-type': 'application/json' } });
    expect(replay.json()).toEqual({ message: 'token_invalid', field_name: 'x-provena-nonce' });
    // Six minutes old.
    const stale = await signed(h, bad, 'POST', '/open-api/v1/heartbeat', {}, { now: Date.now() - 6 * 60_000 });
    expect(stale.json()).toEqual({ message: 'token_invalid', field_name: 'x-provena-timestamp' });
    const unknown = await signed(h, { key_id: `ak_${'0'.repeat(24)}`, secret: bad.secret }, 'POST', '/open-api/v1/heartbeat', {});
    expect(unknown.statusCode).toBe(401);
    const unsigned = await h.app.inject({ method: 'POST', url: '/open-api/v1/files', payload: body });
    expect(unsigned.statusCode).toBe(401);
    expect(await entryCount()).toBe(before + 1);
    await h.app.applicationMonitor.evaluate(Date.now());
    const state = await stateOf(owner.cookie, bad.application_id);
    expect(state.state).toBe('abnormal');
    expect(state.state_reason).toMatch(/^errors:4\/\d+$/);
    const transitions = (await h.request({ method: 'GET', url: `/api/v1/applications/${bad.application_id}/transitions`, cookie: owner.cookie })).json().data;
    expect(transitions.map((t: { to_state: string }) => t.to_state)).toEqual(['abnormal', 'normal']);
  });

  it("another enterprise's key cannot read this application's entries", async () => {
    const other = await ownerWithEnterprise(h, `别家应用企业${process.pid}`);
    const theirs = await createApplication(h, other.cookie);
    const res = await signed(h, app, 'POST', '/open-api/v1/files', { file_hash: newIdentity(), name: 'mine.csv', size: 1 });
    const dna = res.json().data.dip_id;
    const read = await signed(h, theirs, 'GET', `/open-api/v1/files/${dna}`);
    expect(read.json()).toEqual({ message: 'not_found', field_name: 'dna' });
    // And their files are not charged to us or registered under our name: the other owner has no credits.
    const refused = await signed(h, theirs, 'POST', '/open-api/v1/files', { file_hash: newIdentity(), name: 'theirs.csv', size: 1 });
    expect(refused.json()).toEqual({ message: 'integrals_not_enough' });
  });

  it('refuses with the §8 credits message when the owner has none left, and writes nothing', async () => {
    const poor = await ownerWithEnterprise(h, `无积分应用企业${process.pid}`);
    await giveCredits(h, poor, poor, PRICE);
    const a = await createApplication(h, poor.cookie);
    expect((await signed(h, a, 'POST', '/open-api/v1/files', { file_hash: newIdentity(), name: 'one.csv', size: 1 })).statusCode).toBe(200);
    const before = await entryCount();
    const res = await signed(h, a, 'POST', '/open-api/v1/files', { file_hash: newIdentity(), name: 'two.csv', size: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'integrals_not_enough' });
    expect(await entryCount()).toBe(before);
    expect(Number((await h.app.db.selectFrom('application_files').select((eb) => eb.fn.countAll().as('n')).where('application_id', '=', a.application_id).executeTakeFirstOrThrow()).n)).toBe(1);
  });

  it('refuses when the owner was frozen: forbidden, nothing registered, nothing charged', async () => {
    const member = await memberOf(h, owner, 2);
    await giveCredits(h, owner, member, PRICE * 2);
    const a = await createApplication(h, member.cookie);
    expect((await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: member.employeeId, status: 4 }, cookie: owner.cookie })).statusCode).toBe(200);
    const before = await entryCount();
    const res = await signed(h, a, 'POST', '/open-api/v1/files', { file_hash: newIdentity(), name: 'late.csv', size: 1 });
    expect(res.statusCode).toBe(403);
    expect(await entryCount()).toBe(before);
  });

  it('Idempotency-Key: a retried request answers the first result; the same key with another body is refused', async () => {
    const body = { items: [{ file_hash: newIdentity(), name: 'i1.csv', size: 5 }, { file_hash: newIdentity(), name: 'i2.csv', size: 6 }] };
    const key = `batch-${randomBytes(6).toString('hex')}`;
    const first = await signed(h, app, 'POST', '/open-api/v1/files/batch', body, { headers: { 'idempotency-key': key } });
    expect(first.statusCode, first.body).toBe(200);
    const before = await entryCount();
    const retry = await signed(h, app, 'POST', '/open-api/v1/files/batch', body, { headers: { 'idempotency-key': key } });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await entryCount()).toBe(before);
    const other = await signed(h, app, 'POST', '/open-api/v1/files/batch', { items: [{ file_hash: newIdentity(), name: 'i3.csv', size: 1 }] }, { headers: { 'idempotency-key': key } });
    expect(other.json()).toEqual({ message: 'invalid_param', field_name: 'idempotency-key' });
  });

  it('serves an OpenAPI 3.1 document generated from the routes that validates, and its examples run against the server', async () => {
    const res = await h.request({ method: 'GET', url: '/open-api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(Object.keys(doc.paths).sort()).toEqual(['/open-api/v1/files', '/open-api/v1/files/batch', '/open-api/v1/files/{dna}', '/open-api/v1/files/{dna}/proof', '/open-api/v1/heartbeat']);
    let ran = 0;
    let dna = '';
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: { 'application/json': { example?: unknown } } } }>>)) {
      for (const [method, op] of Object.entries(methods)) {
        if (method !== 'post') continue;
        const example = op.requestBody?.content['application/json'].example;
        expect(example, `${path} has an example`).toBeDefined();
        const r = await signed(h, app, 'POST', path, example);
        expect(r.statusCode, `${path}: ${r.body}`).toBe(200);
        if (path === '/open-api/v1/files') dna = r.json().data.dip_id;
        ran += 1;
      }
    }
    expect(ran).toBe(3);
    const got = await signed(h, app, 'GET', `/open-api/v1/files/${dna}`);
    expect(got.statusCode).toBe(200);
    const page = await h.request({ method: 'GET', url: '/open-api/v1/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/open-api/v1/files/batch');
  });
});

describe('search (§3 entity_type 4)', () => {
  it("finds an application file by DNA or hash within the caller's visibility, and nowhere else", async () => {
    const a = await createApplication(h, owner.cookie);
    const identity = newIdentity('.dat');
    const file = (await signed(h, a, 'POST', '/open-api/v1/files', { file_hash: identity, name: 'probe.dat', size: 9 })).json().data;
    for (const keyword of [file.dip_id, identity, identity.slice(2, 66)]) {
      const res = await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${keyword}`, cookie: owner.cookie });
      expect(res.json().data, keyword).toEqual({ entity_type: 4, dip_id: file.dip_id, project_id: a.application_id });
    }
    const detail = await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/files/${file.dip_id}`, cookie: owner.cookie });
    expect(detail.json().data).toMatchObject({ dip_id: file.dip_id, name: 'probe.dat', application_name: expect.any(String) });
    // A plain member who does not own the application, another enterprise, and anonymous callers find nothing.
    const member = await memberOf(h, owner, 0);
    const other = await ownerWithEnterprise(h, `搜索别家企业${process.pid}`);
    for (const cookie of [member.cookie, other.cookie, undefined]) {
      for (const keyword of [file.dip_id, identity]) {
        const res = await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${keyword}`, ...(cookie ? { cookie } : {}) });
        expect(res.json().data.entity_type, `${keyword}`).toBe(0);
      }
    }
  });
});

describe('monitoring and alarms', () => {
  it('computes the §4 states', () => {
    const s = { errorRate: 0.5, errorMin: 3 };
    const now = 1_000_000_000;
    expect(computeState({ lastSeenAt: null, intervalSeconds: 60, graceSeconds: 30, errors: 0, requests: 0 }, now, s).state).toBe('not_connected');
    expect(computeState({ lastSeenAt: now - 90_000, intervalSeconds: 60, graceSeconds: 30, errors: 0, requests: 1 }, now, s).state).toBe('normal');
    expect(computeState({ lastSeenAt: now - 91_000, intervalSeconds: 60, graceSeconds: 30, errors: 0, requests: 1 }, now, s).state).toBe('interrupted');
    expect(computeState({ lastSeenAt: now, intervalSeconds: 60, graceSeconds: 30, errors: 3, requests: 3 }, now, s).state).toBe('abnormal');
    expect(computeState({ lastSeenAt: now, intervalSeconds: 60, graceSeconds: 30, errors: 3, requests: 4 }, now, s).state).toBe('normal');
    expect(computeState({ lastSeenAt: now, intervalSeconds: 60, graceSeconds: 30, errors: 2, requests: 0 }, now, s).state).toBe('normal');
  });

  it('interruption and recovery alarm once each, by SMS and by a signed webhook (retried until it answers), with reminders at the cadence', async () => {
    let secret = '';
    const received: Array<{ body: string; isValid: boolean }> = [];
    let failuresLeft = 1;
    const receiver = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const expected = signRequest(secret, { method: 'POST', path: req.url ?? '', timestamp: String(req.headers['x-provena-timestamp']), nonce: String(req.headers['x-provena-nonce']), body: raw });
        received.push({ body: raw, isValid: expected === req.headers['x-provena-signature'] });
        if (failuresLeft-- > 0) {
          res.writeHead(503).end();
          return;
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/provena?x=1`;
    try {
      const phone = `139${String(Date.now()).slice(-8)}`;
      const a = await createApplication(h, owner.cookie, { interval_seconds: 5, grace_seconds: 5, alarm_phones: [phone], webhook_urls: [url] });
      secret = a.secret;
      const monitor = h.app.applicationMonitor;
      const t0 = Date.now();
      expect((await signed(h, a, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
      await monitor.tick(t0);
      expect((await stateOf(owner.cookie, a.application_id)).state).toBe('normal');
      // Within interval + grace: still normal; past it: interrupted, one alarm however many passes run.
      await monitor.tick(t0 + 9_000);
      expect((await stateOf(owner.cookie, a.application_id)).state).toBe('normal');
      for (const dt of [11_000, 12_000, 13_000]) await monitor.tick(t0 + dt);
      const down = await stateOf(owner.cookie, a.application_id);
      expect(down).toMatchObject({ state: 'interrupted', unacknowledged_alarms: 1 });
      expect(down.state_reason).toMatch(/^silence:\d+$/);
      const outbox = async () => (await h.app.db.selectFrom('sms_outbox').select('body').where('phone', '=', phone).orderBy('id').execute()).map((r) => r.body);
      expect(await outbox()).toEqual([expect.stringContaining('数据中断')]);
      // The webhook failed once (503), was retried after the backoff, and its signature checks.
      expect(received.length).toBe(2);
      expect(received.every((r) => r.isValid)).toBe(true);
      expect(JSON.parse(received[1]!.body)).toMatchObject({ type: 'application.interrupted', application_id: a.application_id, state: 'interrupted' });
      let alarms = (await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/alarms`, cookie: owner.cookie })).json().data;
      expect(alarms).toHaveLength(1);
      expect(alarms[0].deliveries).toEqual([
        expect.objectContaining({ channel: 'sms', status: 'delivered', attempts: 1 }),
        expect.objectContaining({ channel: 'webhook', status: 'delivered', attempts: 2 }),
      ]);
      // A reminder after the cadence (30 min) while unacknowledged; none after acknowledging.
      await monitor.tick(t0 + 31 * 60_000);
      alarms = (await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/alarms`, cookie: owner.cookie })).json().data;
      expect(alarms.map((x: { kind: string }) => x.kind)).toEqual(['reminder', 'interrupted']);
      const ack = await h.request({ method: 'PUT', url: `/api/v1/applications/${a.application_id}/alarms/${alarms[0].alarm_id}`, cookie: owner.cookie });
      expect(ack.statusCode, ack.body).toBe(200);
      await monitor.tick(t0 + 70 * 60_000);
      expect((await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/alarms`, cookie: owner.cookie })).json().data).toHaveLength(2);
      // Back: recovery, alarmed once.
      expect((await signed(h, a, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
      await monitor.tick(Date.now());
      await monitor.tick(Date.now());
      const up = await stateOf(owner.cookie, a.application_id);
      expect(up.state).toBe('normal');
      alarms = (await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/alarms`, cookie: owner.cookie })).json().data;
      expect(alarms.map((x: { kind: string }) => x.kind)).toEqual(['recovered', 'reminder', 'interrupted']);
      expect((await outbox()).at(-1)).toContain('恢复正常');
      const transitions = (await h.request({ method: 'GET', url: `/api/v1/applications/${a.application_id}/transitions`, cookie: owner.cookie })).json().data;
      expect(transitions.map((t: { from_state: string; to_state: string }) => `${t.from_state}>${t.to_state}`)).toEqual(['interrupted>normal', 'normal>interrupted', 'not_connected>normal']);
      // A paused application is not watched.
      await h.request({ method: 'PUT', url: `/api/v1/applications/${a.application_id}`, cookie: owner.cookie, body: { is_paused: true } });
      await monitor.tick(Date.now() + 3600_000);
      expect((await stateOf(owner.cookie, a.application_id)).state).toBe('normal');
    } finally {
      receiver.close();
    }
  });
});

describe('the monitor pass', () => {
  it('records many transitions in set-based chunks, each once even when two processes pass at the same time, with one alarm and a delivery per target', async () => {
    const phones = [`137${String(Date.now()).slice(-8)}`, `136${String(Date.now()).slice(-8)}`];
    const a = await createApplication(h, owner.cookie, { interval_seconds: 5, grace_seconds: 5, alarm_phones: phones });
    const b = await createApplication(h, owner.cookie, { interval_seconds: 60, grace_seconds: 30, webhook_urls: ['https://hooks.example.com/provena'] });
    const c = await createApplication(h, owner.cookie, { interval_seconds: 3600, grace_seconds: 600 });
    const d = await createApplication(h, owner.cookie, { interval_seconds: 3600, grace_seconds: 600 });
    for (const app of [a, b, c, d]) expect((await signed(h, app, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
    const first = h.app.applicationMonitor;
    await first.evaluate(Date.now());
    for (const app of [a, b, c, d]) expect((await stateOf(owner.cookie, app.application_id)).state).toBe('normal');
    // d keeps talking, but with a wrong secret: from the same state as a and b, to another one.
    for (let i = 0; i < 3; i++) expect((await signed(h, { key_id: d.key_id, secret: 'sk_wrong' }, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(401);
    // A second process's scheduler on the same database, passing at the same moment.
    const second = new ApplicationMonitor({ db: h.app.db, keyring: keyringOf(h.app.db), sms: h.app.sms, log: h.app.log, settings: first.settings });
    const now = Date.now() + 120_000;
    await Promise.all([first.evaluate(now), second.evaluate(now)]);
    const ids = [a, b, c, d].map((x) => x.application_id);
    const transitions = await h.app.db.selectFrom('application_transitions').select(['application_id', 'from_state', 'to_state', 'reason']).where('application_id', 'in', ids).where('at', '=', now).execute();
    expect(transitions.map((t) => [Number(t.application_id), `${t.from_state}>${t.to_state}`]).sort()).toEqual([[a.application_id, 'normal>interrupted'], [b.application_id, 'normal>interrupted'], [d.application_id, 'normal>abnormal']].sort());
    // Each application's own state and reason (the chunk's CASE matched rows by id).
    for (const t of transitions) expect(t.reason).toMatch(Number(t.application_id) === d.application_id ? /^errors:3\/4$/ : /^silence:1[23]\d$/);
    expect((await stateOf(owner.cookie, d.application_id))).toMatchObject({ state: 'abnormal', state_reason: 'errors:3/4' });
    expect((await stateOf(owner.cookie, c.application_id)).state).toBe('normal');
    const alarms = await h.app.db.selectFrom('application_alarms').select(['id', 'application_id', 'transition_id', 'kind']).where('application_id', 'in', ids).where('created_at', '=', now).execute();
    expect(alarms.map((x) => [Number(x.application_id), x.kind]).sort()).toEqual([[a.application_id, 'interrupted'], [b.application_id, 'interrupted'], [d.application_id, 'abnormal']].sort());
    expect(alarms.every((x) => x.transition_id !== null)).toBe(true);
    const deliveries = await h.app.db.selectFrom('application_deliveries').select(['alarm_id', 'channel', 'target']).where('alarm_id', 'in', alarms.map((x) => x.id)).execute();
    const alarmOf = new Map(alarms.map((x) => [Number(x.id), Number(x.application_id)]));
    expect(deliveries.map((d) => [alarmOf.get(Number(d.alarm_id)), d.channel, d.target]).sort()).toEqual(
      [[a.application_id, 'sms', phones[0]], [a.application_id, 'sms', phones[1]], [b.application_id, 'webhook', 'https://hooks.example.com/provena']].sort(),
    );
    // A later pass changes nothing.
    await Promise.all([first.evaluate(now + 1000), second.evaluate(now + 1000)]);
    expect(Number((await h.app.db.selectFrom('application_transitions').select((eb) => eb.fn.countAll().as('n')).where('application_id', 'in', ids).executeTakeFirstOrThrow()).n)).toBe(7);
  });
});

describe('a webhook receiver that never answers', () => {
  it('does not hold the next pass: another application falling silent is still seen at the next tick', async () => {
    let posts = 0;
    // Each alarm webhook hangs, as a receiver that accepts the connection and never answers.
    const hanging = new ApplicationMonitor({ db: h.app.db, keyring: keyringOf(h.app.db), sms: h.app.sms, log: h.app.log, settings: h.app.applicationMonitor.settings, post: () => {
      posts += 1;
      return new Promise(() => undefined);
    } });
    const slow = await createApplication(h, owner.cookie, { interval_seconds: 5, grace_seconds: 5, webhook_urls: ['https://hooks.example.com/slow'] });
    const other = await createApplication(h, owner.cookie, { interval_seconds: 7200, grace_seconds: 30 });
    expect((await signed(h, slow, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
    expect((await signed(h, other, 'POST', '/open-api/v1/heartbeat', {})).statusCode).toBe(200);
    const t0 = Date.now() + 3600_000;
    void hanging.tick(t0);
    await vi.waitFor(() => expect(posts).toBeGreaterThan(0), { timeout: 5000 });
    expect((await stateOf(owner.cookie, slow.application_id)).state).toBe('interrupted');
    expect((await stateOf(owner.cookie, other.application_id)).state).toBe('normal');
    // The first tick's webhook is still hanging; the next tick's pass runs all the same.
    await signed(h, other, 'POST', '/open-api/v1/heartbeat', {});
    const t1 = Date.now() + 3 * 3600_000;
    void hanging.tick(t1);
    await vi.waitFor(async () => expect((await stateOf(owner.cookie, other.application_id)).state).toBe('interrupted'), { timeout: 5000 });
  });
});
