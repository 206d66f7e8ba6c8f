import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteOptions } from 'fastify';
import { startHarness, type Harness } from './harness.ts';
import { memberOf, ownerWithEnterprise, newPhone, realAuth } from './enterprise-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { chargeRegistration } from '../../server/services/credits.ts';
import { registrationPrice, REGISTRATION_CREDIT_KIND, type RegistrationKind } from '../../core/credits.ts';
import { CERTIFICATE_LEDGER_KIND } from '../../core/enterprise-keys.ts';
import { verifyCertificate } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { PROJECT_LEDGER_KIND } from '../../core/repos.ts';
import { fakeRecord } from './repo-helpers.ts';
import { createApplication, signed } from './application-helpers.ts';

/**
 * Who may put an entry on the ledger: only a feature service, for a member with an unfrozen
 * membership, after charging the registration's price. Nothing else writes to it.
 */
vi.setConfig({ testTimeout: 180_000 });

let h: Harness;
const routes: Array<{ method: string; url: string; body?: unknown }> = [];
beforeAll(async () => {
  h = await startHarness({}, {}, {
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url, body: (route.schema as { body?: unknown } | undefined)?.body });
    },
  });
  await h.app.ledger.stop();
});
afterAll(async () => {
  await h?.close();
});

const newIdentity = (ext = '.txt') => `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
const entryCount = async () => Number((await h.app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/**
 * Kinds recorded without a price: a disclosure's receipt, an enterprise key's certificate, a
 * source-code project's creation (its commits are priced, credits.commit).
 */
const UNPRICED_KINDS: string[] = ['receipt', CERTIFICATE_LEDGER_KIND, PROJECT_LEDGER_KIND];
const PRICED_KINDS: Record<string, RegistrationKind> = { asset: 'asset', vault: 'vault_file', commit: 'commit', application: 'application_file' };

describe('the open registration door', () => {
  it('an account with no company cannot register under any enterprise name and get a proof that verifies', async () => {
    const phone = newPhone('139');
    const cookie = await h.register(phone);
    const before = await entryCount();
    const identity = newIdentity();
    const res = await h.request({ method: 'POST', url: '/api/v1/ledger/entries', cookie, body: { file_hash: identity, enterprise_name: '阿里巴巴（中国）有限公司', kind: 'asset', valid_seconds: 3650 * 86400 } });
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const dna = res.statusCode === 200 ? (res.json().data.asset_dna as string) : 'pvaaaaaaaaaaaaaaaaaaaa';
    const pdf = await h.request({ method: 'GET', url: `/verify-api/v1/public/zkp-proof-request?zkp_register_dna=${dna}`, cookie });
    if (pdf.statusCode === 200) {
      // What the forgery looked like: a proof that verifies, pinned to the platform's own root.
      const roots = (await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string }[];
      const verdict = await verifyCertificate(new Uint8Array(pdf.rawPayload), extractPackageNode, { fileSha256: identity, now: Date.now(), trustedRootFingerprints: roots.map((r) => r.fingerprint) });
      expect(verdict.isValid, 'a proof under a name the account has no right to verified').toBe(false);
    }
    expect(res.statusCode, res.body).toBe(404);
    expect(pdf.statusCode).not.toBe(200);
    expect(await entryCount()).toBe(before);
  });
});

describe('the registration transaction', () => {
  it('reads the membership again: a member frozen after the route checked it registers nothing and pays nothing', async () => {
    const owner = await ownerWithEnterprise(h, `冻结竞态企业${process.pid}`);
    const member = await memberOf(h, owner, 0);
    await creditsForAssets(h, owner, member, 1);
    const ids = await h.app.db.selectFrom('employees').select(['enterprise_id', 'user_id']).where('id', '=', member.employeeId).executeTakeFirstOrThrow();
    // Frozen between the route's check and the registration's transaction.
    expect((await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: member.employeeId, status: 4 }, cookie: owner.cookie })).statusCode).toBe(200);
    const before = await entryCount();
    const movements = async () => (await h.app.db.selectFrom('credit_movements').select('id').where('user_id', '=', ids.user_id).execute()).length;
    const moved = await movements();
    await expect(
      h.app.registerEntry({ fileHash: newIdentity(), enterpriseName: owner.company.name, registrantUserId: ids.user_id, kind: 'asset' }, (trx, registration) =>
        chargeRegistration(trx, h.app.config, { enterpriseId: ids.enterprise_id, userId: ids.user_id, kind: 'asset', dna: registration.dna, name: 'late.txt' }).then(() => undefined),
      ),
    ).rejects.toMatchObject({ message: 'forbidden' });
    expect(await entryCount()).toBe(before);
    expect(await movements()).toBe(moved);
  });
});

describe('the route table', () => {
  it('no route lets an outsider, a frozen member or an anonymous caller create a ledger entry; every entry is paid', async () => {
    const enterpriseName = `路由表测试企业${process.pid}`;
    const owner = await ownerWithEnterprise(h, enterpriseName);
    await creditsForAssets(h, owner, owner, 2);
    const legit = await registerAsset(h, owner, newIdentity('.psd'), 'design.psd');

    // A member with credits, then frozen by the owner: their only membership is frozen.
    const frozen = await memberOf(h, owner, 2);
    await creditsForAssets(h, owner, frozen, 5);
    const freeze = await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: frozen.employeeId, status: 4 }, cookie: owner.cookie });
    expect(freeze.statusCode, freeze.body).toBe(200);

    // Frozen in this enterprise (with credits here) but still signed in: a confirmed member of
    // another enterprise without credits, the frozen one still their current enterprise.
    const other = await ownerWithEnterprise(h, `路由表另一企业${process.pid}`);
    const frozenHere = await memberOf(h, owner, 0);
    await creditsForAssets(h, owner, frozenHere, 5);
    const joined = await h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: other.company.invitation_code }, cookie: frozenHere.cookie });
    expect(joined.statusCode, joined.body).toBe(200);
    const applications = await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?status=2', cookie: other.cookie });
    const application = applications.json().data.items.find((e: { phone: string }) => e.phone === frozenHere.phone);
    expect((await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: application.employee_id, status: 1 }, cookie: other.cookie })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: frozenHere.employeeId, status: 4 }, cookie: owner.cookie })).statusCode).toBe(200);
    const enterpriseId = (await h.app.db.selectFrom('enterprises').select('id').where('name', '=', enterpriseName).executeTakeFirstOrThrow()).id;
    await h.app.db.updateTable('users').set({ current_enterprise_id: enterpriseId }).where('phonenumber', '=', frozenHere.phone).execute();
    expect((await h.request({ method: 'GET', url: '/api/v1/assets', cookie: frozenHere.cookie })).statusCode, 'the session lives on').toBe(200);

    // A source-code project of the enterprise, with a revoked CI token: the walk aims at it.
    const repo = await h.request({ method: 'POST', url: '/api/v1/repos', cookie: owner.cookie, body: { name: '路由表仓库', description: '' } });
    expect(repo.statusCode, repo.body).toBe(200);
    const repoId = repo.json().data.project_id as number;
    const revoked = (await h.request({ method: 'POST', url: `/api/v1/repos/${repoId}/tokens`, cookie: owner.cookie })).json().data as { token_id: number; token: string };
    expect((await h.request({ method: 'DELETE', url: `/api/v1/repos/${repoId}/tokens/${revoked.token_id}`, cookie: owner.cookie })).statusCode).toBe(200);

    const outsiderPhone = newPhone('139');
    const outsider = await h.register(outsiderPhone);
    await realAuth(h, outsider, '王五');

    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const before = await entryCount();

    // Every registered route, DELETEs last (a logout would end the caller's session for the rest).
    const table = [...new Map(routes.map((r) => [`${r.method} ${r.url}`, r])).values()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(table.length).toBeGreaterThan(50);
    const item = () => ({ name: 'forged.txt', type: 1, description: null, file_hash: newIdentity(), size: 1 });
    // The most a caller could ask for: every field a route knows, filled as a registration would be.
    const VALUES: Record<string, () => unknown> = {
      ...Object.fromEntries(Object.entries(item()).map(([k, v]) => [k, () => (k === 'file_hash' ? newIdentity() : v)])),
      items: () => [item(), item()],
      enterprise_name: () => enterpriseName,
      kind: () => 'asset',
      valid_seconds: () => 3650 * 86400,
      uuid: () => newIdentity('.png'),
      hash: () => newIdentity(),
      // Well-formed commit records: the walk asks as a real push would.
      commits: () => [fakeRecord(), fakeRecord()],
      // A push's refs, well formed: reporting refs registers nothing, whoever asks.
      refs: () => [{ ref: 'refs/heads/main', commit: fakeRecord().commit }],
    };
    type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[] };
    const valueOf = (name: string, schema: Schema): unknown => {
      if (VALUES[name]) return VALUES[name]();
      if (schema.enum) return schema.enum[0];
      const type = [schema.type].flat()[0];
      if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, valueOf(k, v)]));
      if (type === 'array') return [valueOf('', schema.items ?? {})];
      return type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : 'x';
    };
    const bodyFor = (schema: unknown) => (schema ? valueOf('', schema as Schema) : Object.fromEntries(Object.entries(VALUES).map(([k, v]) => [k, v()])));
    const urlFor = (url: string) =>
      url
        .replace(/:dna/g, legit.asset_dna)
        .replace(/:project_id/g, String(repoId))
        .replace(/:[A-Za-z_]+/g, '1')
        .replace(/\*/g, 'x');
    const callers: Array<[string, string | undefined, Record<string, string>?]> = [
      ['anonymous', undefined],
      ['revoked project token', undefined, { authorization: `Bearer ${revoked.token}` }],
      ['outsider', outsider],
      ['frozen member', frozen.cookie],
      ['frozen member signed in through another enterprise', frozenHere.cookie],
    ];
    let calls = 0;
    for (const [who, cookie, headers] of callers) {
      for (const route of table) {
        const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
        const res = await h.request({ method: route.method, url: urlFor(route.url), cookie, ...(headers ? { headers } : {}), ...(hasBody ? { body: bodyFor(route.body) } : {}) });
        calls += 1;
        expect(res.statusCode, `${who} ${route.method} ${route.url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect(await entryCount(), `${who} ${route.method} ${route.url} created a ledger entry`).toBe(before);
      }
    }
    expect(calls).toBe(table.length * callers.length);
    // The same bodies do register for a member with credits: the walk asks as a registration would.
    const assets = table.find((r) => r.method === 'POST' && r.url === '/api/v1/assets');
    const control = await h.request({ method: 'POST', url: '/api/v1/assets', cookie: owner.cookie, body: bodyFor(assets?.body) });
    expect(control.statusCode, control.body).toBe(200);
    expect(await entryCount()).toBe(before + 1);
    // And the commit push does for the owner: two entries of kind commit.
    const commits = table.find((r) => r.method === 'POST' && r.url === '/api/v1/repos/:project_id/commits');
    const pushed = await h.request({ method: 'POST', url: urlFor(commits!.url), cookie: owner.cookie, body: bodyFor(commits?.body) });
    expect(pushed.statusCode, pushed.body).toBe(200);
    expect(await entryCount()).toBe(before + 3);
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    expect(await entryCount()).toBe(before + 3);

    // Every entry on the ledger carries its charge (a credit movement naming its DNA) unless its price is 0.
    const entries = await h.app.db.selectFrom('ledger_entries').select(['dna', 'kind', 'enterprise_name']).execute();
    expect(entries.map((e) => e.dna)).toContain(legit.asset_dna);
    for (const e of entries) {
      expect([...UNPRICED_KINDS, ...Object.keys(PRICED_KINDS)], `entry ${e.dna} of kind ${e.kind}`).toContain(e.kind);
      const kind = PRICED_KINDS[e.kind];
      if (!kind) continue;
      const price = registrationPrice(h.app.config, kind);
      const charge = await h.app.db.selectFrom('credit_movements').select(['delta', 'kind']).where('reference', '=', e.dna).execute();
      expect(charge.map((c) => ({ delta: Number(c.delta), kind: c.kind })), `entry ${e.dna} has no charge`).toEqual(price > 0 ? [{ delta: -price, kind: REGISTRATION_CREDIT_KIND[kind] }] : []);
      // What the record says about the enterprise is the enterprise row's name.
      expect(e.enterprise_name).toBe(enterpriseName);
    }
  });
});

