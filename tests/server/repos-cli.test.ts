import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { cloneFixture, commitFiles, git, newRepo } from './repo-helpers.ts';

/**
 * The CI path, end to end over HTTP: `provena repo push` with a project token
 * registers only the commits the platform does not have, and `provena verify-commit`
 * recomputes a commit's record from a clone and checks its proof, failing once one byte of
 * one file of that commit's tree is changed.
 */
vi.setConfig({ testTimeout: 400_000, hookTimeout: 120_000 });

const run = promisify(execFile);
const trustStore = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-trust-store-'));
async function provena(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/provena.ts', ...args], { env: { ...process.env, XDG_CONFIG_HOME: trustStore, PROVENA_TRUST_ROOTS: '', ...env }, maxBuffer: 1 << 26 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { status: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function serve(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

async function projectWithToken(h: Harness, name: string) {
  const owner = await ownerWithEnterprise(h, `${name}企业${process.pid}`);
  const project = (await h.request({ method: 'POST', url: '/api/v1/repos', cookie: owner.cookie, body: { name } })).json().data as { project_id: number };
  const token = (await h.request({ method: 'POST', url: `/api/v1/repos/${project.project_id}/tokens`, cookie: owner.cookie })).json().data.token as string;
  return { owner, projectId: project.project_id, token };
}

const cleanup: string[] = [trustStore];
afterAll(() => {
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('provena repo push (the Underscore.js history)', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    // No block (a full one seals at once), so no 2 900 certificates are rendered behind the test.
    const saved = process.env.LEDGER_BLOCK_MAX_ENTRIES;
    process.env.LEDGER_BLOCK_MAX_ENTRIES = '100000';
    try {
      h = await startHarness();
    } finally {
      if (saved === undefined) delete process.env.LEDGER_BLOCK_MAX_ENTRIES;
      else process.env.LEDGER_BLOCK_MAX_ENTRIES = saved;
    }
    await h.app.ledger.stop();
    url = await serve(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('registers the whole history, then only the one new commit', async () => {
    const { projectId, token } = await projectWithToken(h, '下划线');
    const dir = cloneFixture();
    cleanup.push(dir);
    const total = new Set(git(dir, ['rev-list', '--all']).split('\n')).size;
    const usage = await provena(['repo', 'push', '--project', String(projectId), dir], { PROVENA_URL: url, PROVENA_TOKEN: '' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('PROVENA_TOKEN');

    const first = await provena(['repo', 'push', '--project', String(projectId), dir], { PROVENA_URL: url, PROVENA_TOKEN: token });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`registered ${total} new commit(s); 0 already registered`);
    const rows = await h.app.db.selectFrom('repo_commits').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(total);

    const newest = commitFiles(dir, { 'ci-note.txt': 'one more commit\n' }, 'one more');
    const started = performance.now();
    const second = await provena(['repo', 'push', '--project', String(projectId), '--url', url, dir], { PROVENA_URL: 'http://wrong.invalid', PROVENA_TOKEN: token });
    const seconds = (performance.now() - started) / 1000;
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain(`registered 1 new commit(s); ${total} already registered`);
    expect((await h.app.db.selectFrom('repo_commits').select('commit_id').where('project_id', '=', projectId).where('commit_id', '=', newest).execute()).length).toBe(1);
    console.info(`incremental push of 1 commit after ${total}: ${seconds.toFixed(2)} s (CLI process included)`);

    // Nothing new: nothing sent.
    const third = await provena(['repo', 'push', '--project', String(projectId), '--url', url, dir], { PROVENA_TOKEN: token });
    expect(third.stdout).toContain('registered 0 new commit(s)');
  });
});

describe('provena verify-commit', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness();
    await h.app.ledger.stop();
    url = await serve(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('passes on a clone, fails after one byte of one file of the commit is changed, and on another commit', async () => {
    const { projectId, token } = await projectWithToken(h, '校验');
    const dir = newRepo();
    cleanup.push(dir);
    commitFiles(dir, { 'src/app.ts': 'export const answer = 42;\n', 'README.md': '# app\n' }, 'first');
    const target = commitFiles(dir, { 'src/app.ts': 'export const answer = 43;\n' }, 'second');
    const pushed = await provena(['repo', 'push', '--project', String(projectId), '--url', url, dir], { PROVENA_TOKEN: token });
    expect(pushed.status, pushed.stderr).toBe(0);
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const res = await fetch(`${url}/api/v1/repos/${projectId}/commits/${target}/proof`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const pdf = path.join(dir, '..', `proof-${process.pid}.pdf`);
    fs.writeFileSync(pdf, Buffer.from(await res.arrayBuffer()));
    cleanup.push(pdf);
    const roots = ((await (await fetch(`${url}/api/v1/ledger/platform-roots`)).json()) as { data: { fingerprint: string }[] }).data.map((r) => ['--trust-root', r.fingerprint]).flat();

    // A fresh clone, as a verifier would have.
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-clone-'));
    cleanup.push(clone);
    git(os.tmpdir(), ['clone', '-q', dir, clone]);
    const ok = await provena(['verify-commit', clone, target, pdf, ...roots]);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('VALID');
    expect(ok.stdout).toContain(`commit ${target}`);

    const wrongCommit = await provena(['verify-commit', clone, git(clone, ['rev-parse', 'HEAD~1']), pdf, ...roots]);
    expect(wrongCommit.status).toBe(1);
    expect(wrongCommit.stderr).toContain('FAILED at check "file_hash"');

    // One byte of one file in that commit's tree: the same history rewritten with "44" for "43".
    const forged = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-forged-'));
    cleanup.push(forged);
    git(os.tmpdir(), ['clone', '-q', dir, forged]);
    fs.writeFileSync(path.join(forged, 'src/app.ts'), 'export const answer = 44;\n');
    git(forged, ['commit', '-q', '--amend', '-a', '--no-edit']);
    const forgedHead = git(forged, ['rev-parse', 'HEAD']);
    const bad = await provena(['verify-commit', forged, forgedHead, pdf, ...roots]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('FAILED at check "file_hash"');

    const missing = await provena(['verify-commit', clone, 'f'.repeat(40), pdf, ...roots]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('not found');
  });
});
