import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { identityOf, memberOf, newPhone, ownerWithEnterprise, realAuth } from './enterprise-helpers.ts';
import { listen, tusUpload } from './storage-helpers.ts';
import { creditsForAssets, giveCredits, registerAsset } from './credit-helpers.ts';
import { SMS_TYPES } from '../../core/constants.ts';
import { DISCLOSURE_SMS_TYPES } from '../../core/disclosure.ts';
import type { HomeEventDto, HomeSummaryDto } from '../../core/home.ts';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await startHarness();
  base = await listen(h);
});
afterAll(async () => {
  await h?.close();
});

type Res = { statusCode: number; json(): any; body: string };
type Person = { cookie: string; phone: string };

function ok(res: Res) {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const newIdentity = (ext = '.docx') => `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;

async function unlock(who: Person) {
  await clearRateLimits(h.app);
  ok(await h.request({ method: 'GET', url: `/api/v1/validation/private-code?type=${SMS_TYPES.vaultUnlock}`, cookie: who.cookie }));
  ok(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie: who.cookie, body: { new_phone_number: who.phone, validation_code: await h.latestCode(who.phone) } }));
}

async function project(who: Person, name: string): Promise<number> {
  return ok(await h.request({ method: 'POST', url: '/api/v1/vault/projects', cookie: who.cookie, body: { name } })).project_id;
}

async function registerVaultFile(who: Person, projectId: number, name: string) {
  return ok(await h.request({ method: 'POST', url: `/api/v1/vault/projects/${projectId}/files`, cookie: who.cookie, body: { name, file_hash: newIdentity(), size: 10 } }));
}

const summary = async (who: Person): Promise<HomeSummaryDto> => ok(await h.request({ method: 'GET', url: '/api/v1/home/summary', cookie: who.cookie }));
const activity = async (who: Person, query = ''): Promise<{ items: HomeEventDto[]; next_cursor: string | null }> =>
  ok(await h.request({ method: 'GET', url: `/api/v1/home/activity${query}`, cookie: who.cookie }));

/** Every event of the feed, walking pages of `limit`. */
async function wholeFeed(who: Person, limit: number): Promise<HomeEventDto[]> {
  const out: HomeEventDto[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const page = await activity(who, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    out.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('the feed did not end');
}

let seq = 0;
/**
 * An enterprise: owner (1), officer (3), admin (2), and two plain members alice and bob (0),
 * vaults unlocked; the owner, alice and bob hold credits for ten vault files each.
 */
async function enterprise() {
  seq += 1;
  const owner = await ownerWithEnterprise(h, `首页测试企业${process.pid}-${seq}`);
  const officer = await memberOf(h, owner, 3);
  const admin = await memberOf(h, owner, 2);
  const alice = await memberOf(h, owner, 0);
  const bob = await memberOf(h, owner, 0);
  for (const who of [owner, officer, admin, alice, bob]) await unlock(who);
  for (const who of [owner, alice, bob]) await giveCredits(h, owner, who, 10 * h.app.config.credits.vaultFile);
  return { owner, officer, admin, alice, bob, name: owner.company.name as string };
}

describe('GET /api/v1/home/summary: counters per §6', () => {
  it('a plain member counts their own data; roles 1–3 the enterprise’s and its members', async () => {
    const { owner, officer, admin, alice, bob } = await enterprise();
    const pa = await project(alice, '甲的项目');
    await registerVaultFile(alice, pa, 'a1.docx');
    await registerVaultFile(alice, pa, 'a2.docx');
    const pb = await project(bob, '乙的项目');
    await registerVaultFile(bob, pb, 'b1.docx');
    await project(owner, '老板的空项目');

    const mine = await summary(alice);
    expect(mine).toMatchObject({ scope: 'own', role: 0, is_vault_open: true });
    const vaultPrice = h.app.config.credits.vaultFile;
    const assetPrice = h.app.config.credits.assetRegistration;
    ok(await h.request({ method: 'POST', url: '/api/v1/assets', cookie: alice.cookie, body: { name: '设计稿.psd', type: 1, file_hash: newIdentity('.psd'), size: 10 } }));
    expect(Object.keys(mine).sort()).toEqual(['counters', 'enterprise_id', 'enterprise_name', 'is_vault_open', 'role', 'scope']);
    expect(mine.counters).toEqual({
      assets: 0,
      vault_projects: 1,
      vault_files: 2,
      disclosures: 0,
      credits: { available: 8 * vaultPrice, consumed: 2 * vaultPrice, pool: null },
      members: null,
      pending_applications: null,
    });
    expect((await summary(alice)).counters).toMatchObject({ assets: 1, credits: { available: 8 * vaultPrice - assetPrice, consumed: 2 * vaultPrice + assetPrice, pool: null } });
    expect((await summary(bob)).counters).toMatchObject({ assets: 0, vault_projects: 1, vault_files: 1, members: null, credits: { available: 9 * vaultPrice, consumed: vaultPrice } });

    for (const who of [owner, officer, admin]) {
      const all = await summary(who);
      expect(all.scope).toBe('enterprise');
      // Every credit topped up was allocated: the pool is empty.
      expect(all.counters).toMatchObject({ assets: 1, vault_projects: 3, vault_files: 3, members: 5, pending_applications: 0, credits: { consumed: 3 * vaultPrice + assetPrice, pool: 0 } });
    }
    expect((await summary(officer)).counters.credits.available).toBe(0);

    // An application waits; a frozen member is still a member; a rejected applicant is not.
    const applicant = newPhone('134');
    const applicantCookie = await h.register(applicant);
    await realAuth(h, applicantCookie, '王五');
    ok(await h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: owner.company.invitation_code }, cookie: applicantCookie }));
    expect((await summary(officer)).counters).toMatchObject({ members: 5, pending_applications: 1 });
    const employees = ok(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?page_size=100', cookie: owner.cookie })).items as Array<{ employee_id: number; phone: string }>;
    const byPhone = (p: string) => employees.find((e) => e.phone === p)!.employee_id;
    ok(await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', cookie: owner.cookie, body: { employee_id: byPhone(applicant), status: 3 } }));
    ok(await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', cookie: owner.cookie, body: { employee_id: byPhone(bob.phone), status: 4 } }));
    expect((await summary(admin)).counters).toMatchObject({ members: 5, pending_applications: 0 });
  });

  it('is for confirmed members of a company: 403 otherwise, token_invalid without a login', async () => {
    const loner = await h.register(newPhone('133'));
    expect((await h.request({ method: 'GET', url: '/api/v1/home/summary', cookie: loner })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/v1/home/activity', cookie: loner })).statusCode).toBe(403);
    const anonymous = await h.request({ method: 'GET', url: '/api/v1/home/summary' });
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json()).toMatchObject({ message: 'token_invalid' });
  });
});

describe('GET /api/v1/home/activity: the feed per §6', () => {
  it('a plain member never sees another member’s vault events; roles 1–3 see everyone’s', async () => {
    const { owner, officer, alice, bob } = await enterprise();
    const pa = await project(alice, '配方项目');
    const fa = await registerVaultFile(alice, pa, '配方.docx');
    const pb = await project(bob, '乙的秘密');
    await registerVaultFile(bob, pb, '乙的文件.docx');
    ok(await h.request({ method: 'PUT', url: `/api/v1/vault/projects/${pb}`, cookie: bob.cookie, body: { name: '乙的秘密二', description: '' } }));

    const aliceVault = (await wholeFeed(alice, 50)).filter((e) => e.source === 'vault');
    expect(aliceVault.map((e) => e.kind).sort()).toEqual(['file_registered', 'project_created']);
    expect(aliceVault.every((e) => e.source === 'vault' && e.project_id === pa && e.actor_name !== '' && e.is_mine)).toBe(true);
    const registered = aliceVault.find((e) => e.kind === 'file_registered')!;
    expect(registered).toMatchObject({ project_name: '配方项目', file_name: '配方.docx', dip_id: fa.dip_id });
    // Nothing of bob's vault reaches alice, on any page size.
    for (const limit of [1, 3, 50]) {
      const feed = await wholeFeed(alice, limit);
      expect(feed.filter((e) => e.source === 'vault' && e.project_id === pb)).toEqual([]);
      expect(JSON.stringify(feed)).not.toContain('乙的');
    }

    for (const who of [officer, owner]) {
      const vault = (await wholeFeed(who, 50)).filter((e) => e.source === 'vault');
      expect(vault.filter((e) => e.source === 'vault' && e.project_id === pb).map((e) => e.kind).sort()).toEqual(['file_registered', 'project_created', 'project_updated']);
      expect(vault.filter((e) => e.source === 'vault' && e.project_id === pa)).toHaveLength(2);
      // Unlocking is in the vault log, not in the home feed.
      expect(vault.some((e) => e.kind === 'vault_unlocked' || e.kind === 'vault_locked')).toBe(false);
    }
  });

  it('vault names stay behind the unlock: a locked vault shows what happened, not what it was called', async () => {
    const { officer, alice } = await enterprise();
    const pa = await project(alice, '锁后不可见');
    await registerVaultFile(alice, pa, '机密.xlsx');
    ok(await h.request({ method: 'DELETE', url: '/api/v1/vault/authorization', cookie: officer.cookie }));
    expect((await summary(officer)).is_vault_open).toBe(false);
    const feed = (await wholeFeed(officer, 50)).filter((e) => e.source === 'vault');
    expect(feed.length).toBe(2);
    for (const e of feed) expect(e).toMatchObject({ project_id: pa, project_name: null, file_name: null, dip_id: null });
    expect(JSON.stringify(feed)).not.toContain('机密');
    // Counters are numbers, not secrets.
    expect((await summary(officer)).counters).toMatchObject({ vault_projects: 1, vault_files: 1 });
    await unlock(officer);
    expect((await wholeFeed(officer, 50)).find((e) => e.source === 'vault' && e.kind === 'file_registered')).toMatchObject({ project_name: '锁后不可见', file_name: '机密.xlsx' });
  });

  it('membership history: created, applied, approved, role changes, invitations; a member sees only their own', async () => {
    const { owner, officer, admin, alice, bob } = await enterprise();
    const all = (await wholeFeed(officer, 50)).filter((e) => e.source === 'member');
    const kinds = (who: string) => all.filter((e) => e.source === 'member' && e.member_user_id === Number(who)).map((e) => e.kind);
    const userIdOf = async (p: Person) => ok(await h.request({ method: 'GET', url: '/api/v1/users', cookie: p.cookie })).id as number;
    const [ownerId, aliceId, bobId] = await Promise.all([userIdOf(owner), userIdOf(alice), userIdOf(bob)]);
    expect(kinds(String(ownerId))).toEqual(['created']);
    expect(kinds(String(aliceId)).sort()).toEqual(['applied', 'approved']);
    // memberOf gave the officer and the admin their roles after approval.
    expect(all.filter((e) => e.source === 'member' && e.kind === 'role_changed').map((e) => (e.source === 'member' ? e.role : null)).sort()).toEqual([2, 3]);
    const approval = all.find((e) => e.source === 'member' && e.kind === 'approved' && e.member_user_id === aliceId)!;
    expect(approval).toMatchObject({ actor_user_id: ownerId, is_mine: false, is_about_me: false });
    expect(approval.actor_name).not.toBe('');

    const mine = (await wholeFeed(alice, 50)).filter((e) => e.source === 'member');
    expect(mine.map((e) => e.kind).sort()).toEqual(['applied', 'approved']);
    expect(mine.every((e) => e.source === 'member' && e.member_user_id === aliceId && e.is_about_me)).toBe(true);
    expect((await wholeFeed(bob, 50)).some((e) => e.source === 'member' && e.member_user_id === aliceId)).toBe(false);

    // An administrator invites an existing account, which accepts; freezing is recorded too.
    const guest = newPhone('132');
    const guestCookie = await h.register(guest);
    await realAuth(h, guestCookie, '赵六');
    const added = ok(await h.request({ method: 'POST', url: '/api/v2/users/members', cookie: admin.cookie, body: { phone: guest, name: '赵六', role: 0 } }));
    expect(added.outcome).toBe('invited');
    const invitation = ok(await h.request({ method: 'GET', url: '/api/v2/users/invitation/enterprise', cookie: guestCookie }));
    ok(await h.request({ method: 'PUT', url: `/api/v2/users/invitation/${invitation.invitation_id}`, cookie: guestCookie, body: { status: 2 } }));
    const employees = ok(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?page_size=100', cookie: owner.cookie })).items as Array<{ employee_id: number; phone: string; user_id: number }>;
    const bobRow = employees.find((e) => e.phone === bob.phone)!;
    ok(await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', cookie: admin.cookie, body: { employee_id: bobRow.employee_id, status: 4 } }));
    const latest = (await activity(owner, '?limit=3')).items;
    expect(latest.map((e) => e.kind)).toEqual(['frozen', 'joined', 'invited']);
    expect(latest[0]).toMatchObject({ member_user_id: bobId, actor_name: expect.any(String) });
    // A new account added by an administrator joins at once.
    ok(await h.request({ method: 'POST', url: '/api/v2/users/members', cookie: owner.cookie, body: { phone: newPhone('131'), name: '孙七', role: 0, password: 'Passw0rdA' } }));
    expect((await activity(officer, '?limit=1')).items[0]).toMatchObject({ source: 'member', kind: 'added', member_name: '孙七', actor_user_id: ownerId });
  });

  it('disclosures: the sender’s and, for roles 1–3, everyone’s; the receiver is shown masked', async () => {
    const { owner, alice, bob, name } = await enterprise();
    async function disclose(who: Person, label: string) {
      const bytes = randomBytes(1024);
      const identity = identityOf(bytes, 'pdf');
      // A plain ledger entry (the feed's ledger source), made by the ledger's in-process service as a feature would.
      const userId = Number((await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', who.phone).executeTakeFirstOrThrow()).id);
      await h.app.registerEntry({ fileHash: identity, enterpriseName: name, registrantUserId: userId, kind: 'file' });
      expect((await tusUpload(base, who.cookie, bytes, identity, { filename: `${label}.pdf` })).error).toBeNull();
      await clearRateLimits(h.app);
      ok(await h.request({ method: 'GET', url: '/api/v2/disclosures/validation-code', cookie: who.cookie }));
      const code = await h.app.db.selectFrom('sms_outbox').select('code').where('phone', '=', who.phone).where('type', '=', DISCLOSURE_SMS_TYPES.senderConfirm).orderBy('id', 'desc').executeTakeFirstOrThrow();
      const receiver = newPhone('158');
      const record = ok(
        await h.request({
          method: 'POST',
          url: '/api/v2/disclosures',
          cookie: who.cookie,
          body: { hash: identity, name: label, received_phone: receiver, store_name: '仓库', type: 2, store_forever: true, validation_code: code.code },
        }),
      );
      return { id: record.disclosure_id as string, receiver };
    }
    const a = await disclose(alice, '甲的披露');
    const b = await disclose(bob, '乙的披露');
    ok(await h.request({ method: 'PUT', url: `/api/v2/disclosures/records/${b.id}/revoke`, cookie: owner.cookie }));

    const aliceFeed = await wholeFeed(alice, 50);
    const aliceDisclosures = aliceFeed.filter((e) => e.source === 'disclosure');
    expect(aliceDisclosures).toEqual([expect.objectContaining({ kind: 'sent', disclosure_id: a.id, file_name: '甲的披露', is_mine: true, receiver_phone: `${a.receiver.slice(0, 3)}****${a.receiver.slice(-4)}` })]);
    expect(JSON.stringify(aliceFeed)).not.toContain(b.receiver.slice(-4) + '"');
    expect((await summary(alice)).counters.disclosures).toBe(1);

    const ownerFeed = (await wholeFeed(owner, 50)).filter((e) => e.source === 'disclosure');
    expect(ownerFeed.map((e) => `${e.source === 'disclosure' ? e.disclosure_id : ''}:${e.kind}`).sort()).toEqual([`${a.id}:sent`, `${b.id}:revoked`, `${b.id}:sent`].sort());
    const revoked = ownerFeed.find((e) => e.kind === 'revoked')!;
    expect(revoked).toMatchObject({ actor_user_id: null, actor_name: '' });
    expect((await summary(owner)).counters.disclosures).toBe(2);

    // The disclosed files were registered on the ledger as plain entries: the ledger source.
    const ledger = aliceFeed.filter((e) => e.source === 'ledger');
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'registered', entry_kind: 'file', is_mine: true, dip_id: expect.stringMatching(/^pv/) });
    expect((await wholeFeed(owner, 50)).filter((e) => e.source === 'ledger')).toHaveLength(2);
  });

  it('digital assets and credits: registrations with what they were charged, top-ups for roles 1–3, a member’s own allocations', async () => {
    const { owner, officer, alice, bob } = await enterprise();
    const asset = ok(await h.request({ method: 'POST', url: '/api/v1/assets', cookie: alice.cookie, body: { name: '外观设计.png', type: 2, file_hash: newIdentity('.png'), size: 10 } }));
    ok(await h.request({ method: 'POST', url: '/api/v1/assets', cookie: bob.cookie, body: { name: '乙的资产.png', type: 2, file_hash: newIdentity('.png'), size: 10 } }));
    const aliceFeed = await wholeFeed(alice, 50);
    expect(aliceFeed.filter((e) => e.source === 'asset')).toEqual([
      expect.objectContaining({ kind: 'registered', dip_id: asset.dip_id, asset_name: '外观设计.png', asset_type: 2, credits: h.app.config.credits.assetRegistration, is_mine: true }),
    ]);
    // An asset is a ledger entry too, but shows once: as an asset.
    expect(aliceFeed.filter((e) => e.source === 'ledger')).toEqual([]);
    // Alice's credits: her allocation, nobody else's, and no top-up of the pool.
    const aliceCredits = aliceFeed.filter((e) => e.source === 'credit');
    expect(aliceCredits).toEqual([expect.objectContaining({ kind: 'allocate', amount: 10 * h.app.config.credits.vaultFile, member_name: '李四', is_mine: false })]);
    expect(aliceCredits[0]!.actor_name).not.toBe('');
    // Each source's events whole (one response schema carries the union of their fields).
    const head = ['actor_name', 'actor_user_id', 'at', 'event_id', 'is_mine', 'kind', 'source'];
    expect(Object.keys(aliceFeed.find((e) => e.source === 'asset')!).sort()).toEqual([...head, 'asset_name', 'asset_type', 'credits', 'dip_id'].sort());
    expect(Object.keys(aliceCredits[0]!).sort()).toEqual([...head, 'amount', 'member_name', 'member_user_id', 'reference'].sort());

    const officerFeed = await wholeFeed(officer, 50);
    expect(officerFeed.filter((e) => e.source === 'asset').map((e) => (e.source === 'asset' ? e.asset_name : '')).sort()).toEqual(['乙的资产.png', '外观设计.png']);
    const credits = officerFeed.filter((e) => e.source === 'credit');
    expect(credits.filter((e) => e.kind === 'top_up')).toHaveLength(3);
    expect(credits.filter((e) => e.kind === 'allocate')).toHaveLength(3);
    expect(credits.find((e) => e.kind === 'top_up')).toMatchObject({ member_user_id: null, reference: expect.stringMatching(/^TU/), actor_user_id: null });
    // Taking credits back is one event on the member's side.
    const employees = ok(await h.request({ method: 'GET', url: `/api/v1/credits/members?keyword=${bob.phone}`, cookie: owner.cookie })).items as Array<{ employee_id: number }>;
    ok(await h.request({ method: 'POST', url: '/api/v1/credits/allocations', cookie: owner.cookie, body: { employee_id: employees[0]!.employee_id, amount: 5, direction: 'reclaim' } }));
    expect((await activity(officer, '?limit=1')).items[0]).toMatchObject({ source: 'credit', kind: 'reclaim', amount: 5, is_mine: false });
    expect((await activity(owner, '?limit=1')).items[0]).toMatchObject({ source: 'credit', kind: 'reclaim', amount: 5, is_mine: true });
    expect((await activity(bob, '?limit=1')).items[0]).toMatchObject({ source: 'credit', kind: 'reclaim', amount: 5 });
    expect((await wholeFeed(alice, 50)).some((e) => e.source === 'credit' && e.kind === 'reclaim')).toBe(false);
  });

  it('ledger registrations count only when a member made them: naming an enterprise does not write into its feed', async () => {
    const { officer, name } = await enterprise();
    const outsider = await ownerWithEnterprise(h, `外人企业${process.pid}-${seq}`);
    // The outsider registers in its own enterprise (the only place it can): nothing reaches the other's feed.
    await creditsForAssets(h, outsider, outsider, 1);
    const reg = await registerAsset(h, outsider, newIdentity('.png'));
    const row = await h.app.db.selectFrom('ledger_entries').select('enterprise_name').where('dna', '=', reg.asset_dna).executeTakeFirstOrThrow();
    expect(row.enterprise_name).toBe(outsider.company.name);
    expect(row.enterprise_name).not.toBe(name);
    expect((await wholeFeed(officer, 50)).filter((e) => e.source === 'ledger')).toEqual([]);
  });

  it('pages by cursor in one order across sources, ties included: no event twice, none lost', async () => {
    const { owner, officer, alice } = await enterprise();
    const pa = await project(alice, '分页项目');
    for (let i = 0; i < 4; i++) await registerVaultFile(alice, pa, `分页-${i}.docx`);
    await registerAsset(h, owner, newIdentity('.pdf'));
    // Put events of different sources (and of one source) at the very same millisecond.
    const enterpriseId = (await summary(owner)).enterprise_id;
    const tie = Date.now() - 60_000;
    await h.app.db.updateTable('vault_logs').set({ created_at: tie }).where('enterprise_id', '=', enterpriseId).execute();
    await h.app.db.updateTable('member_events').set({ created_at: tie }).where('enterprise_id', '=', enterpriseId).where('kind', '=', 'approved').execute();

    const all = await wholeFeed(officer, 50);
    expect(all.length).toBeGreaterThanOrEqual(5 + 1 + 1 + 4 + 4 + 1);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.at).toBeGreaterThanOrEqual(all[i]!.at);
    for (const limit of [1, 2, 3, 7]) {
      const paged = await wholeFeed(officer, limit);
      expect(paged.map((e) => e.event_id)).toEqual(all.map((e) => e.event_id));
    }
    expect(new Set(all.map((e) => e.event_id)).size).toBe(all.length);
  });

  it('refuses a cursor it did not make, and a limit out of range', async () => {
    const { owner } = await enterprise();
    for (const bad of ['abc', '1.99.1', '1.2', '-1.0.1', '9999999999999999999.0.1']) {
      const res = await h.request({ method: 'GET', url: `/api/v1/home/activity?cursor=${encodeURIComponent(bad)}`, cookie: owner.cookie });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: 'invalid_param', field_name: 'cursor' });
    }
    for (const limit of [0, 51, 'x']) {
      const res = await h.request({ method: 'GET', url: `/api/v1/home/activity?limit=${limit}`, cookie: owner.cookie });
      expect(res.statusCode, String(limit)).toBe(400);
    }
  });
});

describe('GET /api/v1/search/dip-data: the keyword rule the search box applies', () => {
  it('empty is required, neither DNA nor fingerprint is invalid_param; case and spaces do not matter', async () => {
    const { alice } = await enterprise();
    const search = (keyword: string, cookie?: string) => h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${encodeURIComponent(keyword)}`, cookie });
    expect((await search('   ', alice.cookie)).json()).toEqual({ message: 'required', field_name: 'keyword' });
    for (const bad of ['合同', '0x1234', 'pv123']) expect((await search(bad, alice.cookie)).json(), bad).toEqual({ message: 'invalid_param', field_name: 'keyword' });
    const pa = await project(alice, '大小写');
    const file = await registerVaultFile(alice, pa, 'x.docx');
    const hit = { entity_type: 2, dip_id: file.dip_id, project_id: pa };
    expect(ok(await search(` ${file.dip_id.toUpperCase()} `, alice.cookie))).toEqual(hit);
    expect(ok(await search(file.file_hash.toUpperCase().replace(/^0X/, '0x'), alice.cookie))).toEqual(hit);
    // A well-formed keyword that matches nothing is §3 entity_type 0.
    expect(ok(await search(newIdentity('.pdf'), alice.cookie))).toEqual({ entity_type: 0, dip_id: null, project_id: null });
  });
});

