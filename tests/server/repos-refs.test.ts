import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { memberOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { commitFiles, fakeRecord, git, newRepo } from './repo-helpers.ts';
import { readCommitRecords } from '../../core/repos-git.ts';
import type { CommitChanges, RepoRefsDto } from '../../core/repos.ts';

/**
 * Source-code projects, part two: branches and tags reported by a push, force-push detection
 * over the stored commit graph (orphaned commits keep their entries and proofs), the commit
 * list filtered by ref, author, date and commit-id prefix, the search by a commit-id prefix,
 * and the changed paths stored beside each record.
 */
vi.setConfig({ testTimeout: 180_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
});
afterAll(async () => {
  await h?.close();
});
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

type Res = { statusCode: number; json(): any; body: string };
const expectError = (res: Res, status: number, message: string, field?: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};
const createProject = async (cookie: string, name: string) => {
  const res = await h.request({ method: 'POST', url: '/api/v1/repos', cookie, body: { name } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.project_id as number;
};
const entryCount = async () => Number((await h.app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** What `provena repo push` and the browser do: the new commits' records (with their changes), then the refs. */
async function pushRepo(projectId: number, cookie: string, dir: string) {
  const known = (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/known-commits`, cookie })).json().data as string[];
  const { records, tips, changes } = await readCommitRecords({ fs, gitdir: path.join(dir, '.git'), known: new Set(known), withChanges: true });
  if (records.length) {
    const res = await h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/commits`, cookie, body: { commits: records.map((r) => ({ ...r, changes: changes.get(r.commit) })) } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const refs = await h.request({ method: 'PUT', url: `/api/v1/repos/${projectId}/refs`, cookie, body: { refs: tips.filter((t) => t.ref !== 'HEAD') } });
  expect(refs.statusCode, refs.body).toBe(200);
  return { records, answer: refs.json().data as { updated: number; skipped: string[]; force_pushes: Array<{ ref_name: string; orphaned: number }> } };
}
const list = async (projectId: number, cookie: string, query: string) => {
  const res = await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits?page_size=50&${query}`, cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { total: number; items: Array<{ commit_id: string; orphaned_at: number | null; author_name: string }> };
};
const refsOf = async (projectId: number, cookie: string) => (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/refs`, cookie })).json().data as RepoRefsDto;

describe('branches, tags and force-pushes', () => {
  it('lists branches and tags, filters the commits by ref, and flags a rewritten history without touching the orphaned proofs', async () => {
    const owner = await ownerWithEnterprise(h, `分支标签企业${process.pid}`);
    const projectId = await createProject(owner.cookie, 'refs-demo');
    const dir = newRepo();
    dirs.push(dir);
    const a = commitFiles(dir, { 'a.txt': '1\n' }, 'A');
    const b = commitFiles(dir, { 'a.txt': '1\n2\n' }, 'B');
    git(dir, ['tag', '-a', 'v1', '-m', 'release one']);
    const c = commitFiles(dir, { 'c.txt': 'c\n' }, 'C');
    git(dir, ['checkout', '-q', '-b', 'feature', b]);
    const d = commitFiles(dir, { 'd.txt': 'd\n' }, 'D', { GIT_AUTHOR_NAME: '李四', GIT_AUTHOR_DATE: '2024-03-01T10:00:00+0800' });
    git(dir, ['checkout', '-q', 'main']);

    const first = await pushRepo(projectId, owner.cookie, dir);
    expect(first.records).toHaveLength(4);
    expect(first.answer).toEqual({ updated: 3, skipped: [], force_pushes: [] });
    const refs = await refsOf(projectId, owner.cookie);
    expect(refs.refs.map((r) => [r.kind, r.short_name, r.commit_id])).toEqual([
      ['branch', 'feature', d],
      ['branch', 'main', c],
      ['tag', 'v1', b],
    ]);
    expect(refs.force_pushes).toEqual([]);
    const ids = async (query: string) => (await list(projectId, owner.cookie, query)).items.map((i) => i.commit_id).sort();
    expect(await ids('ref=refs/heads/main')).toEqual([a, b, c].sort());
    expect(await ids('ref=refs/heads/feature')).toEqual([a, b, d].sort());
    expect(await ids('ref=refs/tags/v1')).toEqual([a, b].sort());
    expect(await ids(`ref=refs/heads/feature&author=${encodeURIComponent('李')}`)).toEqual([d]);
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits?ref=refs/heads/nope`, cookie: owner.cookie }), 400, 'not_found', 'ref');

    // A fast-forward is not a force-push.
    const e = commitFiles(dir, { 'e.txt': 'e\n' }, 'E');
    const ff = await pushRepo(projectId, owner.cookie, dir);
    expect(ff.records.map((r) => r.commit)).toEqual([e]);
    expect(ff.answer.force_pushes).toEqual([]);

    // History rewritten: main reset to B and a new commit on top; C and E are left behind.
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const proofsBefore = await h.app.db.selectFrom('repo_commits as rc').innerJoin('proofs as p', 'p.dna', 'rc.dna').select(['rc.commit_id', 'rc.dna', 'p.status']).where('rc.commit_id', 'in', [c, e]).orderBy('rc.commit_id').execute();
    git(dir, ['reset', '-q', '--hard', b]);
    const c2 = commitFiles(dir, { 'c.txt': 'rewritten\n' }, 'C rewritten', { GIT_AUTHOR_DATE: '2024-04-01T10:00:00+0800' });
    const entriesBefore = await entryCount();
    const forced = await pushRepo(projectId, owner.cookie, dir);
    expect(forced.records.map((r) => r.commit)).toEqual([c2]);
    expect(forced.answer.force_pushes).toEqual([{ ref_name: 'refs/heads/main', orphaned: 2 }]);
    expect(await entryCount()).toBe(entriesBefore + 1);
    const after = await refsOf(projectId, owner.cookie);
    expect(after.orphaned_count).toBe(2);
    expect(after.force_pushes).toHaveLength(1);
    expect(after.force_pushes[0]).toMatchObject({ ref_name: 'refs/heads/main', old_commit: e, new_commit: c2, orphaned: [c, e].sort() });
    const all = await list(projectId, owner.cookie, '');
    expect(all.total).toBe(6);
    expect(all.items.filter((i) => i.orphaned_at !== null).map((i) => i.commit_id).sort()).toEqual([c, e].sort());
    expect(await ids('ref=refs/heads/main')).toEqual([a, b, c2].sort());
    // Their entries and proofs are untouched: still registered, still downloadable.
    const proofsAfter = await h.app.db.selectFrom('repo_commits as rc').innerJoin('proofs as p', 'p.dna', 'rc.dna').select(['rc.commit_id', 'rc.dna', 'p.status']).where('rc.commit_id', 'in', [c, e]).orderBy('rc.commit_id').execute();
    expect(proofsAfter).toEqual(proofsBefore);
    const detail = (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits/${c}`, cookie: owner.cookie })).json().data;
    expect(detail.orphaned_at).toEqual(expect.any(Number));
    const pdf = await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits/${c}/proof`, cookie: owner.cookie });
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);

    // A branch that brings E back (with C under it) un-flags both.
    const back = await h.request({ method: 'PUT', url: `/api/v1/repos/${projectId}/refs`, cookie: owner.cookie, body: { refs: [{ ref: 'refs/heads/rescue', commit: e }] } });
    expect(back.json().data).toEqual({ updated: 1, skipped: [], force_pushes: [] });
    expect((await refsOf(projectId, owner.cookie)).orphaned_count).toBe(0);
  });

  it('skips a ref to an unregistered commit, refuses a malformed one on its field, and only the owner or an administrator reports refs', async () => {
    const owner = await ownerWithEnterprise(h, `分支校验企业${process.pid}`);
    const officer = await memberOf(h, owner, 3);
    const projectId = await createProject(owner.cookie, 'refs-checks');
    const record = fakeRecord();
    expect((await h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/commits`, cookie: owner.cookie, body: { commits: [record] } })).statusCode).toBe(200);
    const put = (cookie: string, refs: unknown) => h.request({ method: 'PUT', url: `/api/v1/repos/${projectId}/refs`, cookie, body: { refs } });
    const res = await put(owner.cookie, [
      { ref: 'refs/heads/main', commit: record.commit },
      { ref: 'refs/heads/shallow', commit: 'f'.repeat(40) },
    ]);
    expect(res.json().data).toEqual({ updated: 1, skipped: ['refs/heads/shallow'], force_pushes: [] });
    expectError(await put(owner.cookie, [{ ref: 'main', commit: record.commit }]), 400, 'invalid_param', 'refs[0].ref');
    expectError(await put(owner.cookie, [{ ref: 'refs/heads/x', commit: 'xyz' }]), 400, 'invalid_param', 'refs[0].commit');
    expectError(await put(officer.cookie, [{ ref: 'refs/heads/main', commit: record.commit }]), 403, 'forbidden');
    // The officer reads them.
    expect((await refsOf(projectId, officer.cookie)).refs.map((r) => r.name)).toEqual(['refs/heads/main']);
    // Another enterprise's owner neither reads nor reports them, and nobody does without a session.
    const other = await ownerWithEnterprise(h, `分支外企业${process.pid}`);
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/refs`, cookie: other.cookie }), 400, 'not_found', 'project_id');
    expectError(await put(other.cookie, [{ ref: 'refs/heads/evil', commit: record.commit }]), 400, 'not_found', 'project_id');
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/refs` }), 401, 'token_invalid');
    expectError(await h.request({ method: 'PUT', url: `/api/v1/repos/${projectId}/refs`, body: { refs: [{ ref: 'refs/heads/evil', commit: record.commit }] } }), 401, 'token_invalid');
    expect((await refsOf(projectId, owner.cookie)).refs.map((r) => r.name)).toEqual(['refs/heads/main']);
  });
});

