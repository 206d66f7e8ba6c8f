/**
 * Proof by load and faults. On this machine: PostgreSQL (BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; a throwaway schema), an S3-protocol server (s3rver) on loopback, a local
 * EVM chain (anvil) for anchors, 3 API replicas (`provena serve`) behind a small round-robin
 * proxy, 2 workers (`provena work`). A bounded load (sign-ups, registrations, uploads, proof
 * downloads, verifications) runs while a chaos loop SIGKILLs a random replica or the leader
 * worker and restarts it. Afterwards it checks:
 *   - every acknowledged registration is sealed in the ledger, no height twice, one chain;
 *   - `provena ledger-verify` passes (database, stored checkpoints, chain anchors);
 *   - no duplicate anchor (one checkpoint anchor row per transaction the account sent);
 *   - every entry has one proof, rendered, and a proof a client downloaded never changed
 *     afterwards (generated exactly once);
 *   - every acknowledged upload is stored with its size;
 *   - every acknowledged sign-up can sign in.
 * The same load without faults runs first against the embedded single process on SQLite,
 * for throughput and p50/p99 latency side by side. JSON: bench/results/chaos.json.
 *
 *   BENCH_DATABASE_URL=postgres://… node bench/chaos.ts [--quick] [--seconds N] [--concurrency C]
 *
 * --quick (what CI runs, about 3 minutes on 2 cores): 15 s single process, 45 s cluster
 * with a fault every 9 s. Exits non-zero when a check fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import S3rver from 's3rver';
import { registeringMember, registrationFreeConfig } from '../scripts/registering-member.ts';
import { freePort, pgQuery, schemaUrl, startAnvil } from '../scripts/local-servers.ts';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, seconds: { type: 'string' }, concurrency: { type: 'string' } } });
const isQuick = values.quick!;
const clusterSeconds = Number(values.seconds ?? (isQuick ? 45 : 180));
const singleSeconds = isQuick ? 15 : Math.min(60, clusterSeconds);
const concurrency = Number(values.concurrency ?? (isQuick ? 4 : 8));
const faultEverySeconds = isQuick ? 9 : 15;
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!baseUrl) {
  console.log('bench/chaos.ts needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server it may create a schema on); skipped');
  process.exit(0);
}

const root = path.resolve(import.meta.dirname, '..');
const schema = `chaos_${randomBytes(4).toString('hex')}`;
const databaseUrl = schemaUrl(baseUrl, schema);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-chaos-'));
const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const began = Date.now();
const phase = (what: string) => console.error(`chaos: ${((Date.now() - began) / 1000).toFixed(0)} s ${what}`);
// anvil's first development account: the anchoring key.
const ANCHOR_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const sql = <R extends pg.QueryResultRow>(text: string, params: unknown[] = [], connection = databaseUrl): Promise<R[]> => pgQuery<R>(connection, text, params);


type Proc = { name: string; child: ChildProcess; output: () => string; args: string[]; env: Record<string, string> };

function start(name: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk;
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, child, output: () => out, args, env };
}

async function waitHealthy(port: number, proc: Proc, ms = 240_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited: ${proc.output().slice(-3000)}`);
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} did not start: ${proc.output().slice(-3000)}`);
    await sleep(100);
  }
}

async function stopGracefully(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
}

// ---- the round-robin proxy -------------------------------------------------------------

/**
 * The load balancer in front of the replicas, as nginx is in compose.yaml: round robin, a
 * replica that refuses a connection is skipped for a second, and an idempotent request (GET,
 * HEAD) that fails before an answer goes to the next one. Anything else gets 502: the client
 * does not count it as acknowledged.
 */