describe('a vault search result opens its project on the page that holds the file (project route with dip_id)', () => {
  it('answers the page of the file named by dip_id when no page is asked', async () => {
    const { alice } = await enterprise();
    const pa = await project(alice, '定位');
    const files = [];
    for (let i = 0; i < 5; i++) files.push(await registerVaultFile(alice, pa, `f${i}.docx`));
    const list = async (query: string) => ok(await h.request({ method: 'GET', url: `/api/v1/vault/projects/${pa}/files?page_size=2${query}`, cookie: alice.cookie }));
    // Newest first: f4 f3 | f2 f1 | f0.
    expect((await list(`&dip_id=${files[0].dip_id}`)).page).toBe(3);
    expect((await list(`&dip_id=${files[2].dip_id}`)).items.map((f: { name: string }) => f.name)).toEqual(['f2.docx', 'f1.docx']);
    expect((await list(`&dip_id=${files[4].dip_id}`)).page).toBe(1);
    // An explicit page wins; an unknown DNA gives the first page.
    expect((await list(`&dip_id=${files[0].dip_id}&page=1`)).page).toBe(1);
    expect((await list('&dip_id=pvaaaaaaaaaaaaaaaaaaaa')).page).toBe(1);
  });
});

describe('migration 0013-home', () => {
  it('backfills the membership history from the memberships that predate it', async () => {
    const { Kysely, PostgresDialect, SqliteDialect } = await import('kysely');
    const { Migrator } = await import('kysely/migration');
    const { migrations } = await import('../../server/db/database.ts');
    const all = migrations(h.dialect);
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0013-home'));
    let db: InstanceType<typeof Kysely<any>>;
    let cleanup: () => Promise<void>;
    // Kysely's migrator looks for its own tables in any schema unless told which one (another test's are there).
    let tableSchema: { migrationTableSchema?: string } = {};
    if (h.dialect === 'postgres') {
      const pg = (await import('pg')).default;
      const schema = `m_${randomBytes(6).toString('hex')}`;
      tableSchema = { migrationTableSchema: schema };
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) });
      cleanup = async () => {
        await db.destroy();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      };
    } else {
      const SQLite = (await import('better-sqlite3')).default;
      db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
      cleanup = () => db.destroy();
    }
    try {
      expect((await new Migrator({ db, ...tableSchema, provider: { getMigrations: async () => before } }).migrateToLatest()).error).toBeUndefined();
      const user = async (phone: string) =>
        (await db.insertInto('users').values({ phonenumber: phone, name: phone, password_hash: 'x', icon_color: '#000', created_at: 1, updated_at: 1 }).returning('id').executeTakeFirstOrThrow()).id as number;
      const [creator, member, applicant, rejected] = [await user('13000000001'), await user('13000000002'), await user('13000000003'), await user('13000000004')];
      const enterprise = (
        await db
          .insertInto('enterprises')
          .values({ name: '旧企业', license_no: '91610000000000001X', legal_person: '张三', license_image_id: 'x', channel: 1, verify_status: 2, invitation_code: 'ABCDEFGH', created_by: creator, created_at: 1, updated_at: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id as number;
      const employee = (userId: number, role: number, status: number, created: number, updated: number) =>
        db.insertInto('employees').values({ enterprise_id: enterprise, user_id: userId, role, status, created_at: created, updated_at: updated }).execute();
      await employee(creator, 1, 1, 100, 100);
      await employee(member, 0, 4, 200, 250);
      await employee(applicant, 0, 2, 300, 310);
      await employee(rejected, 0, 3, 400, 420);
      expect((await new Migrator({ db, ...tableSchema, provider: { getMigrations: async () => all } }).migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom('member_events').select(['user_id', 'kind', 'role', 'created_at', 'actor_user_id']).orderBy('id').execute();
      expect(rows.map((r) => ({ ...r, created_at: Number(r.created_at) }))).toEqual([
        { user_id: creator, kind: 'created', role: 1, created_at: 100, actor_user_id: null },
        { user_id: member, kind: 'joined', role: 0, created_at: 200, actor_user_id: null },
        { user_id: applicant, kind: 'applied', role: 0, created_at: 310, actor_user_id: null },
        { user_id: rejected, kind: 'rejected', role: 0, created_at: 420, actor_user_id: null },
      ]);
    } finally {
      await cleanup();
    }
  });
});
