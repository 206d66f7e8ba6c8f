/**
 * The score recompute never runs on an API replica's event loop. On one PostgreSQL
 * (BENCH_DATABASE_URL, a throwaway schema of its own), with N demo enterprises, a full
 * recompute runs twice while a client asks GET /api/health every 5 ms:
 *   all   — the embedded single process (API and recompute on one event loop);
 *   split — `provena serve` answers, `provena work` runs the recompute as a job.
 * Reported: the requests' latency (p50, p99, max) during the recompute, and its duration.
 *   BENCH_DATABASE_URL=postgres://… node bench/roles.ts [--enterprises 20000]
 * JSON results in bench/results/roles.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, pgQuery, schemaUrl } from '../scripts/local-servers.ts';

const { values } = parseArgs({ options: { enterprises: { type: 'string', default: '20000' } } });
const baseUrl = process.env.BENCH_DATABASE_URL;
if (!baseUrl) {
  console.log('bench/roles.ts needs BENCH_DATABASE_URL (a PostgreSQL server it may create a schema on)');
  process.exit(0);
}
const root = path.resolve(import.meta.dirname, '..');
const schema = `bench_${randomBytes(4).toString('hex')}`;
const databaseUrl = schemaUrl(baseUrl, schema);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-roles-'));
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sql = <R extends pg.QueryResultRow>(text: string, connection = databaseUrl): Promise<R[]> => pgQuery<R>(connection, text);


function start(args: string[], extra: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', APP_DIR: path.join(dataDir, 'no-app'), LOG_LEVEL: 'info', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (out += c));
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Asks /api/health every 5 ms until `done()` says the recompute finished; returns the latencies. */
async function sample(port: number, isDone: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!isDone()) {
    const t = performance.now();
    await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.arrayBuffer());
    latencies.push(performance.now() - t);
    await sleep(5);
  }
  return latencies;
}

async function run(mode: 'all' | 'split'): Promise<Record<string, number | string>> {
  // No stored series: the recompute computes every enterprise from its first week.
  await sql('delete from score_series');
  const port = await freePort();
  const procs =
    mode === 'all'
      ? [start(['server/server.ts'], { PORT: String(port), SCORE_RECOMPUTE_MINUTES: '60' })]
      : [start(['bin/provena.ts', 'serve'], { PORT: String(port), SCORE_RECOMPUTE_MINUTES: '60' }), start(['bin/provena.ts', 'work'], { SCORE_RECOMPUTE_MINUTES: '60' })];
  for (let i = 0; ; i++) {
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 3000) throw new Error(`the API did not start: ${procs[0]!.output()}`);
    await sleep(100);
  }
  // The leader asks for the recompute 3 s after it leads; wait for it to start, then sample until it logs its figures.
  const runner = procs[procs.length - 1]!;
  const started = performance.now();
  const idle = await sample(port, () => performance.now() - started > 1000);
  let isDone = false;
  const watch = (async () => {
    while (!runner.output().includes('score recomputed')) await sleep(50);
    isDone = true;
  })();
  const busy = await sample(port, () => isDone);
  await watch;
  const stats = /"score":(\{[^}]*\})/.exec(runner.output())?.[1];
  for (const p of procs) await stop(p.child);
  const sorted = [...busy].sort((a, b) => a - b);
  const idleSorted = [...idle].sort((a, b) => a - b);
  return {
    mode,
    requests_during_recompute: busy.length,
    p50_ms: +percentile(sorted, 50).toFixed(1),
    p99_ms: +percentile(sorted, 99).toFixed(1),
    max_ms: +(sorted[sorted.length - 1] ?? 0).toFixed(1),
    idle_p99_ms: +percentile(idleSorted, 99).toFixed(1),
    recompute: stats ?? 'unknown',
  };
}

try {
  await sql(`create schema ${schema}`, baseUrl);
  const demo = spawnSync(process.execPath, ['scripts/score.ts', 'demo', '--enterprises', values.enterprises!], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(`demo data failed: ${demo.stderr}`);
  const results = { enterprises: Number(values.enterprises), cpus: os.cpus().length, loadavg: os.loadavg()[0], runs: [await run('all'), await run('split')] };
  console.log(JSON.stringify(results, null, 2));
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'roles.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sql(`drop schema if exists ${schema} cascade`, baseUrl).catch(() => undefined);
  await sql(`drop schema if exists ${schema}_jobs cascade`, baseUrl).catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
