import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { memberOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { commitFiles, fakeRecord, newRepo } from './repo-helpers.ts';
import { readCommitRecords } from '../../core/repos-git.ts';
import { commitRecordDigest, type CommitRecord } from '../../core/repos.ts';
import { verifyCertificate } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

vi.setConfig({ testTimeout: 180_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
});
afterAll(async () => {
  await h?.close();
});

type Res = { statusCode: number; json(): any; body: string; headers: Record<string, unknown>; rawPayload: Buffer };
const expectError = (res: Res, status: number, message: string, field?: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};
const createProject = (cookie: string, body: Record<string, unknown>) => h.request({ method: 'POST', url: '/api/v1/repos', cookie, body });
const createOk = async (cookie: string, name: string) => {
  const res = await createProject(cookie, { name, description: '主仓库', url: 'https://git.example.com/a/b.git' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { project_id: number; dip_id: string; can_manage: boolean };
};
const push = (projectId: number, commits: unknown[], auth: { cookie?: string; token?: string }) =>
  h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/commits`, body: { commits }, ...(auth.cookie ? { cookie: auth.cookie } : {}), ...(auth.token ? { headers: { authorization: `Bearer ${auth.token}` } } : {}) });
const newToken = async (projectId: number, cookie: string) => {
  const res = await h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/tokens`, cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { token_id: number; token: string };
};
const entryCount = async () => Number((await h.app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('projects', () => {
  it('creates a project (a ledger entry), checks §5 lengths and §8 project_already_exist, on the field', async () => {
    const owner = await ownerWithEnterprise(h, `源码项目企业${process.pid}`);
    const p = await createOk(owner.cookie, '核心引擎');
    expect(p.dip_id).toMatch(/^pv[a-z2-7]{20}$/);
    expect(p.can_manage).toBe(true);
    const entry = await h.app.db.selectFrom('ledger_entries').select(['kind', 'enterprise_name']).where('dna', '=', p.dip_id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ kind: 'repo_project', enterprise_name: `源码项目企业${process.pid}` });
    const before = await entryCount();
    expectError(await createProject(owner.cookie, { name: '核心引擎' }), 400, 'project_already_exist', 'name');
    expectError(await createProject(owner.cookie, { name: '一'.repeat(31) }), 400, 'lt', 'name');
    expectError(await createProject(owner.cookie, { name: '   ' }), 400, 'required', 'name');
    expectError(await createProject(owner.cookie, { name: '新项目', description: '描'.repeat(201) }), 400, 'lt', 'description');
    expectError(await createProject(owner.cookie, { name: '新项目', url: 'not a url' }), 400, 'invalid_param', 'url');
    expect(await entryCount()).toBe(before);
    // 30 characters and 200 are allowed.
    await createOk(owner.cookie, '一'.repeat(30));
  });

  it('§6: members see their own projects, administrators and the confidentiality officer all; another enterprise sees nothing', async () => {
    const owner = await ownerWithEnterprise(h, `可见性企业${process.pid}`);
    const alice = await memberOf(h, owner, 0);
    const bob = await memberOf(h, owner, 0);
    const officer = await memberOf(h, owner, 3);
    const mine = await createOk(alice.cookie, 'alice-repo');
    const names = async (cookie: string) => ((await h.request({ method: 'GET', url: '/api/v1/repos', cookie })).json().data.items as { name: string }[]).map((p) => p.name);
    expect(await names(alice.cookie)).toEqual(['alice-repo']);
    expect(await names(bob.cookie)).toEqual([]);
    expect(await names(officer.cookie)).toContain('alice-repo');
    expect(await names(owner.cookie)).toContain('alice-repo');
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${mine.project_id}`, cookie: bob.cookie }), 400, 'not_found', 'project_id');
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${mine.project_id}/commits`, cookie: bob.cookie }), 400, 'not_found', 'project_id');
    const other = await ownerWithEnterprise(h, `另一家企业${process.pid}`);
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${mine.project_id}`, cookie: other.cookie }), 400, 'not_found', 'project_id');
    // Reading is not writing: the officer sees the project but neither pushes nor makes tokens.
    expect((await h.request({ method: 'GET', url: `/api/v1/repos/${mine.project_id}`, cookie: officer.cookie })).json().data.can_manage).toBe(false);
    expectError(await h.request({ method: 'POST', url: `/api/v1/repos/${mine.project_id}/tokens`, cookie: officer.cookie }), 403, 'forbidden');
    expectError(await push(mine.project_id, [fakeRecord()], { cookie: officer.cookie }), 403, 'forbidden');
    expectError(await push(mine.project_id, [fakeRecord()], { cookie: other.cookie }), 400, 'not_found', 'project_id');
    expectError(await push(mine.project_id, [fakeRecord()], { cookie: bob.cookie }), 400, 'not_found', 'project_id');
    // The administrator may push into a member's project.
    expect((await push(mine.project_id, [fakeRecord()], { cookie: owner.cookie })).statusCode).toBe(200);
  });
});

describe('commits', () => {
  let owner: Awaited<ReturnType<typeof ownerWithEnterprise>>;
  let repo: string;
  let records: CommitRecord[];
  let projectId: number;
  beforeAll(async () => {
    owner = await ownerWithEnterprise(h, `提交登记企业${process.pid}`);
    repo = newRepo();
    commitFiles(repo, { 'README.md': '# demo\n', 'src/main.ts': 'export const a = 1;\n' }, 'first');
    commitFiles(repo, { 'src/main.ts': 'export const a = 2;\n' }, 'second');
    commitFiles(repo, { 'docs/说明.md': '中文\n' }, 'third');
    records = (await readCommitRecords({ fs, gitdir: path.join(repo, '.git') })).records;
    expect(records).toHaveLength(3);
    projectId = (await createOk(owner.cookie, 'demo')).project_id;
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('registers a batch in one go, answers what was already registered, pages the list, and serves a proof that verifies', async () => {
    const before = await entryCount();
    const first = await push(projectId, records.slice(0, 2), { cookie: owner.cookie });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ registered: 2, already: 0 });
    expect(await entryCount()).toBe(before + 2);
    const again = await push(projectId, records, { cookie: owner.cookie });
    expect(again.json().data).toMatchObject({ registered: 1, already: 2 });
    expect(await entryCount()).toBe(before + 3);
    const entries = await h.app.db.selectFrom('ledger_entries').select(['kind', 'file_hash']).where('dna', 'in', again.json().data.commits.map((c: { dip_id: string }) => c.dip_id)).execute();
    expect(entries.every((e) => e.kind === 'commit')).toBe(true);
    expect(entries.map((e) => e.file_hash).sort()).toEqual((await Promise.all(records.map(async (r) => `0x${await commitRecordDigest(r)}`))).sort());

    const page = (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits?page=1&page_size=2`, cookie: owner.cookie })).json().data;
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({ proof_status: 1, is_generated: false });
    const known = (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/known-commits`, cookie: owner.cookie })).json().data;
    expect(known.sort()).toEqual(records.map((r) => r.commit).sort());

    const target = records[1]!;
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits/${target.commit}/proof`, cookie: owner.cookie }), 400, 'proof_record_not_found', 'commit_id');
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const detail = (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits/${target.commit}`, cookie: owner.cookie })).json().data;
    expect(detail).toMatchObject({ commit_id: target.commit, tree_id: target.tree, is_generated: true, author_name: 'Test Author', author_tz: '+0800' });
    const pdf = await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits/${target.commit}/proof`, cookie: owner.cookie });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // The certificate the object store holds, byte for byte (server/services/proof-pdf.ts).
    expect(pdf.rawPayload.equals((await readProofPdf(h.app.db, h.app.fileStore.driver, detail.dip_id))!)).toBe(true);
    const roots = (await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string }[];
    const opts = { now: Date.now(), trustedRootFingerprints: roots.map((r) => r.fingerprint) };
    const ok = await verifyCertificate(new Uint8Array(pdf.rawPayload), extractPackageNode, { ...opts, fileSha256: await commitRecordDigest(target) });
    expect(ok.isValid, JSON.stringify(ok.checks.filter((c) => !c.isOk))).toBe(true);
    const other = await verifyCertificate(new Uint8Array(pdf.rawPayload), extractPackageNode, { ...opts, fileSha256: await commitRecordDigest(records[0]!) });
    expect(other.isValid).toBe(false);
    expect(other.failedCheck).toBe('file_hash');
  });

  it('refuses a malformed record on its index and registers nothing of the batch', async () => {
    const before = await entryCount();
    const bad = { ...fakeRecord(), tree: 'xyz' };
    expectError(await push(projectId, [fakeRecord(), bad], { cookie: owner.cookie }), 400, 'invalid_param', 'commits[1]');
    expectError(await push(projectId, [{ ...fakeRecord(), extra: 1 }].map(({ extra: _extra, ...r }) => ({ ...r, v: 2 })), { cookie: owner.cookie }), 400, 'invalid_param', 'commits[0]');
    expect((await push(projectId, [], { cookie: owner.cookie })).statusCode).toBe(400);
    expect(await entryCount()).toBe(before);
  });

  it('charges credits.commit per new commit in the same transaction: short of credits, nothing of the batch is written', async () => {
    const saved = h.app.config.credits;
    h.app.config.credits = { ...saved, commit: 7 };
    try {
      const before = await entryCount();
      const rows = await h.app.db.selectFrom('repo_commits').select('id').where('project_id', '=', projectId).execute();
      expectError(await push(projectId, [fakeRecord(), fakeRecord()], { cookie: owner.cookie }), 400, 'integrals_not_enough');
      expect(await entryCount()).toBe(before);
      expect((await h.app.db.selectFrom('repo_commits').select('id').where('project_id', '=', projectId).execute()).length).toBe(rows.length);
    } finally {
      h.app.config.credits = saved;
    }
  });
});

