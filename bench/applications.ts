/**
 * npm run bench:applications — external applications, the real server code:
 *   ingest       signed batch registrations per second over HTTP on one process (HMAC check,
 *                nonce, idempotency, the feature service's charge and the ledger entry per
 *                file), against the baseline of the same registrations through the ledger's
 *                registerEntry + the same charge called in-process (no HTTP, no signature);
 *   monitoring   one scheduler pass over N applications that all went silent: the time to
 *                detect and record every interruption (detection ≤ tick + this);
 *   agent hash   the agent's streaming WASM SHA-256 (the browser's core) against `sha256sum` on the same file.
 * JSON in bench/results/applications-<db>.json. BENCH_DATABASE_URL=postgres://… runs on PostgreSQL.
 * --quick: small sizes (this machine is shared); the defaults are the issue's (10 000 applications).
 * BENCH_FILES and BENCH_APPLICATIONS override the sizes (FILES a multiple of 100).
 * cpu_us_per_file: this process's CPU time (user + system) per file over each timed phase; on a
 * shared machine it moves far less with the neighbours' load than the per-second figures (on
 * PostgreSQL the server's own CPU is not in it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildServer } from '../server/build-app.ts';
import { readEnv } from '../server/env.ts';
import { DEFAULT_CONFIG } from '../core/config.ts';
import { keyringOf } from '../server/keys/platform-keys.ts';
import { createKey, registerApplicationFile, type ApplicationRow } from '../server/services/applications.ts';
import { ensureAccount } from '../server/services/credits.ts';
import { signedHeaders } from '../core/applications.ts';
import { sha256File } from '../bin/commands/sha256-file.ts';
import { readMonitorSettings } from '../server/services/application-monitor.ts';

const defaultTickMs = readMonitorSettings({}).tickMs;

const isQuick = process.argv.includes('--quick');
const FILES = Number(process.env.BENCH_FILES ?? (isQuick ? 2000 : 20_000));
const BATCH = 100;
const CONCURRENCY = 4;
const APPS = Number(process.env.BENCH_APPLICATIONS ?? (isQuick ? 2000 : 10_000));
const HASH_MIB = isQuick ? 64 : 512;

process.env.APPLICATION_MONITOR_TICK_MS = '60000';
// Registration is timed alone: no block is sealed (and no certificate rendered) because the waiting entries reached a block's size.
process.env.LEDGER_BLOCK_MAX_ENTRIES = '100000';
const pgUrl = process.env.BENCH_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-apps-'));
let databaseUrl: string | undefined;
let dropSchema: (() => Promise<void>) | undefined;
if (pgUrl) {
  const pg = (await import('pg')).default;
  const schema = `bench_apps_${Date.now().toString(36)}`;
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
const env = { ...readEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_DIR: path.join(dataDir, 'no-app') }), databaseUrl };
const app = await buildServer(env, { config: { ...DEFAULT_CONFIG, credits: { ...DEFAULT_CONFIG.credits, applicationFile: 1 } }, logger: false });
await app.ready();
await app.ledger.stop(); // registration is timed alone: no sealing or certificates meanwhile
const { db } = app;
const now = Date.now();

// An enterprise, its owner (a confirmed member with credits) and one application with a key.
const user = await db.insertInto('users').values({ phonenumber: '13900000000', login_id: null, name: 'bench', password_hash: 'x', icon_color: '#000', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
const enterprise = await db
  .insertInto('enterprises')
  .values({ name: '基准测试企业', license_no: 'x', legal_person: 'x', license_image_id: 'x', channel: 1, apply_book_id: null, organization_code_certificate_id: null, verify_status: 2, invitation_code: 'BENCH001', created_by: user.id, created_at: now, updated_at: now })
  .returning('id')
  .executeTakeFirstOrThrow();
await db.insertInto('employees').values({ enterprise_id: enterprise.id, user_id: user.id, role: 1, status: 1, created_at: now, updated_at: now }).execute();
await ensureAccount(db, enterprise.id, user.id);
await db.updateTable('credit_accounts').set({ balance: 10_000_000 }).where('user_id', '=', user.id).execute();
const newApp = async (name: string) => {
  const row = await db.insertInto('applications').values({ enterprise_id: enterprise.id, owner_user_id: user.id, name, interval_seconds: 60, grace_seconds: 30, deleted_at: null, state_since: now, last_seen_at: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return { id: Number(row.id), ...(await createKey(db, keyringOf(db), Number(row.id))) };
};
const main = await newApp('ingest');
const identity = (i: number, salt: string) => `0x${createHash('sha256').update(`${salt}-${i}`).digest('hex')}.csv`;

// Baseline: the same registrations in-process through the feature service (no HTTP, no signature).
const row = (await db.selectFrom('applications').selectAll().where('id', '=', main.id).executeTakeFirstOrThrow()) as ApplicationRow;
let next = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < FILES) {
      const i = next++;
      await registerApplicationFile(db, (input, trx) => app.registerEntry(input, trx), app.config, row, { identity: { sha256: identity(i, 'base').slice(2, 66), extension: '.csv' }, name: `b${i}.csv`, size: 100, metadata: null });
    }
  }),
);
const baselineS = (performance.now() - t0) / 1000;
const baselineCpu = process.cpuUsage(cpu0);

// Signed batches over HTTP.
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
let batchNo = 0;
const batches = FILES / BATCH;
let refused = 0;
const cpu1 = process.cpuUsage();
const t1 = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (batchNo < batches) {
      const b = batchNo++;
      const items = Array.from({ length: BATCH }, (_, k) => ({ file_hash: identity(b * BATCH + k, 'http'), name: `f${b * BATCH + k}.csv`, size: 100 }));
      const body = JSON.stringify({ items });
      const res = await fetch(`${base}/open-api/v1/files/batch`, { method: 'POST', body, headers: { ...signedHeaders(main.key_id, main.secret, { method: 'POST', path: '/open-api/v1/files/batch', body }), 'content-type': 'application/json', 'idempotency-key': `bench-${b}` } });
      const json = (await res.json()) as { data: { refused: number } };
      if (res.status !== 200) throw new Error(`batch ${b}: ${res.status} ${JSON.stringify(json)}`);
      refused += json.data.refused;
    }
  }),
);
const ingestS = (performance.now() - t1) / 1000;
const ingestCpu = process.cpuUsage(cpu1);
if (refused) throw new Error(`${refused} registrations refused`);
const registered = Number((await db.selectFrom('application_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
if (registered !== 2 * FILES) throw new Error(`expected ${2 * FILES} files, found ${registered}`);

// Monitoring: APPS applications, all last seen long ago, then one pass.
const silentSince = Date.now() - 3600_000;
for (let i = 0; i < APPS; i += 500) {
  await db
    .insertInto('applications')
    .values(Array.from({ length: Math.min(500, APPS - i) }, (_, k) => ({ enterprise_id: enterprise.id, owner_user_id: user.id, name: `m${i + k}`, interval_seconds: 60, grace_seconds: 30, deleted_at: null, state: 'normal', state_since: silentSince, last_seen_at: silentSince, created_at: silentSince })))
    .execute();
}
// The pass must not hold the event loop (SQLite runs on it): the longest delay a timer saw during it.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
const t2 = performance.now();
const transitions = await app.applicationMonitor.evaluate(Date.now());
const passMs = performance.now() - t2;
loopDelay.disable();
const passLoopDelayMaxMs = loopDelay.max / 1e6;
const t3 = performance.now();
await app.applicationMonitor.evaluate(Date.now());
const quietPassMs = performance.now() - t3;

// The agent's hashing against sha256sum on the same file.
const file = path.join(dataDir, 'hash.bin');
const chunk = Buffer.alloc(1024 * 1024);
for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0xff;
const fd = fs.openSync(file, 'w');
for (let i = 0; i < HASH_MIB; i++) fs.writeSync(fd, chunk);
fs.closeSync(fd);
execFileSync('sha256sum', [file]); // warm the page cache for both
// Alternating runs, best of three each: this machine is shared, a single run measures the neighbours.
const timed = async <T>(f: () => Promise<T> | T): Promise<[T, number]> => {
  const t = performance.now();
  const value = await f();
  return [value, (performance.now() - t) / 1000];
};
let agentS = Infinity;
let sumS = Infinity;
let ours = '';
let theirs = '';
for (let r = 0; r < 3; r++) {
  const [a, as] = await timed(() => sha256File(file));
  const [b, bs] = await timed(() => execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0] ?? '');
  ours = a;
  theirs = b;
  agentS = Math.min(agentS, as);
  sumS = Math.min(sumS, bs);
}
if (ours !== theirs) throw new Error('the agent and sha256sum disagree');

const result = {
  database: pgUrl ? 'postgres' : 'sqlite',
  quick: isQuick,
  cpus: os.cpus().length,
  ingest: { files: FILES, batch: BATCH, concurrency: CONCURRENCY, seconds: ingestS, per_second: FILES / ingestS, goal_per_second: 2000, cpu_us_per_file: (ingestCpu.user + ingestCpu.system) / FILES },
  baseline_in_process: { files: FILES, seconds: baselineS, per_second: FILES / baselineS, cpu_us_per_file: (baselineCpu.user + baselineCpu.system) / FILES },
  monitoring: { applications: APPS, transitions, pass_ms: passMs, pass_event_loop_delay_max_ms: passLoopDelayMaxMs, quiet_pass_ms: quietPassMs, tick_ms: defaultTickMs, detection_after_grace_worst_s: Number(((defaultTickMs + passMs) / 1000).toFixed(2)), goal_detection_after_grace_s: 5, detection_note: 'an interruption is seen at the first pass after interval + grace: at worst one tick (the default APPLICATION_MONITOR_TICK_MS) plus the pass' },
  agent_hash: { mib: HASH_MIB, runs: 'best of 3, alternating', agent_seconds: agentS, sha256sum_seconds: sumS, agent_mib_s: HASH_MIB / agentS, sha256sum_mib_s: HASH_MIB / sumS, ratio: agentS / sumS },
};
fs.mkdirSync('bench/results', { recursive: true });
const out = `bench/results/applications-${result.database}${isQuick ? '-quick' : ''}.json`;
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log(`written to ${out}`);
// Keep-alive connections of the fetches can hold close() open: do not wait for them.
await Promise.race([app.close(), new Promise((resolve) => setTimeout(resolve, 5000))]);
await dropSchema?.().catch(() => undefined);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