describe('the open API door (external applications)', () => {
  it('every /open-api route refuses unsigned callers and an application whose owner was frozen registers nothing; a valid one pays for each entry', async () => {
    const enterpriseName = `开放接口门测试企业${process.pid}`;
    const owner = await ownerWithEnterprise(h, enterpriseName);
    const admin = await memberOf(h, owner, 2);
    const price = registrationPrice(h.app.config, 'application_file');
    if (price > 0) {
      const { giveCredits } = await import('./credit-helpers.ts');
      await giveCredits(h, owner, admin, price * 5);
      await giveCredits(h, owner, owner, price * 5);
    }
    const frozenApp = await createApplication(h, admin.cookie);
    expect((await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: admin.employeeId, status: 4 }, cookie: owner.cookie })).statusCode).toBe(200);
    const openRoutes = [...new Map(routes.filter((r) => r.url.startsWith('/open-api/')).map((r) => [`${r.method} ${r.url}`, r])).values()];
    expect(openRoutes.length).toBeGreaterThanOrEqual(5);
    await h.app.ledger.sealNow();
    const before = await entryCount();
    const body = (url: string) => (url.endsWith('/batch') ? { items: [{ file_hash: newIdentity(), name: 'a.txt', size: 1 }] } : { file_hash: newIdentity(), name: 'a.txt', size: 1 });
    for (const route of openRoutes) {
      const url = route.url.replace(/:dna/g, 'pvaaaaaaaaaaaaaaaaaaaa');
      const hasBody = route.method === 'POST';
      const anonymous = await h.request({ method: route.method, url, ...(hasBody ? { body: body(url) } : {}) });
      if (!url.endsWith('/openapi.json') && !url.endsWith('/docs')) expect(anonymous.statusCode, `${route.method} ${url}`).toBe(401);
      const res = await signed(h, frozenApp, route.method, url, hasBody ? body(url) : undefined);
      expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBeLessThan(500);
      expect(await entryCount(), `${route.method} ${url} by a frozen owner's application created an entry`).toBe(before);
    }
    const live = await createApplication(h, owner.cookie);
    const ok = await signed(h, live, 'POST', '/open-api/v1/files', body('/open-api/v1/files'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await entryCount()).toBe(before + 1);
    const entry = await h.app.db.selectFrom('ledger_entries').select(['kind', 'enterprise_name']).where('dna', '=', ok.json().data.dip_id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ kind: 'application', enterprise_name: enterpriseName });
    const charge = await h.app.db.selectFrom('credit_movements').select(['delta', 'kind']).where('reference', '=', ok.json().data.dip_id).execute();
    expect(charge.map((c) => ({ delta: Number(c.delta), kind: c.kind }))).toEqual(price > 0 ? [{ delta: -price, kind: REGISTRATION_CREDIT_KIND.application_file }] : []);
  });
});