describe('project tokens', () => {
  it('are shown once, stored hashed, act for their creator, and stop working when revoked; attacks are refused', async () => {
    const owner = await ownerWithEnterprise(h, `令牌企业${process.pid}`);
    const dev = await memberOf(h, owner, 0);
    const project = await createOk(dev.cookie, 'ci-repo');
    const second = await createOk(dev.cookie, 'ci-repo-2');
    const { token, token_id } = await newToken(project.project_id, dev.cookie);
    expect(token).toMatch(/^pvt_[A-Za-z0-9_-]{43}$/);
    const stored = await h.app.db.selectFrom('repo_tokens').selectAll().where('id', '=', token_id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token.slice(4));
    const listed = (await h.request({ method: 'GET', url: `/api/v1/repos/${project.project_id}/tokens`, cookie: dev.cookie })).json().data;
    expect(JSON.stringify(listed)).not.toContain(token.slice(12));
    expect(listed[0]).toMatchObject({ token_id, revoked_at: null });

    const ok = await push(project.project_id, [fakeRecord()], { token });
    expect(ok.statusCode, ok.body).toBe(200);
    const entry = await h.app.db.selectFrom('ledger_entries').select(['registrant_user_id', 'enterprise_name']).where('dna', '=', ok.json().data.commits[0].dip_id).executeTakeFirstOrThrow();
    expect(entry.enterprise_name).toBe(`令牌企业${process.pid}`);
    expect((await h.request({ method: 'GET', url: `/api/v1/repos/${project.project_id}/known-commits`, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);

    const before = await entryCount();
    // Another project's token, a made-up one, a malformed header: 401, nothing written.
    expectError(await push(second.project_id, [fakeRecord()], { token }), 401, 'token_invalid');
    expectError(await push(project.project_id, [fakeRecord()], { token: `pvt_${'A'.repeat(43)}` }), 401, 'token_invalid');
    expectError(await push(project.project_id, [fakeRecord()], { token: 'garbage' }), 401, 'token_invalid');
    // Neither a session nor a token, on every route that takes a token: 401 token_invalid as a wrong token, never 400; nothing written.
    const anonymous = [
      { method: 'GET', url: `/api/v1/repos/${project.project_id}/known-commits` },
      { method: 'GET', url: `/api/v1/repos/${project.project_id}/commits` },
      { method: 'POST', url: `/api/v1/repos/${project.project_id}/commits`, body: { commits: [fakeRecord()] } },
      { method: 'GET', url: `/api/v1/repos/${project.project_id}/refs` },
      { method: 'PUT', url: `/api/v1/repos/${project.project_id}/refs`, body: { refs: [] } },
      { method: 'GET', url: `/api/v1/repos/${project.project_id}/commits/${'a'.repeat(40)}` },
      { method: 'GET', url: `/api/v1/repos/${project.project_id}/commits/${'a'.repeat(40)}/proof` },
    ] as const;
    for (const call of anonymous) expectError(await h.request(call), 401, 'token_invalid');
    // A stale session cookie is no credential either.
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${project.project_id}/known-commits`, cookie: 'provena_session=stale' }), 401, 'token_invalid');
    // A token cannot make tokens or read the project page.
    expectError(await h.request({ method: 'POST', url: `/api/v1/repos/${project.project_id}/tokens`, headers: { authorization: `Bearer ${token}` } }), 400, 'token_invalid');

    // Revoked: refused from then on.
    expect((await h.request({ method: 'DELETE', url: `/api/v1/repos/${project.project_id}/tokens/${token_id}`, cookie: dev.cookie })).statusCode).toBe(200);
    expectError(await push(project.project_id, [fakeRecord()], { token }), 401, 'token_invalid');
    expect(await entryCount()).toBe(before);

    // Its creator frozen: a live token of theirs registers nothing, nor does their session.
    const live = await newToken(project.project_id, dev.cookie);
    expect((await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: dev.employeeId, status: 4 }, cookie: owner.cookie })).statusCode).toBe(200);
    expectError(await push(project.project_id, [fakeRecord()], { token: live.token }), 403, 'forbidden');
    // (Freezing ends the member's sessions: 401 token_invalid on this route that also takes a token, as with
    // no credentials at all; had the session lived on, requireMember says 403 forbidden.)
    const bySession = await push(project.project_id, [fakeRecord()], { cookie: dev.cookie });
    expect([401, 403]).toContain(bySession.statusCode);
    expect(bySession.json().message).toBe(bySession.statusCode === 401 ? 'token_invalid' : 'forbidden');
    expect(await entryCount()).toBe(before);
  });
});

describe('overview (repos/global)', () => {
  it('counts commits by week, developer and project over the projects the caller sees', async () => {
    const owner = await ownerWithEnterprise(h, `概览企业${process.pid}`);
    const bob = await memberOf(h, owner, 0);
    const a = await createOk(owner.cookie, 'overview-a');
    const b = await createOk(bob.cookie, 'overview-b');
    const monday = Date.UTC(2024, 0, 1) / 1000; // a Monday
    const at = (s: number, name: string) => fakeRecord({ author: { name, email_sha256: 'a'.repeat(64), time: s, tz: '+0800' } });
    await push(a.project_id, [at(monday + 3600, '甲'), at(monday + 86_400, '乙'), at(monday + 8 * 86_400, '甲')], { cookie: owner.cookie });
    await push(b.project_id, [at(monday + 100, '丙')], { cookie: bob.cookie });
    const all = (await h.request({ method: 'GET', url: '/api/v1/repos/overview', cookie: owner.cookie })).json().data;
    expect(all).toMatchObject({ projects: 2, commits: 4, developers: 3 });
    expect(all.weeks).toEqual([
      { week: monday, commits: 3 },
      { week: monday + 7 * 86_400, commits: 1 },
    ]);
    expect(all.by_developer[0]).toMatchObject({ name: '甲', commits: 2, projects: 1 });
    expect(all.by_project.map((p: { name: string; commits: number }) => [p.name, p.commits])).toEqual([
      ['overview-a', 3],
      ['overview-b', 1],
    ]);
    const own = (await h.request({ method: 'GET', url: '/api/v1/repos/overview', cookie: bob.cookie })).json().data;
    expect(own).toMatchObject({ projects: 1, commits: 1, developers: 1 });
  });
});

describe('search', () => {
  it('finds a commit id or DNA (entity_type 3) and a project DNA (2) within §6 view', async () => {
    const owner = await ownerWithEnterprise(h, `搜索源码企业${process.pid}`);
    const bob = await memberOf(h, owner, 0);
    const project = await createOk(owner.cookie, 'search-me');
    const record = fakeRecord();
    const pushed = (await push(project.project_id, [record], { cookie: owner.cookie })).json().data;
    const search = async (keyword: string, cookie: string) => (await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${encodeURIComponent(keyword)}`, cookie })).json().data;
    expect(await search(record.commit, owner.cookie)).toMatchObject({ entity_type: 3, dip_id: pushed.commits[0].dip_id, project_id: project.project_id });
    expect(await search(pushed.commits[0].dip_id, owner.cookie)).toMatchObject({ entity_type: 3 });
    expect(await search(project.dip_id, owner.cookie)).toMatchObject({ entity_type: 2, dip_id: project.dip_id, project_id: project.project_id, container: 'repo' });
    expect(await search(record.commit, bob.cookie)).toMatchObject({ entity_type: 0 });
  });
});