describe('commit list filters and the commit-id prefix', () => {
  it('filters by author time and by a 7+ hex prefix, refusing anything else on the q field; the search finds a unique prefix only', async () => {
    const owner = await ownerWithEnterprise(h, `提交前缀企业${process.pid}`);
    const bob = await memberOf(h, owner, 0);
    const projectId = await createProject(owner.cookie, 'prefix-demo');
    const base = 'abcdef1';
    const fill = (c: string) => (base + c.repeat(40)).slice(0, 40);
    const r1 = fakeRecord({ commit: fill('2'), author: { ...fakeRecord().author, time: 1_700_000_000 } });
    const r2 = fakeRecord({ commit: fill('3'), author: { ...fakeRecord().author, time: 1_710_000_000 } });
    const r3 = fakeRecord({ commit: `0123456${'9'.repeat(33)}` });
    const pushed = (await h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/commits`, cookie: owner.cookie, body: { commits: [r1, r2, r3] } })).json().data;
    expect((await list(projectId, owner.cookie, `q=${base}`)).total).toBe(2);
    expect((await list(projectId, owner.cookie, `q=${base}3`)).items.map((i) => i.commit_id)).toEqual([r2.commit]);
    expect((await list(projectId, owner.cookie, `q=${base.toUpperCase()}2`)).items.map((i) => i.commit_id)).toEqual([r1.commit]);
    expect((await list(projectId, owner.cookie, `from=${1_705_000_000_000}`)).items.map((i) => i.commit_id)).toEqual([r2.commit]);
    expect((await list(projectId, owner.cookie, `to=${1_705_000_000_000}`)).items.map((i) => i.commit_id).sort()).toEqual([r1.commit, r3.commit].sort());
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits?q=abcdef`, cookie: owner.cookie }), 400, 'invalid_param', 'q');
    expectError(await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits?q=${encodeURIComponent("abcdef1%' or 1=1")}`, cookie: owner.cookie }), 400, 'invalid_param', 'q');

    const search = async (keyword: string, cookie: string) => (await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${encodeURIComponent(keyword)}`, cookie })).json().data;
    const dnaOf = (commit: string) => pushed.commits.find((c: { commit_id: string }) => c.commit_id === commit).dip_id;
    expect(await search('0123456', owner.cookie)).toMatchObject({ entity_type: 3, dip_id: dnaOf(r3.commit), project_id: projectId });
    expect(await search(`${base}3`, owner.cookie)).toMatchObject({ entity_type: 3, dip_id: dnaOf(r2.commit) });
    // Two commits share it: not a hit (the list's q filter shows both).
    expect(await search(base, owner.cookie)).toMatchObject({ entity_type: 0 });
    // Within §6: a plain member who does not own the project finds nothing.
    expect(await search('0123456', bob.cookie)).toMatchObject({ entity_type: 0 });
  });
});

