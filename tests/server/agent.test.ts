import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { giveCredits } from './credit-helpers.ts';
import { createApplication, type AppCredentials } from './application-helpers.ts';
import { freePort } from '../../scripts/local-servers.ts';

/**
 * The real agent (bin/provena.ts agent, a child process) against a real server listening on
 * a port: registered files, then an outage (the server stopped) during which files queue up,
 * then the server back on the same database and the queue replayed in order.
 */
vi.setConfig({ testTimeout: 180_000 });
process.env.APPLICATION_MONITOR_TICK_MS = '60000';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-agent-'));
const dataDir = path.join(root, 'data');
const watch = path.join(root, 'watch');
const stateDir = path.join(root, 'state');
let h: Harness;
let port = 0;
/** On PostgreSQL both server lifetimes use one schema of ours (the harness would give each a fresh one). */
let databaseUrl: string | undefined;
let dropSchema: (() => Promise<void>) | undefined;
let app: AppCredentials;
const PRICE = 10;


async function startServer(): Promise<Harness> {
  const harness = await startHarness({ credits: { assetRegistration: 200, vaultFile: 1000, commit: 0, applicationFile: PRICE } }, { dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  await harness.app.listen({ port, host: '127.0.0.1' });
  return harness;
}

function agent(extra: string[] = [], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/provena.ts', 'agent', '--app', String(app.application_id), '--watch', watch, '--state', stateDir, '--once', ...extra],
      { env: { ...process.env, PROVENA_URL: `http://127.0.0.1:${port}`, PROVENA_APP_KEY_ID: app.key_id, PROVENA_APP_SECRET: app.secret, ...env } },
      (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

const write = (name: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(watch, name)), { recursive: true });
  fs.writeFileSync(path.join(watch, name), text);
  return `0x${createHash('sha256').update(text).digest('hex')}${path.extname(name).toLowerCase()}`;
};

const filesOf = async (harness: Harness) =>
  (await harness.app.db.selectFrom('application_files').select(['name', 'file_hash', 'id']).where('application_id', '=', app.application_id).orderBy('id').execute()).map((f) => ({ name: f.name, file_hash: f.file_hash }));

beforeAll(async () => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const { default: pg } = await import('pg');
    const schema = `agent_${process.pid}_${Date.now()}`;
    const run = async (q: string) => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(q);
      await c.end();
    };
    await run(`create schema ${schema}`);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    dropSchema = () => run(`drop schema ${schema} cascade`);
  }
  port = await freePort();
  fs.mkdirSync(watch, { recursive: true });
  h = await startServer();
  const owner = await ownerWithEnterprise(h, `代理测试企业${process.pid}`);
  await giveCredits(h, owner, owner, PRICE * 20);
  app = await createApplication(h, owner.cookie, { interval_seconds: 60, grace_seconds: 60 });
});
afterAll(async () => {
  await h?.close();
  await dropSchema?.();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('provena agent', () => {
  it('registers a folder, queues through an outage and replays in order when the server returns', async () => {
    const a = write('a.csv', 'alpha\n');
    const b = write('sub/b.txt', 'bravo\n');
    const first = await agent();
    expect(first.code, first.stderr).toBe(0);
    expect(await filesOf(h)).toEqual([
      { name: 'a.csv', file_hash: a },
      { name: 'b.txt', file_hash: b },
    ]);
    // Nothing new: nothing sent, still exit 0 (the heartbeat answered).
    expect((await agent()).code).toBe(0);
    expect(await filesOf(h)).toHaveLength(2);

    // The server goes away; three files change meanwhile (one of them an edit of a.csv).
    await h.close();
    const c = write('c.csv', 'charlie\n');
    await new Promise((r) => setTimeout(r, 20));
    const a2 = write('a.csv', 'alpha, edited\n');
    await new Promise((r) => setTimeout(r, 20));
    const d = write('d.bin', 'delta\n');
    const offline = await agent();
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('wait in the queue');
    const queued = fs.readFileSync(path.join(stateDir, 'queue.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).file_hash);
    expect(queued).toEqual([c, a2, d]);

    // Back on the same database: the queue goes first, in order.
    h = await startServer();
    const back = await agent();
    expect(back.code, back.stderr).toBe(0);
    expect((await filesOf(h)).map((f) => f.file_hash)).toEqual([a, b, c, a2, d]);
    expect(fs.readFileSync(path.join(stateDir, 'queue.jsonl'), 'utf8')).toBe('');
  });

  it('--watch without --once picks up a new file within seconds and stops cleanly on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/provena.ts', 'agent', '--app', String(app.application_id), '--watch', watch, '--state', stateDir, '--scan-seconds', '0.2', '--settle-seconds', '0.2'], {
      env: { ...process.env, PROVENA_URL: `http://127.0.0.1:${port}`, PROVENA_APP_KEY_ID: app.key_id, PROVENA_APP_SECRET: app.secret },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const e = write('live/e.csv', `echo ${Date.now()}\n`);
    // Generous: on a loaded machine the child alone takes seconds to start.
    const deadline = Date.now() + 60_000;
    while (!(await filesOf(h)).some((f) => f.file_hash === e) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await filesOf(h)).map((f) => f.file_hash), stderr).toContain(e);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a secret file others can read, and a wrong secret is reported, not retried forever', async () => {
    const file = path.join(root, 'secret');
    fs.writeFileSync(file, app.secret, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const loose = await agent([], { PROVENA_APP_SECRET: '', PROVENA_APP_SECRET_FILE: file });
    expect(loose.code).toBe(2);
    expect(loose.stderr).toContain('chmod 600');
    fs.chmodSync(file, 0o600);
    expect((await agent([], { PROVENA_APP_SECRET: '', PROVENA_APP_SECRET_FILE: file })).code).toBe(0);
    const wrong = await agent([], { PROVENA_APP_SECRET: 'sk_wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('signature refused');
  });
});
