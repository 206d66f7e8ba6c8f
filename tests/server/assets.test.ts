import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { shapeOf } from './shape.ts';

/** core/assets.ts AssetDto, field by field (before its block is sealed). */
const ASSET_SHAPE = { asset_id: 'number', dip_id: 'string', name: 'string', type: 'number', description: 'string', file_hash: 'string', size: 'number', registrant_user_id: 'number', registrant_name: 'string', credits: 'number', proof_status: 'number', is_generated: 'boolean', block_height: 'null', block_hash: 'null', registered_at: 'number', expired_at: 'null' };
import { memberOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { employeeIdOf, operatorCookie, topUpPool } from './credit-helpers.ts';
import { ASSET_BATCH_MAX } from '../../core/assets.ts';

// Every test builds an enterprise with six members and their credits through the real API paths.
vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // Blocks are sealed only when a test says so (sealAndRender): proof status is then known, not raced by the timer.
  await h.app.ledger.stop();
});
afterAll(async () => {
  await h?.close();
});

type Res = { statusCode: number; json(): any; body: string; headers: Record<string, unknown>; rawPayload: Buffer };
const expect400 = (res: Res, message: string, field?: string) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};

function newIdentity(ext = '.psd'): string {
  return `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
}

type Asset = { name: string; type: number | string; description?: string; file_hash: string; size?: number };
const register = (cookie: string, asset: Partial<Asset> & Record<string, unknown>) => h.request({ method: 'POST', url: '/api/v1/assets', cookie, body: asset });
const registerOk = async (cookie: string, asset: Partial<Asset> = {}) => {
  const res = await register(cookie, { name: 'design.psd', type: 1, file_hash: newIdentity(), size: 2048, ...asset });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const batch = (cookie: string, items: unknown[]) => h.request({ method: 'POST', url: '/api/v1/assets/batch', cookie, body: { items } });
const list = async (cookie: string, query = '') => {
  const res = await h.request({ method: 'GET', url: `/api/v1/assets${query ? `?${query}` : ''}`, cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const search = async (keyword: string, cookie?: string) => (await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${encodeURIComponent(keyword)}`, cookie })).json().data;
const ledgerRows = (fileHash: string) =>
  h.app.db
    .selectFrom('ledger_entries')
    .select('dna')
    .where('file_hash', 'like', `${fileHash.slice(0, 66)}%`)
    .execute();

const price = () => h.app.config.credits.assetRegistration;
const summary = async (cookie: string) => (await h.request({ method: 'GET', url: '/api/v1/credits/summary', cookie })).json().data as { available: number; consumed: number };

let operator: string | undefined;
/**
 * Credits the real way: one top-up order for all of them, confirmed by a platform
 * operator, then the administrator allocates `amount` to each member (themselves included).
 */
async function giveCredits(admin: { cookie: string }, members: Array<{ phone: string }>, amount: number) {
  operator ??= await operatorCookie(h);
  await topUpPool(h, admin, amount * members.length, operator);
  for (const member of members) {
    const res = await h.request({ method: 'POST', url: '/api/v1/credits/allocations', cookie: admin.cookie, body: { employee_id: await employeeIdOf(h, admin, member.phone), amount } });
    expect(res.statusCode, res.body).toBe(200);
  }
}

let enterpriseSeq = 0;
/**
 * An enterprise with every role of §3: owner (1), administrator (2), officer (3), two members
 * (0) and a member of role 4; each has credits for `assets` registrations, given the real way
 * (top-up order, operator confirmation, allocation).
 */
async function enterprise(assets = 20) {
  enterpriseSeq += 1;
  const owner = await ownerWithEnterprise(h, `资产测试企业${process.pid}-${enterpriseSeq}`);
  const admin = await memberOf(h, owner, 2);
  const officer = await memberOf(h, owner, 3);
  const alice = await memberOf(h, owner, 0);
  const bob = await memberOf(h, owner, 0);
  const carol = await memberOf(h, owner, 4);
  if (assets > 0) await giveCredits(owner, [owner, admin, officer, alice, bob, carol], assets * price());
  return { owner, admin, officer, alice, bob, carol };
}