describe('changed paths beside the record', () => {
  it('are stored as sent and shown on the commit; malformed ones refuse the batch on their field and register nothing', async () => {
    const owner = await ownerWithEnterprise(h, `变更路径企业${process.pid}`);
    const projectId = await createProject(owner.cookie, 'changes-demo');
    const dir = newRepo();
    dirs.push(dir);
    commitFiles(dir, { 'src/a.ts': 'a\nb\n' }, 'one');
    const two = commitFiles(dir, { 'src/a.ts': 'a\nB\nc\n', '文档/说明.md': '中文\n' }, 'two');
    await pushRepo(projectId, owner.cookie, dir);
    const detail = (await h.request({ method: 'GET', url: `/api/v1/repos/${projectId}/commits/${two}`, cookie: owner.cookie })).json().data as { changes: CommitChanges };
    expect(detail.changes).toMatchObject({ files: 2, added: 3, removed: 1, truncated: false });
    expect(detail.changes.paths.map((p) => [p.path, p.status, p.added, p.removed])).toEqual([
      ['src/a.ts', 'M', 2, 1],
      ['文档/说明.md', 'A', 1, 0],
    ]);
    // The list does not carry them.
    expect((await list(projectId, owner.cookie, '')).items[0]).toMatchObject({ changes: null });

    const before = await entryCount();
    const bad = { files: 1, added: 1, removed: 0, truncated: false, paths: [{ path: 'x', status: 'R', sha256: null, old_sha256: null, added: 1, removed: 0 }] };
    const res = await h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/commits`, cookie: owner.cookie, body: { commits: [fakeRecord(), { ...fakeRecord(), changes: bad }] } });
    expectError(res, 400, 'invalid_param', 'commits[1].changes');
    expect(await entryCount()).toBe(before);
  });
});