function startProxy(ports: number[]): Promise<{ port: number; close(): Promise<void> }> {
  const downUntil = new Map<number, number>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const pick = (): number | null => {
    for (let i = 0; i < ports.length; i++) {
      const port = ports[next++ % ports.length]!;
      if ((downUntil.get(port) ?? 0) <= Date.now()) return port;
    }
    return null;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isIdempotent = req.method === 'GET' || req.method === 'HEAD';
      const attempt = (tries: number) => {
        const port = pick();
        if (port === null) {
          res.writeHead(502).end();
          return;
        }
        const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });
        upstream.on('error', () => {
          downUntil.set(port, Date.now() + 1000);
          if (res.headersSent) res.destroy();
          else if (isIdempotent && tries < ports.length) attempt(tries + 1);
          else res.writeHead(502).end();
        });
        upstream.end(body);
      };
      attempt(1);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () => new Promise<void>((r) => {
          agent.destroy();
          server.closeAllConnections();
          server.close(() => r());
        }),
      }),
    );
  });
}

// ---- the load ----------------------------------------------------------------------------

type Op = 'register' | 'signup' | 'upload' | 'proof' | 'verify';
type Outcome = { op: Op; ms: number; isAck: boolean; failure?: string };

type Acks = {
  registrations: string[];
  uploads: { hash: string; size: number }[];
  signups: { phone: string; password: string }[];
  /** dna → sha-256 of the certificate a client downloaded */
  proofs: Map<string, string>;
  /** dna → the registered file's SHA-256 (hex) */
  hashes: Map<string, string>;
  /** the newest downloaded certificates, for verification */
  pdfs: { dna: string; pdf: Buffer }[];
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function runLoad(base: string, cookie: string, seconds: number, acks: Acks, phonePrefix: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const deadline = Date.now() + seconds * 1000;
  let phoneSeq = 0;
  const call = async (url: string, init: RequestInit = {}) => fetch(`${base}${url}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
  const registerHash = async (fileHash: string, size: number): Promise<string | null> => {
    const res = await call('/api/v1/assets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `chaos-${fileHash.slice(2, 10)}`, type: 1, file_hash: fileHash, size }) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`register ${res.status} ${text.slice(0, 80)}`);
    return (JSON.parse(text) as { data: { dip_id: string } }).data.dip_id;
  };
  const ops: Record<Op, () => Promise<boolean>> = {
    async register() {
      const hex = randomBytes(32).toString('hex');
      const dna = await registerHash(`0x${hex}.dat`, 1);
      if (!dna) return false;
      acks.registrations.push(dna);
      acks.hashes.set(dna, hex);
      return true;
    },
    async signup() {
      const phone = `${phonePrefix}${String(phoneSeq++).padStart(4, '0')}`;
      const sent = await fetch(`${base}/api/v1/validation/public-code?phonenumber=${phone}&type=1`);
      if (sent.status !== 200) throw new Error(`code ${sent.status}`);
      const rows = ((await (await fetch(`${base}/api/dev/sms-outbox?phone=${phone}`)).json()) as { data: { code: string; type: number }[] }).data;
      const code = rows.find((r) => r.type === 1)?.code;
      if (!code) throw new Error('no code');
      const res = await fetch(`${base}/api/v1/users/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phonenumber: phone, password: 'Passw0rdA', validation_code: code, name: '压测用户' }) });
      if (res.status !== 200) throw new Error(`sign-up ${res.status}`);
      acks.signups.push({ phone, password: 'Passw0rdA' });
      return true;
    },
    async upload() {
      const bytes = randomBytes(64 * 1024 + Math.floor(Math.random() * 192 * 1024));
      const hash = `0x${createHash('sha256').update(bytes).digest('hex')}.bin`;
      await registerHash(hash, bytes.length);
      const meta = `identity ${Buffer.from(hash).toString('base64')},filename ${Buffer.from('chaos.bin').toString('base64')}`;
      if (Math.random() < 0.5) {
        // One request (tus creation-with-upload): whichever replica answers holds the whole file.
        const res = await call('/api/v1/storage/uploads', { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': meta, 'content-type': 'application/offset+octet-stream' }, body: bytes });
        await res.arrayBuffer();
        if (res.status !== 201 || Number(res.headers.get('upload-offset')) !== bytes.length) throw new Error(`upload ${res.status} offset ${res.headers.get('upload-offset')}`);
      } else {
        // Created on one replica, the bytes sent to the next one (round robin): the upload's
        // state must be where every replica finds it.
        const created = await call('/api/v1/storage/uploads', { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': meta } });
        await created.arrayBuffer();
        const location = created.headers.get('location');
        if (created.status !== 201 || !location) throw new Error(`upload create ${created.status}`);
        const sent = await call(new URL(location, base).pathname, { method: 'PATCH', headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: bytes });
        await sent.arrayBuffer();
        if (sent.status !== 204 || Number(sent.headers.get('upload-offset')) !== bytes.length) throw new Error(`upload patch ${sent.status}`);
      }
      acks.uploads.push({ hash, size: bytes.length });
      return true;
    },
    async proof() {
      // The older half: most of those have their certificate by now.
      const settled = acks.registrations.slice(0, Math.floor(acks.registrations.length / 2));
      const dna = settled[Math.floor(Math.random() * settled.length)];
      if (!dna) return ops.register();
      const res = await call(`/api/v1/assets/${dna}/proof`);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status === 200) {
        const digest = createHash('sha256').update(body).digest('hex');
        const seen = acks.proofs.get(dna);
        if (seen && seen !== digest) throw new Error(`the certificate of ${dna} changed between two downloads`);
        acks.proofs.set(dna, digest);
        acks.pdfs.push({ dna, pdf: body });
        if (acks.pdfs.length > 20) acks.pdfs.shift();
        return true;
      }
      if (res.status >= 400 && res.status < 500 && body.toString().includes('proof_record_not_found')) return true; // not rendered yet: an answer, not a fault
      throw new Error(`proof ${res.status}`);
    },
    async verify() {
      // The public verification API checks a downloaded certificate against the file's hash.
      const sample = acks.pdfs[Math.floor(Math.random() * acks.pdfs.length)];
      if (!sample) return ops.register();
      const form = new FormData();
      form.append('hash', `0x${acks.hashes.get(sample.dna)}`);
      form.append('file', new Blob([new Uint8Array(sample.pdf)], { type: 'application/pdf' }), 'proof.pdf');
      const res = await fetch(`${base}/verify-api/v1/public/zkp-proof-verify`, { method: 'PUT', body: form });
      const text = await res.text();
      if (res.status !== 200 || (JSON.parse(text) as { data: { asset_dna: string } }).data.asset_dna !== sample.dna) throw new Error(`verify ${res.status} ${text.slice(0, 60)}`);
      return true;
    },
  };
  const mix: Op[] = ['register', 'register', 'register', 'register', 'register', 'register', 'proof', 'proof', 'verify', 'signup', 'upload'];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        const op = mix[Math.floor(Math.random() * mix.length)]!;
        const t = performance.now();
        try {
          const isAck = await ops[op]();
          outcomes.push({ op, ms: performance.now() - t, isAck });
        } catch (error) {
          outcomes.push({ op, ms: performance.now() - t, isAck: false, failure: (error as Error).message.slice(0, 60) });
          await sleep(50);
        }
      }
    }),
  );
  return outcomes;
}