async function sealAndRender() {
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
}

describe('registering an asset (§5 file to register, §3 types)', () => {
  it('checks every rule on its field and answers the asset, generating', async () => {
    const { alice } = await enterprise();
    const good = { name: '外观设计.psd', type: 2, description: '2027 款外观', file_hash: newIdentity('.psd'), size: 123_456 };
    // §5: a chosen file (its identity) and a name; the type is one of §3's eight.
    expect400(await register(alice.cookie, { ...good, file_hash: '' }), 'required', 'file_hash');
    expect400(await register(alice.cookie, { ...good, file_hash: undefined }), 'required', 'file_hash');
    expect400(await register(alice.cookie, { ...good, file_hash: '0x1234.psd' }), 'invalid_param', 'file_hash');
    expect400(await register(alice.cookie, { ...good, name: '   ' }), 'required', 'name');
    expect400(await register(alice.cookie, { ...good, name: undefined }), 'required', 'name');
    expect400(await register(alice.cookie, { ...good, name: '名'.repeat(101) }), 'lt', 'name');
    expect400(await register(alice.cookie, { ...good, name: 'x'.repeat(401) }), 'lt', 'name');
    expect400(await register(alice.cookie, { ...good, type: undefined }), 'required', 'type');
    expect400(await register(alice.cookie, { ...good, type: 8 }), 'invalid_param', 'type');
    expect400(await register(alice.cookie, { ...good, type: -1 }), 'invalid_param', 'type');
    expect400(await register(alice.cookie, { ...good, type: '2' }), 'invalid_param', 'type');
    expect400(await register(alice.cookie, { ...good, description: '述'.repeat(201) }), 'lt', 'description');
    expect400(await register(alice.cookie, { ...good, size: -5 }), 'invalid_param', 'size');
    // Nothing was written by the refusals.
    expect(await ledgerRows(good.file_hash)).toHaveLength(0);

    const res = await register(alice.cookie, { ...good, name: `  ${good.name}  `, description: `  ${good.description} `, file_hash: good.file_hash.toUpperCase().replace('0X', '0x') });
    expect(res.statusCode, res.body).toBe(200);
    const asset = res.json().data;
    expect(asset).toMatchObject({
      name: '外观设计.psd',
      type: 2,
      description: '2027 款外观',
      file_hash: good.file_hash,
      size: 123_456,
      registrant_name: '李四',
      credits: 200,
      proof_status: 1,
      is_generated: false,
      block_height: null,
      block_hash: null,
      expired_at: null,
    });
    expect(asset.dip_id).toMatch(/^pv[a-z2-7]{20}$/);
    expect(shapeOf(asset)).toEqual(ASSET_SHAPE);
    const detail = await h.request({ method: 'GET', url: `/api/v1/assets/${asset.dip_id}`, cookie: alice.cookie });
    expect(detail.json()).toEqual({ data: asset });
    const page = (await h.request({ method: 'GET', url: '/api/v1/assets', cookie: alice.cookie })).json().data;
    expect(shapeOf(page)).toEqual({ items: [ASSET_SHAPE], page: 'number', page_size: 'number', total: 'number', sees_all: 'boolean' });
    const entry = await h.app.db.selectFrom('ledger_entries').selectAll().where('dna', '=', asset.dip_id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ kind: 'asset', file_hash: good.file_hash, registered_at: asset.registered_at });
    // Every §3 type is accepted; a file without an extension too.
    for (const type of [0, 1, 3, 4, 5, 6, 7]) expect((await registerOk(alice.cookie, { type, file_hash: newIdentity('') })).type).toBe(type);
  });

  it('is for confirmed members of a company, logged in', async () => {
    const loner = await h.register(`1371${String(Date.now()).slice(-7)}`);
    expect((await register(loner, { name: 'x', type: 0, file_hash: newIdentity() })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/v1/assets', cookie: loner })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/v1/assets' })).json()).toEqual({ message: 'token_invalid' });
    expect((await h.request({ method: 'POST', url: '/api/v1/assets', body: { name: 'x', type: 0, file_hash: newIdentity() } })).json()).toEqual({ message: 'token_invalid' });
  });
});

