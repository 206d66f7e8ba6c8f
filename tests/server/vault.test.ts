import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { memberOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { giveCredits } from './credit-helpers.ts';
import { SMS_TYPES } from '../../core/constants.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

type Res = { statusCode: number; json(): any; body: string };
const expect400 = (res: Res, message: string, field?: string) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};

function newIdentity(ext = '.docx'): string {
  return `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
}

/** Sends the vault code (type 18) to the caller's own phone and unlocks with it. */
async function unlock(cookie: string, phone: string): Promise<Res> {
  await clearRateLimits(h.app);
  const sent = await h.request({ method: 'GET', url: `/api/v1/validation/private-code?type=${SMS_TYPES.vaultUnlock}`, cookie });
  expect(sent.statusCode, sent.body).toBe(200);
  return h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: phone, validation_code: await h.latestCode(phone) } });
}

async function createProject(cookie: string, name: string, description = ''): Promise<Res> {
  return h.request({ method: 'POST', url: '/api/v1/vault/projects', cookie, body: { name, description } });
}

async function registerFile(cookie: string, projectId: number, fileHash: string, name = 'recipe.docx'): Promise<Res> {
  return h.request({ method: 'POST', url: `/api/v1/vault/projects/${projectId}/files`, cookie, body: { name, file_hash: fileHash, size: 1234 } });
}

let enterpriseSeq = 0;
/**
 * An enterprise with its owner (role 1), an officer (3), and two plain members (0), all with
 * the vault unlocked; the owner, Alice and Bob have credits for ten vault files each.
 */
async function enterprise() {
  enterpriseSeq += 1;
  const owner = await ownerWithEnterprise(h, `保险箱测试企业${process.pid}-${enterpriseSeq}`);
  const officer = await memberOf(h, owner, 3);
  const alice = await memberOf(h, owner, 0);
  const bob = await memberOf(h, owner, 0);
  for (const who of [owner, alice, bob]) await giveCredits(h, owner, who, 10 * h.app.config.credits.vaultFile);
  for (const who of [owner, officer, alice, bob]) expect((await unlock(who.cookie, who.phone)).statusCode).toBe(200);
  return { owner, officer, alice, bob };
}

describe('vault unlock (§7 POST /vault/authorization, §8 vault key expired)', () => {
  it('needs the SMS code sent to the member’s own phone, opens for the configured time, then expires', async () => {
    const owner = await ownerWithEnterprise(h, `保险箱解锁${process.pid}`);
    const { cookie, phone } = owner;
    // Locked: every data call answers vault_login_status_expired.
    expect400(await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie }), 'vault_login_status_expired');
    expect((await h.request({ method: 'GET', url: '/api/v1/vault/authorization', cookie })).json().data).toMatchObject({ is_unlocked: false, session_seconds: 1800 });

    // Code rules: required, sent first, right code, own phone only.
    expect400(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: phone, validation_code: '' } }), 'validation_code_required', 'validation_code');
    expect400(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: phone, validation_code: '123456' } }), 'validation_code_not_generated', 'validation_code');
    await clearRateLimits(h.app);
    await h.request({ method: 'GET', url: `/api/v1/validation/private-code?type=${SMS_TYPES.vaultUnlock}`, cookie });
    const code = await h.latestCode(phone);
    const outbox = (await h.request({ method: 'GET', url: `/api/dev/sms-outbox?phone=${phone}` })).json().data[0];
    expect(outbox.type).toBe(SMS_TYPES.vaultUnlock);
    const wrong = code === '000000' ? '111111' : '000000';
    expect400(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: phone, validation_code: wrong } }), 'validation_code_mismatch', 'validation_code');
    expect400(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: '13900000000', validation_code: code } }), 'phone_invalid', 'new_phone_number');
    const before = Date.now();
    const ok = await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: phone, validation_code: code } });
    expect(ok.statusCode, ok.body).toBe(200);
    const auth = ok.json().data;
    expect(auth.is_unlocked).toBe(true);
    expect(auth.expires_at - auth.unlocked_at).toBe(1800 * 1000);
    expect(auth.unlocked_at).toBeGreaterThanOrEqual(before);
    // The code is spent.
    expect400(await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie, body: { new_phone_number: phone, validation_code: code } }), 'validation_code_not_generated', 'validation_code');

    expect((await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie })).statusCode).toBe(200);

    // Bound to the login session: another session of the same user is still locked.
    await clearRateLimits(h.app);
    const other = await h.request({ method: 'POST', url: '/api/v1/users', body: { login_id: phone, password: 'Passw0rdA' } });
    const otherCookie = `provena_session=${other.cookies.find((c) => c.name === 'provena_session')!.value}`;
    expect400(await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie: otherCookie }), 'vault_login_status_expired');

    // Past its time the vault answers §8 vault key expired again.
    await h.app.db.updateTable('vault_sessions').set({ expires_at: Date.now() - 1 }).execute();
    expect400(await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie }), 'vault_login_status_expired');
    expect400(await createProject(cookie, '过期后'), 'vault_login_status_expired');
    expect((await h.request({ method: 'GET', url: '/api/v1/vault/authorization', cookie })).json().data.is_unlocked).toBe(false);

    // Locking by hand ends it too.
    expect((await unlock(cookie, phone)).statusCode).toBe(200);
    expect((await h.request({ method: 'DELETE', url: '/api/v1/vault/authorization', cookie })).json().data.is_unlocked).toBe(false);
    expect400(await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie }), 'vault_login_status_expired');
  });

  it('the unlock time comes from the deployment configuration (vaultSessionSeconds)', async () => {
    // (A second harness cannot share this process on PostgreSQL: Kysely's migrator would find
    // the first schema's lock table. The live configuration object is what the routes read.)
    const owner = await ownerWithEnterprise(h, `短时保险箱${process.pid}`);
    const saved = h.app.config.vaultSessionSeconds;
    h.app.config.vaultSessionSeconds = 1;
    try {
      const res = await unlock(owner.cookie, owner.phone);
      expect(res.json().data).toMatchObject({ is_unlocked: true, session_seconds: 1 });
      expect(res.json().data.expires_at - res.json().data.unlocked_at).toBe(1000);
      expect((await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie: owner.cookie })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      expect400(await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie: owner.cookie }), 'vault_login_status_expired');
    } finally {
      h.app.config.vaultSessionSeconds = saved;
    }
  });

  it('is for confirmed members of a company only', async () => {
    const cookie = await h.register(`1370${String(Date.now()).slice(-7)}`);
    const res = await h.request({ method: 'GET', url: '/api/v1/vault/authorization', cookie });
    expect(res.statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/v1/vault/projects' })).json()).toEqual({ message: 'token_invalid' });
  });
});

describe('vault projects (§5 lengths, §8 project exists)', () => {
  it('checks name and description lengths on their fields and refuses a second project of one name per enterprise', async () => {
    const { alice, bob } = await enterprise();
    expect400(await createProject(alice.cookie, '   '), 'required', 'name');
    expect400(await createProject(alice.cookie, '密'.repeat(31)), 'lt', 'name');
    expect400(await createProject(alice.cookie, '配方', 'x'.repeat(201)), 'lt', 'description');
    const ok = await createProject(alice.cookie, ` ${'密'.repeat(30)} `, 'd'.repeat(200));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ name: '密'.repeat(30), description: 'd'.repeat(200), file_count: 0, is_editable: true });
    // Unique per enterprise, whoever owns the first one.
    expect400(await createProject(bob.cookie, '密'.repeat(30)), 'project_already_exist', 'name');
    // …but another enterprise may use the name.
    const other = await enterprise();
    expect((await createProject(other.alice.cookie, '密'.repeat(30))).statusCode).toBe(200);

    // Editing keeps the same rules; renaming onto another project's name is refused.
    const second = (await createProject(alice.cookie, '第二个项目')).json().data;
    const put = (id: number, body: unknown, cookie = alice.cookie) => h.request({ method: 'PUT', url: `/api/v1/vault/projects/${id}`, cookie, body });
    expect400(await put(second.project_id, { name: '密'.repeat(30) }), 'project_already_exist', 'name');
    expect400(await put(second.project_id, { name: 'a'.repeat(31) }), 'lt', 'name');
    expect400(await put(second.project_id, { name: '第二个项目', description: 'y'.repeat(201) }), 'lt', 'description');
    const renamed = await put(second.project_id, { name: '第二个项目（改）', description: '新描述' });
    expect(renamed.json().data).toMatchObject({ name: '第二个项目（改）', description: '新描述' });
    // Only its owner or an administrator edits it.
    expect((await put(second.project_id, { name: 'bob 改名' }, bob.cookie)).statusCode).toBe(400); // bob cannot even see it
  });

  it('two members creating the same name at once: exactly one wins', async () => {
    const { alice, bob } = await enterprise();
    const results = await Promise.all([createProject(alice.cookie, '并发项目'), createProject(bob.cookie, '并发项目')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.json()).toEqual({ message: 'project_already_exist', field_name: 'name' });
  });
});

describe('vault visibility (§6)', () => {
  it('a plain member sees only their own projects and files; the officer and administrators see all, the officer without editing', async () => {
    const { owner, officer, alice, bob } = await enterprise();
    const p = (await createProject(alice.cookie, 'Alice 的配方')).json().data;
    const fileHash = newIdentity();
    expect((await registerFile(alice.cookie, p.project_id, fileHash)).statusCode).toBe(200);
    const list = async (cookie: string) => (await h.request({ method: 'GET', url: '/api/v1/vault/projects', cookie })).json().data;

    expect((await list(alice.cookie)).items.map((x: any) => x.name)).toEqual(['Alice 的配方']);
    expect((await list(bob.cookie)).total).toBe(0);
    expect((await list(officer.cookie)).items.map((x: any) => [x.name, x.is_editable])).toEqual([['Alice 的配方', false]]);
    expect((await list(owner.cookie)).items.map((x: any) => [x.name, x.is_editable])).toEqual([['Alice 的配方', true]]);

    // Bob gets not_found for everything of Alice's (no hint that it exists).
    expect400(await h.request({ method: 'GET', url: `/api/v1/vault/projects/${p.project_id}`, cookie: bob.cookie }), 'not_found', 'project_id');
    expect400(await h.request({ method: 'GET', url: `/api/v1/vault/projects/${p.project_id}/files`, cookie: bob.cookie }), 'not_found', 'project_id');
    expect400(await h.request({ method: 'GET', url: `/api/v1/vault/logs?project_id=${p.project_id}`, cookie: bob.cookie }), 'not_found', 'project_id');
    expect400(await registerFile(bob.cookie, p.project_id, newIdentity()), 'not_found', 'project_id');
    const aliceFiles = (await h.request({ method: 'GET', url: `/api/v1/vault/projects/${p.project_id}/files`, cookie: alice.cookie })).json().data;
    expect400(await h.request({ method: 'GET', url: `/api/v1/vault/files/${aliceFiles.items[0].file_id}/proof`, cookie: bob.cookie }), 'not_found', 'file_id');

    // The officer reads the files and the log, but does not edit or register.
    const officerFiles = (await h.request({ method: 'GET', url: `/api/v1/vault/projects/${p.project_id}/files`, cookie: officer.cookie })).json().data;
    expect(officerFiles.items.map((f: any) => f.file_hash)).toEqual([fileHash]);
    expect((await h.request({ method: 'PUT', url: `/api/v1/vault/projects/${p.project_id}`, cookie: officer.cookie, body: { name: '改' } })).statusCode).toBe(403);
    expect((await registerFile(officer.cookie, p.project_id, newIdentity())).statusCode).toBe(403);
    // An administrator may.
    expect((await h.request({ method: 'PUT', url: `/api/v1/vault/projects/${p.project_id}`, cookie: owner.cookie, body: { name: 'Alice 的配方 v2' } })).statusCode).toBe(200);

    // The vault-wide log follows the same rule.
    const logOf = async (cookie: string) => (await h.request({ method: 'GET', url: '/api/v1/vault/logs?page_size=100', cookie })).json().data.items as any[];
    expect((await logOf(bob.cookie)).every((l) => l.user_id !== undefined && l.project_id === null)).toBe(true);
    expect((await logOf(bob.cookie)).map((l) => l.action)).toEqual(['vault_unlocked']);
    expect((await logOf(officer.cookie)).filter((l) => l.action === 'vault_unlocked')).toHaveLength(4);

    // Another enterprise's officer sees nothing of it.
    const other = await enterprise();
    expect((await list(other.officer.cookie)).total).toBe(0);
    expect400(await h.request({ method: 'GET', url: `/api/v1/vault/projects/${p.project_id}`, cookie: other.owner.cookie }), 'not_found', 'project_id');
  });
});

describe('registering files into a project', () => {
  it('records the entry, the proof follows to generated, and a second registration of the same content is hash_duplicate', async () => {
    const { alice, bob, owner } = await enterprise();
    const p = (await createProject(alice.cookie, '工艺')).json().data;
    const bobProject = (await createProject(bob.cookie, 'Bob 的工艺')).json().data;
    // §5: a file and a name are required.
    expect400(await registerFile(alice.cookie, p.project_id, '', 'a.docx'), 'required', 'file_hash');
    expect400(await registerFile(alice.cookie, p.project_id, 'not-a-hash', 'a.docx'), 'invalid_param', 'file_hash');
    expect400(await registerFile(alice.cookie, p.project_id, newIdentity(), '  '), 'required', 'name');

    const fileHash = newIdentity('.pdf');
    const res = await registerFile(alice.cookie, p.project_id, fileHash, '配方.pdf');
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json().data;
    expect(file).toMatchObject({ name: '配方.pdf', file_hash: fileHash, proof_status: 1, is_generated: false, block_height: null, credits: 1000, size: 1234 });
    expect(file.dip_id).toMatch(/^pv[a-z2-7]{20}$/);
    const entry = await h.app.db.selectFrom('ledger_entries').selectAll().where('dna', '=', file.dip_id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ kind: 'vault', file_hash: fileHash });

    // Same content: in the same project, another project, by another member, under another extension.
    expect400(await registerFile(alice.cookie, p.project_id, fileHash), 'hash_duplicate', 'file_hash');
    expect400(await registerFile(bob.cookie, bobProject.project_id, fileHash.replace('.pdf', '.bin')), 'hash_duplicate', 'file_hash');
    expect400(await registerFile(owner.cookie, p.project_id, fileHash.toUpperCase().replace('0X', '0x').replace('.PDF', '.pdf')), 'hash_duplicate', 'file_hash');
    // Nothing half-written by the refusals.
    expect(await h.app.db.selectFrom('ledger_entries').select('dna').where('file_hash', 'like', `${fileHash.slice(0, 66)}%`).execute()).toHaveLength(1);

    // Two registrations of one new file at once: exactly one.
    const racing = newIdentity();
    const both = await Promise.all([registerFile(alice.cookie, p.project_id, racing, 'x'), registerFile(owner.cookie, p.project_id, racing, 'y')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await h.app.db.selectFrom('vault_files').select('id').where('digest', '=', racing.slice(2, 66)).execute()).toHaveLength(1);

    // The proof: sealed, certificate rendered, PDF downloadable, the download logged.
    expect400(await h.request({ method: 'GET', url: `/api/v1/vault/files/${file.file_id}/proof`, cookie: alice.cookie }), 'proof_record_not_found', 'file_id');
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const files = (await h.request({ method: 'GET', url: `/api/v1/vault/projects/${p.project_id}/files`, cookie: alice.cookie })).json().data;
    const generated = files.items.find((f: any) => f.file_id === file.file_id);
    expect(generated.is_generated).toBe(true);
    expect(generated.proof_status).toBeGreaterThanOrEqual(5);
    expect(generated.block_height).toBeGreaterThanOrEqual(1);
    const pdf = await h.request({ method: 'GET', url: `/api/v1/vault/files/${file.file_id}/proof`, cookie: alice.cookie });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The certificate the object store holds, byte for byte (server/services/proof-pdf.ts).
    expect(pdf.rawPayload.equals((await readProofPdf(h.app.db, h.app.fileStore.driver, file.dip_id))!)).toBe(true);

    const log = (await h.request({ method: 'GET', url: `/api/v1/vault/logs?project_id=${p.project_id}`, cookie: alice.cookie })).json().data;
    expect(log.items.map((l: any) => l.action)).toEqual(['proof_downloaded', 'file_registered', 'file_registered', 'project_created']);
    expect(log.items[0]).toMatchObject({ user_name: '李四', project_name: '工艺', detail: { dip_id: file.dip_id } });
    expect(log.total).toBe(4);
    const paged = (await h.request({ method: 'GET', url: `/api/v1/vault/logs?project_id=${p.project_id}&page=2&page_size=3`, cookie: alice.cookie })).json().data;
    expect(paged).toMatchObject({ page: 2, page_size: 3, total: 4 });
    expect(paged.items.map((l: any) => l.action)).toEqual(['project_created']);

    // Project list: file count.
    const listed = (await h.request({ method: 'GET', url: '/api/v1/vault/projects?keyword=工', cookie: alice.cookie })).json().data;
    expect(listed.items.find((x: any) => x.project_id === p.project_id).file_count).toBeGreaterThanOrEqual(1);
  });
});

describe('search/dip-data finds vault files as §3 entity_type 2 (project), per §6', () => {
  it('by DNA or file hash for those who may see the project; never as an asset', async () => {
    const { alice, bob, officer } = await enterprise();
    const p = (await createProject(alice.cookie, '搜索项目')).json().data;
    const fileHash = newIdentity('.xlsx');
    const file = (await registerFile(alice.cookie, p.project_id, fileHash)).json().data;
    const search = async (keyword: string, cookie?: string) => (await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${encodeURIComponent(keyword)}`, cookie })).json().data;
    const hit = { entity_type: 2, dip_id: file.dip_id, project_id: p.project_id };
    expect(await search(file.dip_id, alice.cookie)).toEqual(hit);
    expect(await search(fileHash, alice.cookie)).toEqual(hit);
    expect(await search(fileHash.slice(2, 66), officer.cookie)).toEqual(hit);
    const none = { entity_type: 0, dip_id: null, project_id: null };
    expect(await search(file.dip_id, bob.cookie)).toEqual(none);
    expect(await search(fileHash, bob.cookie)).toEqual(none);
    expect(await search(file.dip_id)).toEqual(none);
  });
});