function summarize(outcomes: Outcome[], seconds: number) {
  const acked = outcomes.filter((o) => o.isAck);
  const byOp: Record<string, unknown> = {};
  for (const op of new Set(outcomes.map((o) => o.op))) {
    const mine = outcomes.filter((o) => o.op === op);
    const ms = mine.filter((o) => o.isAck).map((o) => o.ms).sort((a, b) => a - b);
    byOp[op] = { acknowledged: ms.length, failed: mine.length - ms.length, p50_ms: +percentile(ms, 50).toFixed(1), p99_ms: +percentile(ms, 99).toFixed(1) };
  }
  const all = acked.map((o) => o.ms).sort((a, b) => a - b);
  const failures: Record<string, number> = {};
  for (const o of outcomes) if (o.failure) failures[o.failure] = (failures[o.failure] ?? 0) + 1;
  return { seconds, acknowledged_per_s: +(acked.length / seconds).toFixed(1), p50_ms: +percentile(all, 50).toFixed(1), p99_ms: +percentile(all, 99).toFixed(1), by_op: byOp, failures };
}

// ---- the runs ------------------------------------------------------------------------------

async function singleProcess(): Promise<ReturnType<typeof summarize>> {
  const dataDir = path.join(work, 'single');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const p = start('single', ['server/server.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_DIR: path.join(dataDir, 'no-app'),
    PROVENA_CONFIG: registrationFreeConfig(work),
    LOG_LEVEL: 'warn',
    ADDRESS_LIMIT_FACTOR: '1000',
    SCORE_RECOMPUTE_MINUTES: '0',
    LEDGER_BLOCK_INTERVAL_MS: '500',
    DATABASE_URL: '',
  });
  await waitHealthy(port, p);
  phase('single process up');
  const base = `http://127.0.0.1:${port}`;
  const member = await registeringMember(base, { phone: '13600000001', enterpriseName: '单进程压测有限公司' });
  const outcomes = await runLoad(base, member.cookie, singleSeconds, { registrations: [], uploads: [], signups: [], proofs: new Map(), hashes: new Map(), pdfs: [] }, '1360001');
  await stopGracefully(p);
  return summarize(outcomes, singleSeconds);
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: unknown }).result;
}