describe('§8 hash duplicate: a file is registered once per enterprise', () => {
  it('refuses the same content again (any member, any extension, any name) with "file already exists", writing nothing', async () => {
    const { alice, bob, owner } = await enterprise();
    const fileHash = newIdentity('.pdf');
    const first = await registerOk(alice.cookie, { file_hash: fileHash, name: 'paper.pdf', type: 4 });
    expect400(await register(alice.cookie, { file_hash: fileHash, name: 'again', type: 4 }), 'hash_duplicate', 'file_hash');
    expect400(await register(bob.cookie, { file_hash: fileHash.replace('.pdf', '.bin'), name: 'copy', type: 7 }), 'hash_duplicate', 'file_hash');
    expect400(await register(owner.cookie, { file_hash: fileHash.slice(0, 66), name: 'no extension', type: 7 }), 'hash_duplicate', 'file_hash');
    expect((await ledgerRows(fileHash)).map((r) => r.dna)).toEqual([first.dip_id]);
    await h.app.ledger.sealNow(); // the proofs row comes with the entry's block
    expect(await h.app.db.selectFrom('proofs').select('dna').where('dna', '=', first.dip_id).execute()).toHaveLength(1);
    // Another enterprise may register the same file as its own asset.
    const other = await enterprise();
    expect((await registerOk(other.alice.cookie, { file_hash: fileHash })).file_hash).toBe(fileHash);
  });

  it('racing registrations of one new file: exactly one wins, the others are hash_duplicate, no orphan ledger entry', async () => {
    const { alice, bob, owner, admin } = await enterprise();
    const fileHash = newIdentity('.mp4');
    const racers = [alice, bob, owner, admin, alice, bob];
    const results = await Promise.all(racers.map((who, i) => register(who.cookie, { file_hash: fileHash, name: `racer ${i}`, type: 0, size: 1 })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect400(r, 'hash_duplicate', 'file_hash');
    expect(await ledgerRows(fileHash)).toHaveLength(1);
    expect(await h.app.db.selectFrom('assets').select('id').where('digest', '=', fileHash.slice(2, 66)).execute()).toHaveLength(1);
  });
});

describe('batch registration: a result per item, one refusal never blocks the others', () => {
  it('registers the good items and answers each refusal on its field, in order', async () => {
    const { alice } = await enterprise();
    const existing = await registerOk(alice.cookie, { name: 'existing.dwg', type: 2 });
    const a = newIdentity('.png');
    const b = newIdentity('.txt');
    const items = [
      { name: 'a.png', type: 1, file_hash: a, size: 10 },
      { name: 'existing again', type: 2, file_hash: existing.file_hash, size: 1 },
      { name: 'bad hash', type: 0, file_hash: 'nope' },
      { name: '', type: 0, file_hash: newIdentity() },
      { name: 'bad type', type: 42, file_hash: newIdentity() },
      null,
      { name: 'a copy in the same batch', type: 1, file_hash: a.replace('.png', '.jpg') },
      { name: 'b.txt', type: 5, file_hash: b, size: 20, description: '数据集说明' },
      { name: 'long description', type: 5, file_hash: newIdentity(), description: 'x'.repeat(201) },
    ];
    const res = await batch(alice.cookie, items);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.registered).toBe(2);
    expect(data.refused).toBe(7);
    expect(data.results.map((r: any) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const summary = data.results.map((r: any) => (r.ok ? ['ok', r.asset.name] : [r.message, r.field_name]));
    expect(summary).toEqual([
      ['ok', 'a.png'],
      ['hash_duplicate', 'file_hash'],
      ['invalid_param', 'file_hash'],
      ['required', 'name'],
      ['invalid_param', 'type'],
      ['required', 'file_hash'],
      ['hash_duplicate', 'file_hash'],
      ['ok', 'b.txt'],
      ['lt', 'description'],
    ]);
    expect(data.results[7].asset).toMatchObject({ type: 5, description: '数据集说明', file_hash: b, size: 20, proof_status: 1 });
    expect(shapeOf(data.results[7])).toEqual({ index: 'number', ok: 'boolean', asset: ASSET_SHAPE });
    expect(data.results[1]).toEqual({ index: 1, ok: false, message: 'hash_duplicate', field_name: 'file_hash' });
    expect(Object.keys(data).sort()).toEqual(['refused', 'registered', 'results']);
    // Each good item is its own committed registration.
    expect(await ledgerRows(a)).toHaveLength(1);
    expect(await ledgerRows(b)).toHaveLength(1);
    expect((await list(alice.cookie)).total).toBe(3);
  });

  it('takes 1 to 500 items per call', async () => {
    const alice = await ownerWithEnterprise(h, `批量上限${process.pid}`);
    await giveCredits(alice, [alice], ASSET_BATCH_MAX * price());
    expect400(await batch(alice.cookie, []), 'gt', 'items');
    expect400(await batch(alice.cookie, new Array(ASSET_BATCH_MAX + 1).fill({ name: 'x', type: 0, file_hash: newIdentity() })), 'lt', 'items');
    expect400(await h.request({ method: 'POST', url: '/api/v1/assets/batch', cookie: alice.cookie, body: {} }), 'required', 'items');
    const many = Array.from({ length: ASSET_BATCH_MAX }, (_, i) => ({ name: `file-${i}.bin`, type: i % 8, file_hash: newIdentity('.bin'), size: i }));
    const res = await batch(alice.cookie, many);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ registered: ASSET_BATCH_MAX, refused: 0 });
    // This test is about the batch; 500 certificates rendering behind the later tests would only slow them.
    const dnas = res.json().data.results.map((r: any) => r.asset.dip_id);
    await h.app.db.updateTable('proofs').set({ error: 'not rendered in this test' }).where('dna', 'in', dnas).execute();
    expect((await list(alice.cookie, 'page_size=1')).total).toBe(ASSET_BATCH_MAX);
    expect(await summary(alice.cookie)).toMatchObject({ available: 0, consumed: ASSET_BATCH_MAX * price() });
  }, 120_000);
});

describe('the asset list: filters, paging, sorting', () => {
  it('filters by type, time (seconds or milliseconds, §3), proof status, registrant and keyword; pages and sorts', async () => {
    const { owner, alice, bob } = await enterprise();
    const made = [] as any[];
    const specs = [
      { who: alice, name: 'Beta.psd', type: 1, size: 300 },
      { who: alice, name: 'alpha.dwg', type: 2, size: 100 },
      { who: bob, name: 'Gamma.py', type: 3, size: 200 },
      { who: bob, name: 'delta.csv', type: 5, size: 500 },
      { who: alice, name: 'epsilon_1%.csv', type: 5, size: 400 },
    ];
    for (const s of specs) made.push(await registerOk(s.who.cookie, { name: s.name, type: s.type, size: s.size }));
    // Registration times a day apart (only the list's time column), oldest first.
    const day = 86_400_000;
    const base = Date.UTC(2026, 0, 1);
    for (const [i, a] of made.entries()) await h.app.db.updateTable('assets').set({ created_at: base + i * day }).where('dna', '=', a.dip_id).execute();

    const names = (data: any) => data.items.map((x: any) => x.name);
    // Default: newest first, the configured page size.
    const all = await list(owner.cookie);
    expect(all).toMatchObject({ total: 5, page: 1, page_size: 10, sees_all: true });
    expect(names(all)).toEqual(['epsilon_1%.csv', 'delta.csv', 'Gamma.py', 'alpha.dwg', 'Beta.psd']);
    // Type: one, or several (the key repeated).
    expect(names(await list(owner.cookie, 'type=5'))).toEqual(['epsilon_1%.csv', 'delta.csv']);
    expect(names(await list(owner.cookie, 'type=1&type=3'))).toEqual(['Gamma.py', 'Beta.psd']);
    expect400(await h.request({ method: 'GET', url: '/api/v1/assets?type=8', cookie: owner.cookie }), 'invalid_param', 'type');
    // Time: inclusive range, in milliseconds or seconds.
    expect(names(await list(owner.cookie, `created_from=${base + day}&created_to=${base + 3 * day}`))).toEqual(['delta.csv', 'Gamma.py', 'alpha.dwg']);
    expect(names(await list(owner.cookie, `created_from=${(base + day) / 1000}&created_to=${(base + 3 * day) / 1000}`))).toEqual(['delta.csv', 'Gamma.py', 'alpha.dwg']);
    expect(names(await list(owner.cookie, `created_from=${(base + 4 * day) / 1000}`))).toEqual(['epsilon_1%.csv']);
    // Registrant (who sees all).
    const aliceId = made[0].registrant_user_id;
    expect(names(await list(owner.cookie, `registrant_user_id=${aliceId}`))).toEqual(['epsilon_1%.csv', 'alpha.dwg', 'Beta.psd']);
    // Keyword: a name part (LIKE characters are literal), a DNA, a file hash with or without 0x and extension.
    expect(names(await list(owner.cookie, 'keyword=ALPHA'))).toEqual(['alpha.dwg']);
    expect(names(await list(owner.cookie, `keyword=${encodeURIComponent('1%')}`))).toEqual(['epsilon_1%.csv']);
    expect(names(await list(owner.cookie, 'keyword=_'))).toEqual(['epsilon_1%.csv']);
    expect(names(await list(owner.cookie, `keyword=${made[2].dip_id}`))).toEqual(['Gamma.py']);
    expect(names(await list(owner.cookie, `keyword=${made[3].file_hash.slice(2, 66)}`))).toEqual(['delta.csv']);
    // Sorting: name (ascending by default), size, time; either order.
    expect(names(await list(owner.cookie, 'sort=size'))).toEqual(['delta.csv', 'epsilon_1%.csv', 'Beta.psd', 'Gamma.py', 'alpha.dwg']);
    expect(names(await list(owner.cookie, 'sort=size&order=asc'))).toEqual(['alpha.dwg', 'Gamma.py', 'Beta.psd', 'epsilon_1%.csv', 'delta.csv']);
    expect(names(await list(owner.cookie, 'sort=time&order=asc'))).toEqual(['Beta.psd', 'alpha.dwg', 'Gamma.py', 'delta.csv', 'epsilon_1%.csv']);
    const byName = ['alpha.dwg', 'Beta.psd', 'delta.csv', 'epsilon_1%.csv', 'Gamma.py'];
    expect(names(await list(owner.cookie, 'sort=name'))).toEqual(byName);
    expect(names(await list(owner.cookie, 'sort=name&order=desc'))).toEqual([...byName].reverse());
    expect400(await h.request({ method: 'GET', url: '/api/v1/assets?sort=colour', cookie: owner.cookie }), 'invalid_param', 'sort');
    // Paging.
    const p1 = await list(owner.cookie, 'page_size=2&sort=size&order=asc');
    const p3 = await list(owner.cookie, 'page=3&page_size=2&sort=size&order=asc');
    expect(p1).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(names(p1)).toEqual(['alpha.dwg', 'Gamma.py']);
    expect(names(p3)).toEqual(['delta.csv']);
    expect(names(await list(owner.cookie, 'page=4&page_size=2'))).toEqual([]);
    expect400(await h.request({ method: 'GET', url: '/api/v1/assets?page_size=101', cookie: owner.cookie }), 'lt', 'page_size');

    // Proof status: generating until the block is sealed and the certificate rendered.
    expect((await list(owner.cookie, 'proof_status=generating')).total).toBe(5);
    expect((await list(owner.cookie, 'proof_status=generated')).total).toBe(0);
    await sealAndRender();
    const late = await registerOk(alice.cookie, { name: 'late.bin', type: 7 });
    expect(names(await list(owner.cookie, 'proof_status=generating'))).toEqual(['late.bin']);
    const generated = await list(owner.cookie, 'proof_status=generated');
    expect(generated.total).toBe(5);
    expect(generated.items.every((x: any) => x.is_generated && x.proof_status >= 5 && x.block_height >= 1 && /^[0-9a-f]{64}$/.test(x.block_hash))).toBe(true);
    // Filters combine.
    expect(names(await list(owner.cookie, `proof_status=generated&type=5&registrant_user_id=${aliceId}`))).toEqual(['epsilon_1%.csv']);
    expect(late.is_generated).toBe(false);
  });
});

describe('§6 visibility: a plain member sees their own assets, roles 1, 2 and 3 the enterprise’s', () => {
  it('holds for the list, the registrant filter, the detail, the proof and search', async () => {
    const { owner, admin, officer, alice, bob, carol } = await enterprise();
    const mine = await registerOk(alice.cookie, { name: 'alice.psd' });
    const bobs = await registerOk(bob.cookie, { name: 'bob.dwg', type: 2 });
    const carols = await registerOk(carol.cookie, { name: 'carol.py', type: 3 });
    const ownerAsset = await registerOk(owner.cookie, { name: 'owner.pdf', type: 4 });
    await sealAndRender();
    const every = [mine, bobs, carols, ownerAsset].map((a) => a.dip_id).sort();
    const other = await enterprise();
    const foreign = await registerOk(other.owner.cookie, { name: 'foreign.bin' });

    const matrix: Array<[string, { cookie: string }, string[], boolean]> = [
      ['super administrator (1)', owner, every, true],
      ['administrator (2)', admin, every, true],
      ['confidentiality officer (3)', officer, every, true],
      ['member (0) alice', alice, [mine.dip_id], false],
      ['member (0) bob', bob, [bobs.dip_id], false],
      ['member (4) carol', carol, [carols.dip_id], false],
    ];
    for (const [who, viewer, visible, seesAll] of matrix) {
      const data = await list(viewer.cookie, 'page_size=100');
      expect(data.items.map((x: any) => x.dip_id).sort(), who).toEqual([...visible].sort());
      expect(data.sees_all, who).toBe(seesAll);
      for (const asset of [mine, bobs, carols, ownerAsset, foreign]) {
        const canSee = visible.includes(asset.dip_id);
        const detail = await h.request({ method: 'GET', url: `/api/v1/assets/${asset.dip_id}`, cookie: viewer.cookie });
        const proof = await h.request({ method: 'GET', url: `/api/v1/assets/${asset.dip_id}/proof`, cookie: viewer.cookie });
        const found = await search(asset.dip_id, viewer.cookie);
        const byHash = await search(asset.file_hash, viewer.cookie);
        if (canSee) {
          expect(detail.statusCode, `${who} detail ${asset.name}`).toBe(200);
          expect(detail.json().data.dip_id).toBe(asset.dip_id);
          expect(proof.statusCode, `${who} proof ${asset.name}`).toBe(200);
          expect(found, `${who} search ${asset.name}`).toEqual({ entity_type: 1, dip_id: asset.dip_id, project_id: null });
          expect(byHash, `${who} search by hash ${asset.name}`).toEqual({ entity_type: 1, dip_id: asset.dip_id, project_id: null });
        } else {
          expect400(detail, 'not_found', 'asset_id');
          expect400(proof, 'not_found', 'asset_id');
          expect(found, `${who} search ${asset.name}`).toEqual({ entity_type: 0, dip_id: null, project_id: null });
          expect(byHash, `${who} search by hash ${asset.name}`).toEqual({ entity_type: 0, dip_id: null, project_id: null });
        }
      }
    }
    // A plain member's registrant filter cannot reach someone else's assets.
    expect((await list(alice.cookie, `registrant_user_id=${bobs.registrant_user_id}`)).total).toBe(0);
    // The registrant filter's choices follow the same rule.
    const registrants = async (cookie: string) => (await h.request({ method: 'GET', url: '/api/v1/assets/registrants', cookie })).json().data;
    expect((await registrants(officer.cookie)).map((r: any) => r.user_id).sort()).toEqual([mine, bobs, carols, ownerAsset].map((a) => a.registrant_user_id).sort());
    expect(await registrants(alice.cookie)).toEqual([{ user_id: mine.registrant_user_id, name: '李四', asset_count: 1 }]);
    // Anonymous search never finds an asset, by DNA or hash.
    expect(await search(mine.dip_id)).toEqual({ entity_type: 0, dip_id: null, project_id: null });
    expect(await search(mine.file_hash)).toEqual({ entity_type: 0, dip_id: null, project_id: null });
  });
});

describe('detail and proof', () => {
  it('answers the detail by DNA with block address once sealed, and the PDF only when generated', async () => {
    const { alice } = await enterprise();
    const asset = await registerOk(alice.cookie, { name: '论文.pdf', type: 4, description: '期刊投稿版', size: 9 });
    const detail = async () => (await h.request({ method: 'GET', url: `/api/v1/assets/${asset.dip_id}`, cookie: alice.cookie })).json().data;
    expect(await detail()).toEqual(asset);
    expect400(await h.request({ method: 'GET', url: `/api/v1/assets/${asset.dip_id}/proof`, cookie: alice.cookie }), 'proof_record_not_found', 'asset_id');
    expect400(await h.request({ method: 'GET', url: '/api/v1/assets/not-a-dna', cookie: alice.cookie }), 'not_found', 'asset_id');
    expect400(await h.request({ method: 'GET', url: '/api/v1/assets/pvaaaaaaaaaaaaaaaaaaaa', cookie: alice.cookie }), 'not_found', 'asset_id');

    await sealAndRender();
    const sealed = await detail();
    const entry = await h.app.db.selectFrom('ledger_entries').select('block_height').where('dna', '=', asset.dip_id).executeTakeFirstOrThrow();
    const block = await h.app.db.selectFrom('ledger_blocks').select(['height', 'hash']).where('height', '=', Number(entry.block_height)).executeTakeFirstOrThrow();
    expect(sealed).toMatchObject({ is_generated: true, block_height: Number(block.height), block_hash: block.hash, description: '期刊投稿版' });
    expect(sealed.proof_status).toBeGreaterThanOrEqual(5);
    expect(sealed.expired_at).toBeGreaterThan(Date.now());
    const pdf = await h.request({ method: 'GET', url: `/api/v1/assets/${asset.dip_id}/proof`, cookie: alice.cookie });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="provena-proof-${asset.dip_id}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('search/dip-data keeps the other entries as they were', () => {
  it('a DNA of a plain ledger entry is public, its file hash only its registrant’s', async () => {
    const { alice, bob } = await enterprise();
    const fileHash = newIdentity('.txt');
    // A plain entry (not an asset or a vault file), made by the ledger's in-process service as a feature would.
    const aliceId = Number((await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', alice.phone).executeTakeFirstOrThrow()).id);
    const dna = (await h.app.registerEntry({ fileHash, enterpriseName: 'x', registrantUserId: aliceId, kind: 'file' })).dna;
    const hit = { entity_type: 1, dip_id: dna, project_id: null };
    expect(await search(dna)).toEqual(hit);
    expect(await search(dna, bob.cookie)).toEqual(hit);
    expect(await search(fileHash, alice.cookie)).toEqual(hit);
    expect(await search(fileHash, bob.cookie)).toEqual({ entity_type: 0, dip_id: null, project_id: null });
  });
});

describe('§9 credits: each registration is charged in its transaction; a refusal charges nothing', () => {
  const noneLeft = (res: Res) => expect400(res, 'integrals_not_enough');

  it('charges the configured price to the registrant; short credits are refused (§8) with nothing written or charged', async () => {
    const { owner, alice, bob } = await enterprise(0);
    // Bob has no credits at all.
    const fileHash = newIdentity('.ai');
    noneLeft(await register(bob.cookie, { name: 'logo.ai', type: 1, file_hash: fileHash }));
    expect(await ledgerRows(fileHash)).toHaveLength(0);
    expect((await list(bob.cookie)).total).toBe(0);
    expect(await summary(bob.cookie)).toMatchObject({ available: 0, consumed: 0 });

    // Alice has credits for one and a half registrations.
    await giveCredits(owner, [alice], price() + price() / 2);
    const first = await registerOk(alice.cookie, { name: 'first.ai' });
    expect(first.credits).toBe(price());
    expect(await summary(alice.cookie)).toMatchObject({ available: price() / 2, consumed: price() });
    // A duplicate or a rule refusal is never charged.
    expect400(await register(alice.cookie, { name: 'again', type: 1, file_hash: first.file_hash }), 'hash_duplicate', 'file_hash');
    expect400(await register(alice.cookie, { name: '', type: 1, file_hash: newIdentity() }), 'required', 'name');
    const second = newIdentity('.ai');
    noneLeft(await register(alice.cookie, { name: 'second.ai', type: 1, file_hash: second }));
    expect(await ledgerRows(second)).toHaveLength(0);
    expect(await summary(alice.cookie)).toMatchObject({ available: price() / 2, consumed: price() });
    const movements = await h.app.db.selectFrom('credit_movements').select(['kind', 'delta', 'reference']).where('reference', '=', first.dip_id).execute();
    expect(movements).toEqual([{ kind: 'asset_registration', delta: -price(), reference: first.dip_id }]);
  });

  it('a batch charges each registered item; once the credits run out the rest are refused, uncharged', async () => {
    const { owner, alice } = await enterprise(0);
    await giveCredits(owner, [alice], 2 * price());
    const items = Array.from({ length: 4 }, (_, i) => ({ name: `batch-${i}.bin`, type: 5, file_hash: newIdentity('.bin') }));
    const data = (await batch(alice.cookie, items)).json().data;
    expect(data.results.map((r: any) => (r.ok ? 'ok' : r.message))).toEqual(['ok', 'ok', 'integrals_not_enough', 'integrals_not_enough']);
    for (const item of items.slice(2)) expect(await ledgerRows(item.file_hash)).toHaveLength(0);
    expect(await summary(alice.cookie)).toMatchObject({ available: 0, consumed: 2 * price() });
  });

  it('concurrent registrations of different files never spend more than the member has', async () => {
    const { owner, alice } = await enterprise(0);
    await giveCredits(owner, [alice], 3 * price());
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => register(alice.cookie, { name: `concurrent-${i}`, type: 0, file_hash: newIdentity() })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    for (const r of results.filter((x) => x.statusCode !== 200)) noneLeft(r);
    expect((await list(alice.cookie)).total).toBe(3);
    expect(await summary(alice.cookie)).toMatchObject({ available: 0, consumed: 3 * price() });
    expect(await h.app.db.selectFrom('ledger_entries').select('dna').where('registrant_user_id', '=', (await list(alice.cookie)).items[0].registrant_user_id).execute()).toHaveLength(3);
  });

  it('the price follows the configuration, and registering is free when credits are not required', async () => {
    const { bob } = await enterprise(0);
    const saved = { ...h.app.config.credits, integralRequired: h.app.config.integralRequired };
    try {
      h.app.config.integralRequired = false;
      expect((await registerOk(bob.cookie)).credits).toBe(0);
      expect(await summary(bob.cookie)).toMatchObject({ available: 0, consumed: 0 });
    } finally {
      h.app.config.integralRequired = saved.integralRequired;
    }
  });
});