async function cluster(): Promise<Record<string, unknown>> {
  await sql(`create schema ${schema}`, [], baseUrl);
  const s3dir = path.join(work, 's3');
  fs.mkdirSync(s3dir);
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'provena', configs: [] }] });
  const s3address = (await s3.run()) as net.AddressInfo;
  const chain = await startAnvil();
  children.add(chain.child);
  const dataDir = path.join(work, 'cluster');
  fs.mkdirSync(dataDir, { recursive: true });
  const shared: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    APP_DIR: path.join(dataDir, 'no-app'),
    PROVENA_CONFIG: registrationFreeConfig(work),
    LOG_LEVEL: 'info',
    ADDRESS_LIMIT_FACTOR: '1000',
    SCORE_RECOMPUTE_MINUTES: '0',
    LEDGER_BLOCK_INTERVAL_MS: '500',
    PROOF_RENDER_WORKERS: '1',
    STORAGE_URL: 's3://provena/chaos',
    S3_ENDPOINT: `http://127.0.0.1:${s3address.port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    ANCHOR_RPC_URL: chain.url,
    ANCHOR_PRIVATE_KEY: ANCHOR_KEY,
    ANCHOR_INTERVAL: isQuick ? '5s' : '10s',
  };
  const ports = [await freePort(), await freePort(), await freePort()];
  const replicas: Proc[] = ports.map((port, i) => start(`serve-${i}`, ['bin/provena.ts', 'serve'], { ...shared, PORT: String(port) }));
  const workers: Proc[] = [0, 1].map((i) => start(`work-${i}`, ['bin/provena.ts', 'work'], shared));
  for (const [i, r] of replicas.entries()) await waitHealthy(ports[i]!, r);
  phase('replicas up');
  const proxy = await startProxy(ports);
  const base = `http://127.0.0.1:${proxy.port}`;
  const isLeading = (p: Proc, since = 0) => p.output().indexOf('this process is the leader', since) >= 0;
  for (let i = 0; !workers.some((w) => isLeading(w)); i++) {
    if (i > 2400) throw new Error('no worker leads');
    await sleep(100);
  }
  phase('a leader');
  const member = await registeringMember(base, { phone: '13700000001', enterpriseName: '集群压测有限公司' });
  const acks: Acks = { registrations: [], uploads: [], signups: [], proofs: new Map(), hashes: new Map(), pdfs: [] };

  // The chaos loop: every few seconds a replica or the leading worker is SIGKILLed and restarted.
  const faults: { at_s: number; killed: string; standby_ready?: boolean; takeover_ms?: number }[] = [];
  const t0 = Date.now();
  let isLoadRunning = true;
  const chaos = (async () => {
    let round = 0;
    while (isLoadRunning) {
      await sleep(faultEverySeconds * 1000);
      if (!isLoadRunning) break;
      round += 1;
      if (round % 2 === 1) {
        const i = Math.floor(Math.random() * replicas.length);
        const victim = replicas[i]!;
        victim.child.kill('SIGKILL');
        faults.push({ at_s: +((Date.now() - t0) / 1000).toFixed(1), killed: victim.name });
        await sleep(1500);
        replicas[i] = start(victim.name, victim.args, victim.env);
      } else {
        const i = workers.findIndex((w) => w.child.exitCode === null && isLeading(w));
        if (i < 0) continue;
        const victim = workers[i]!;
        const other = workers[1 - i]!;
        const mark = other.output().length;
        const killedAt = Date.now();
        victim.child.kill('SIGKILL');
        // A standby is one that has started (a worker restarted a moment ago may still be booting).
        const isStandbyReady = other.child.exitCode === null && other.output().includes('process role');
        const fault: (typeof faults)[number] = { at_s: +((killedAt - t0) / 1000).toFixed(1), killed: `${victim.name} (leader)`, standby_ready: isStandbyReady };
        faults.push(fault);
        // Restarted 1.5 s later, as a supervisor would; the takeover is timed from the kill meanwhile.
        const restart = sleep(1500).then(() => (workers[i] = start(victim.name, victim.args, victim.env)));
        for (let k = 0; k < 1200 && !isLeading(other, mark) && !(workers[i] !== victim && isLeading(workers[i]!)); k++) await sleep(25);
        fault.takeover_ms = Date.now() - killedAt;
        await restart;
      }
    }
  })();
  const outcomes = await runLoad(base, member.cookie, clusterSeconds, acks, '1370001');
  isLoadRunning = false;
  await chaos;
  const load = summarize(outcomes, clusterSeconds);
  phase('load done');
  for (const [i, r] of replicas.entries()) await waitHealthy(ports[i]!, r);

  // ---- afterwards: the checks ----
  const problems: string[] = [];
  for (const f of faults) if (f.standby_ready && (f.takeover_ms ?? Infinity) > 10_000) problems.push(`the standby took ${f.takeover_ms} ms to lead after ${f.killed} was killed (goal: 10 s)`);
  const wait = async (what: string, probe: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (!(await probe().catch(() => false))) {
      if (Date.now() > deadline) {
        problems.push(`timed out waiting for ${what}`);
        return;
      }
      await sleep(250);
    }
  };
  await wait('every entry sealed', async () => Number((await sql<{ n: string }>('select count(*) as n from ledger_entries where leaf_index is null'))[0]!.n) === 0, 180_000);
  const sealed = new Set((await sql<{ dna: string }>('select dna from ledger_entries where leaf_index is not null and dna = any($1)', [acks.registrations])).map((r) => r.dna));
  const lost = acks.registrations.filter((d) => !sealed.has(d));
  if (lost.length) problems.push(`${lost.length} acknowledged registrations are not in the ledger (first: ${lost[0]})`);
  const blocks = await sql<{ height: number; hash: string; prev_hash: string }>('select height, hash, prev_hash from ledger_blocks order by height');
  blocks.forEach((b, i) => {
    if (b.height !== i + 1) problems.push(`block heights are not 1…n: ${b.height} at position ${i + 1}`);
    else if (i > 0 && b.prev_hash !== blocks[i - 1]!.hash) problems.push(`block ${b.height} does not follow block ${b.height - 1}`);
  });
  await wait('every certificate rendered', async () => Number((await sql<{ n: string }>('select count(*) as n from proofs where status < 5'))[0]!.n) === 0, 300_000);
  const proofRows = await sql<{ dna: string; n: string; generation: number }>('select dna, count(*) over (partition by dna) as n, generation from proofs');
  if (proofRows.some((r) => Number(r.n) > 1)) problems.push('an entry has more than one proof');
  if (proofRows.some((r) => r.generation !== 1)) problems.push('a proof was generated more than once');
  // A certificate a client downloaded is still the same bytes.
  const sample = [...acks.proofs.entries()].slice(0, 200);
  for (const [dna, digest] of sample) {
    const res = await fetch(`${base}/api/v1/assets/${dna}/proof`, { headers: { cookie: member.cookie } });
    const now = createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
    if (now !== digest) problems.push(`the certificate of ${dna} changed after it was downloaded`);
  }
  for (const u of acks.uploads) {
    const res = await fetch(`${base}/api/v1/storage/files/${u.hash}`, { headers: { cookie: member.cookie } });
    const data = res.status === 200 ? ((await res.json()) as { data: { is_stored: boolean; size: number } }).data : null;
    if (!data?.is_stored || data.size !== u.size) problems.push(`the acknowledged upload ${u.hash} is not stored (${res.status})`);
  }
  for (const s of acks.signups.slice(0, 50)) {
    const res = await fetch(`${base}/api/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login_id: s.phone, password: s.password }) });
    await res.arrayBuffer();
    if (res.status !== 200) problems.push(`the acknowledged sign-up ${s.phone} cannot sign in (${res.status})`);
  }
  // Anchors: give the leader one more interval, then one row per transaction the account sent.
  await sleep(isQuick ? 6000 : 11_000);
  const anchors = await sql<{ height: number; tx_hash: string }>('select height, tx_hash from ledger_checkpoint_anchors');
  const sent = Number(BigInt((await rpc(chain.url, 'eth_getTransactionCount', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'latest'])) as string));
  if (new Set(anchors.map((a) => a.tx_hash)).size !== anchors.length || new Set(anchors.map((a) => a.height)).size !== anchors.length) problems.push('a checkpoint was anchored twice');
  if (sent !== anchors.length) problems.push(`the anchoring account sent ${sent} transactions, the database records ${anchors.length} anchors`);
  phase('checks done');
  for (const w of workers) if (w.child.exitCode === null) await stopGracefully(w);
  // Not spawnSync: the S3 server answering ledger-verify's reads runs in this process.
  const checker = start('ledger-verify', ['bin/provena.ts', 'ledger-verify'], shared);
  const verifyStatus = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => checker.child.kill('SIGKILL'), 180_000);
    checker.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const verify = { status: verifyStatus };
  if (verify.status !== 0) problems.push(`provena ledger-verify failed (${verify.status}): ${checker.output().slice(-600)}`);

  phase('ledger-verify done');
  for (const r of replicas) await stopGracefully(r);
  await proxy.close();
  await s3.close();
  chain.stop();
  return {
    load,
    faults,
    ledger: { acknowledged_registrations: acks.registrations.length, blocks: blocks.length, anchors: anchors.length, anchor_transactions: sent },
    proofs_downloaded: acks.proofs.size,
    uploads_acknowledged: acks.uploads.length,
    signups_acknowledged: acks.signups.length,
    ledger_verify: verify.status === 0 ? 'passed' : 'FAILED',
    problems,
  };
}

let exitCode = 0;
try {
  const single = await singleProcess();
  const many = await cluster();
  const results = {
    quick: isQuick,
    cpus: os.cpus().length,
    loadavg: os.loadavg().map((l) => +l.toFixed(2)),
    concurrency,
    single_process_sqlite: single,
    cluster_postgresql_s3: many,
  };
  console.log(JSON.stringify(results, null, 2));
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'chaos.json'), `${JSON.stringify(results, null, 2)}\n`);
  const problems = many.problems as string[];
  if (problems.length) {
    console.error(`chaos: ${problems.length} check(s) failed:\n- ${problems.join('\n- ')}`);
    exitCode = 1;
  } else console.log('chaos: every check passed');
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sql(`drop schema if exists ${schema} cascade`, [], baseUrl).catch(() => undefined);
  await sql(`drop schema if exists ${schema}_jobs cascade`, [], baseUrl).catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
