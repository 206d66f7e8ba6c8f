/**
 * Upload and download throughput of stored files on loopback, and the server process's
 * memory while a multi-GB upload streams in.
 *
 *   ours     — the app (server/server.ts, local driver): tus PATCHes of 64 MiB (as the browser
 *              sends them) → SHA-256 as bytes arrive (state saved per request) → AES-256-GCM
 *              sealing per 1 MiB chunk (on the thread pool) → staging file → moved into storage;
 *              download through the disclosure link: decrypting and authenticating chunk by chunk.
 *   baseline — "plain Node HTTP": a bare node:http server in its own process that pipes a PUT
 *              body to a file and a GET from it (no hashing, no encryption, no tus): what the
 *              disk and loopback give.
 *
 * Both clients are lean and alike: the baseline PUTs the file from a read stream, ours makes the
 * tus creation request and then streams each 64 MiB slice of the file as one PATCH (as the
 * browser's fetch of a Blob slice does). The report splits each server's upload CPU by thread
 * (main thread, libuv pool, V8's GC helpers, workers) and gives the client's CPU beside it.
 * Before timing, ours waits for the registration's certificate (rendered once its block is sealed).
 *
 * Both servers run as child processes; their RSS is sampled every 50 ms from /proc, and the CPU
 * seconds each uses (all threads) during each transfer are read from /proc: on a shared machine
 * the server CPU per GB is steadier than wall time. Both run in the same bench process, one
 * after the other on the same file, `--repeats` times, best kept.
 *
 *   npm run bench:upload              # 2 GiB, 2 repeats
 *   npm run bench:upload -- --quick   # 256 MiB, 1 repeat
 *   npm run bench:upload -- --mib 4096
 *   npm run bench:upload -- --dir /dev/shm --repeats 3   # data on another file system, more pairs
 * JSON in bench/results/upload-<mode>-<time>.json.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as OTPAuth from 'otpauth';
import { cardCheckChar } from '../core/identity.ts';

const args = process.argv.slice(2);
const isQuick = args.includes('--quick');
const mibArg = args.indexOf('--mib');
const MIB = 1024 * 1024;
const SIZE_MIB = mibArg >= 0 ? Number(args[mibArg + 1]) : isQuick ? 256 : 2048;
const repeatsArg = args.indexOf('--repeats');
const REPEATS = repeatsArg >= 0 ? Number(args[repeatsArg + 1]) : isQuick ? 1 : 2;
/** Where the test file and both servers' data live (the same file system for both). */
const dirArg = args.indexOf('--dir');
const BASE_DIR = dirArg >= 0 ? path.resolve(args[dirArg + 1]!) : os.tmpdir();
const SIZE = SIZE_MIB * MIB;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * CPU seconds (user + system, all threads) a process has used, from /proc: less disturbed than
 * wall time by whatever else runs on a shared machine.
 */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds per thread name (main thread, libuv pool, V8 helpers, workers) of a process, from /proc. */
function threadCpuOf(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '').trim();
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** Per-thread CPU seconds used since `before` (threadCpuOf), largest first. */
function threadCpuSince(pid: number, before: Map<string, number>): Record<string, number> {
  const now = threadCpuOf(pid);
  return Object.fromEntries([...now].map(([name, s]) => [name, Number((s - (before.get(name) ?? 0)).toFixed(2))] as const).filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]));
}

/**
 * Waits (at most 15 s) until a process has used less than 20 ms of CPU in 300 ms: work the setup
 * started in the background (the asset registration's certificate, rendered in a worker for about
 * a second of CPU) is not timed as part of the upload that follows.
 */
async function settle(pid: number): Promise<void> {
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    const before = cpuOf(pid);
    await new Promise((r) => setTimeout(r, 300));
    if (cpuOf(pid) - before < 0.02) return;
  }
}

/**
 * Writes every dirty page out before a timed transfer (sync(1)): the test file, the previous
 * transfer's file, the server's start-up writes. Without it a transfer could run beside the
 * write-back of the one before it, and which engine paid for that depended on the order.
 */
function quiesce(): void {
  execFileSync('sync');
}

/** The file system a folder is on (the longest mount point above it in /proc/mounts). */
function fileSystemOf(dir: string): { mount: string; type: string } {
  let found = { mount: '/', type: 'unknown' };
  for (const line of fs.readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const [, mount, type] = line.split(' ');
    if (!mount || !type) continue;
    if ((dir === mount || dir.startsWith(mount.endsWith('/') ? mount : `${mount}/`)) && mount.length >= found.mount.length) found = { mount, type };
  }
  return found;
}

/** Samples a process's RSS until stopped; returns the peak. */
function sampleRss(pid: number) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      /* exited */
    }
  }, 50);
  return { stop: () => (clearInterval(timer), peak) };
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** The test file: 1 MiB of random bytes with a per-MiB header, written once; its §3 identity. */
function writeFile(file: string): string {
  const body = randomBytes(MIB - 16);
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'w');
  try {
    for (let i = 0; i < SIZE_MIB; i++) {
      const header = Buffer.alloc(16);
      header.write('PVN-BENCH', 0);
      header.writeUInt32BE(i, 12);
      fs.writeSync(fd, header);
      fs.writeSync(fd, body);
      hash.update(header).update(body);
    }
  } finally {
    fs.closeSync(fd);
  }
  return `0x${hash.digest('hex')}.bin`;
}

/** A fetch that keeps the session cookie, like a browser. */
function client(base: string) {
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown): Promise<any> => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie();
    for (const c of set) {
      const [pair] = c.split(';');
      const [name] = pair!.split('=');
      cookie = [...cookie.split('; ').filter((x) => x && !x.startsWith(`${name}=`)), pair].join('; ');
    }
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : null;
  };
  return { call, cookie: () => cookie };
}

async function outboxCode(base: string, phone: string, type: number): Promise<string> {
  const rows = (await (await fetch(`${base}/api/dev/sms-outbox?phone=${phone}`)).json()).data as Array<{ code: string; type: number }>;
  const row = rows.find((r) => r.type === type);
  if (!row) throw new Error(`no code of type ${type}`);
  return row.code;
}

/** One HTTP request with a streamed body; resolves with the status and headers once the answer is read. */
function send(url: string, method: string, headers: Record<string, string | number>, body?: fs.ReadStream): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    if (body) body.on('error', reject).pipe(req);
    else req.end();
  });
}

/**
 * A tus upload as the browser's client makes it (creation, then PATCHes of 64 MiB), each PATCH
 * streamed from the file like a fetch of a Blob slice: the client costs about what the
 * baseline's PUT does (tus-js-client's Node stream source copied every slice into one buffer,
 * twice the client CPU on the machine both share).
 */
async function tusUpload(endpoint: string, file: string, options: { cookie: string; metadata: Record<string, string> }): Promise<void> {
  const size = fs.statSync(file).size;
  const metadata = Object.entries(options.metadata).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(',');
  const created = await send(endpoint, 'POST', { 'tus-resumable': '1.0.0', 'upload-length': size, 'upload-metadata': metadata, cookie: options.cookie, 'content-length': 0 });
  if (created.status !== 201 || !created.headers.location) throw new Error(`tus creation: ${created.status}`);
  const url = new URL(created.headers.location, endpoint).toString();
  const slice = 64 * MIB;
  for (let offset = 0; offset < size; offset += slice) {
    const end = Math.min(size, offset + slice);
    const body = fs.createReadStream(file, { start: offset, end: end - 1, highWaterMark: MIB });
    const patched = await send(url, 'PATCH', { 'tus-resumable': '1.0.0', 'upload-offset': offset, 'content-type': 'application/offset+octet-stream', 'content-length': end - offset, cookie: options.cookie }, body);
    if (patched.status !== 204 || Number(patched.headers['upload-offset']) !== end) throw new Error(`tus PATCH at ${offset}: ${patched.status}`);
  }
}

async function benchOurs(file: string, identity: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(BASE_DIR, 'provena-bench-upload-'));
  const child = spawn(process.execPath, ['server/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADDRESS_LIMIT_FACTOR: '50', APP_DIR: path.join(dataDir, 'no-app') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitFor(`${base}/api/health`, child);
    const idle = rssOf(child.pid!);
    // A sender with a verified enterprise and the file registered.
    const sender = client(base);
    const phone = `135${String(Date.now()).slice(-8)}`;
    await sender.call('GET', `/api/v1/validation/public-code?phonenumber=${phone}&type=1`);
    await sender.call('POST', '/api/v1/users/tokens', { phonenumber: phone, password: 'Passw0rdA', validation_code: await outboxCode(base, phone, 1), name: '基准' });
    const first17 = '11010519900101123';
    await sender.call('POST', '/api/v2/users/verified-token', { card_no: first17 + cardCheckChar(first17), name: '张三' });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(32)]);
    const uuid = `0x${createHash('sha256').update(png).digest('hex')}.png`;
    const info = await sender.call('POST', '/api/v1/files/upload-request', { uuid });
    const form = new FormData();
    form.append('uuid', uuid);
    form.append('file', new Blob([png]), 'licence.png');
    await sender.call('POST', info.url, form);
    await sender.call('GET', '/api/v1/validation/private-code?type=17');
    await sender.call('POST', '/api/v1/enterprises/legal-person', {
      name: '基准测试有限公司',
      license: '916100001234567890',
      legal_person: '张三',
      license_image_id: uuid,
      validation_code: await outboxCode(base, phone, 17),
    });
    // Registered as a digital asset of the sender's enterprise (the only registration path): credits
    // first, the real way: a top-up order an operator (created with the CLI) confirms, then allocated.
    const operatorLogin = `bench-ops-${Date.now()}`;
    execFileSync(process.execPath, ['bin/provena.ts', 'operator-create', '--login', operatorLogin, '--password', 'OperatorPass1'], { env: { ...process.env, DATA_DIR: dataDir } });
    const operator = client(base);
    // A new operator enrolls an authenticator at first login, then signs in with a code.
    const enroll = await operator.call('POST', '/api/v1/operator/tokens', { login_id: operatorLogin, password: 'OperatorPass1' });
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enroll.enroll.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await operator.call('POST', '/api/v1/operator/tokens', { login_id: operatorLogin, password: 'OperatorPass1', totp_code: totp.generate() });
    const order = await sender.call('POST', '/api/v1/credits/orders', { amount: 100_000, note: 'bench' });
    await operator.call('PUT', `/api/v1/operator/credit-orders/${order.order_id}`, { status: 2 });
    const members = await sender.call('GET', `/api/v1/credits/members?keyword=${phone}`);
    await sender.call('POST', '/api/v1/credits/allocations', { employee_id: members.items[0].employee_id, amount: 100_000 });
    await sender.call('POST', '/api/v1/assets', { name: 'bench.bin', type: 1, file_hash: identity, size: SIZE });

    // The registration's certificate is rendered once its block is sealed: wait for it, so that
    // rendering it (about a second of CPU in the render worker) is not timed as part of the upload.
    for (let i = 0; i < 600; i++) {
      const page = await sender.call('GET', '/api/v1/assets?proof_status=generated');
      if (page.total > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Upload with tus, as the browser does.
    quiesce();
    await settle(child.pid!);
    const rss = sampleRss(child.pid!);
    const cpu0 = cpuOf(child.pid!);
    const threads0 = threadCpuOf(child.pid!);
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    await tusUpload(`${base}/api/v1/storage/uploads`, file, { cookie: sender.cookie(), metadata: { identity, filename: 'bench.bin' } });
    const uploadMs = performance.now() - t0;
    const uploadCpu = cpuOf(child.pid!) - cpu0;
    const uploadThreads = threadCpuSince(child.pid!, threads0);
    const clientUsage = process.cpuUsage(client0);
    const uploadClientCpu = (clientUsage.user + clientUsage.system) / 1e6;
    const uploadPeak = rss.stop();

    // Download through the disclosure link: sender code, receiver code, accept, link.
    await sender.call('GET', '/api/v2/disclosures/validation-code');
    const receiverPhone = `158${String(Date.now()).slice(-8)}`;
    const record = await sender.call('POST', '/api/v2/disclosures', {
      hash: identity,
      name: 'bench',
      received_phone: receiverPhone,
      store_name: 'bench',
      type: 6,
      store_forever: true,
      validation_code: await outboxCode(base, phone, 19),
    });
    const receiver = client(base);
    await receiver.call('POST', `/api/v2/disclosures/records/${record.disclosure_id}/validation-code`);
    await receiver.call('PUT', '/api/v2/disclosures/check-identify', { disclosure_id: record.disclosure_id, validation_code: await outboxCode(base, receiverPhone, 8) });
    await receiver.call('PUT', `/api/v2/disclosures/receive/${record.disclosure_id}`);
    const { file_link: link } = await receiver.call('GET', `/api/v2/disclosures/records/${record.disclosure_id}/file-link`);
    quiesce();
    const rssDown = sampleRss(child.pid!);
    const cpu1 = cpuOf(child.pid!);
    const threads1 = threadCpuOf(child.pid!);
    const t1 = performance.now();
    const { bytes, sha256 } = await download(`${base}${link}`, receiver.cookie());
    const downloadMs = performance.now() - t1;
    const downloadCpu = cpuOf(child.pid!) - cpu1;
    const downloadThreads = threadCpuSince(child.pid!, threads1);
    const downloadPeak = rssDown.stop();
    if (bytes !== SIZE || `0x${sha256}.bin` !== identity) throw new Error('downloaded bytes differ from the upload');
    return { uploadMs, downloadMs, uploadCpu, downloadCpu, uploadThreads, downloadThreads, uploadClientCpu, idleRss: idle, uploadPeakRss: uploadPeak, downloadPeakRss: downloadPeak };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Streams a GET to nowhere, hashing it in the bench process (the check, not part of the server's cost). */
async function download(url: string, cookie = ''): Promise<{ bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: cookie ? { cookie } : {} }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
        const hash = createHash('sha256');
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          hash.update(c);
        });
        res.on('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The baseline server: PUT → file, GET ← file, nothing else. Runs as a child (this file with --baseline-server). */
async function runBaselineServer(dir: string, port: number) {
  const target = path.join(dir, 'object');
  http
    .createServer((req, res) => {
      if (req.method === 'PUT') {
        pipeline(req, fs.createWriteStream(target)).then(
          () => res.end('ok'),
          () => res.destroy(),
        );
      } else if (req.method === 'GET' && req.url === '/object') {
        res.writeHead(200, { 'content-length': fs.statSync(target).size });
        fs.createReadStream(target, { highWaterMark: MIB }).pipe(res);
      } else res.end('up');
    })
    .listen(port, '127.0.0.1');
}

async function benchBaseline(file: string) {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(BASE_DIR, 'provena-bench-baseline-'));
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--baseline-server', dir, String(port)], { stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    await waitFor(`http://127.0.0.1:${port}/`, child);
    quiesce();
    const idle = rssOf(child.pid!);
    const rss = sampleRss(child.pid!);
    const cpu0 = cpuOf(child.pid!);
    const threads0 = threadCpuOf(child.pid!);
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = http.request(`http://127.0.0.1:${port}/object`, { method: 'PUT', headers: { 'content-length': SIZE } }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      fs.createReadStream(file, { highWaterMark: MIB }).pipe(req);
    });
    const uploadMs = performance.now() - t0;
    const uploadCpu = cpuOf(child.pid!) - cpu0;
    const uploadThreads = threadCpuSince(child.pid!, threads0);
    const clientUsage = process.cpuUsage(client0);
    const uploadClientCpu = (clientUsage.user + clientUsage.system) / 1e6;
    const uploadPeak = rss.stop();
    quiesce();
    const rssDown = sampleRss(child.pid!);
    const cpu1 = cpuOf(child.pid!);
    const threads1 = threadCpuOf(child.pid!);
    const t1 = performance.now();
    const { bytes } = await download(`http://127.0.0.1:${port}/object`);
    const downloadMs = performance.now() - t1;
    const downloadCpu = cpuOf(child.pid!) - cpu1;
    const downloadThreads = threadCpuSince(child.pid!, threads1);
    const downloadPeak = rssDown.stop();
    if (bytes !== SIZE) throw new Error('baseline size differs');
    return { uploadMs, downloadMs, uploadCpu, downloadCpu, uploadThreads, downloadThreads, uploadClientCpu, idleRss: idle, uploadPeakRss: uploadPeak, downloadPeakRss: downloadPeak };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (args[0] === '--baseline-server') {
  await runBaselineServer(args[1]!, Number(args[2]));
} else {
  const dir = fs.mkdtempSync(path.join(BASE_DIR, 'provena-bench-file-'));
  const file = path.join(dir, 'bench.bin');
  try {
    console.log(`writing ${SIZE_MIB} MiB test file…`);
    const identity = writeFile(file);
    const mbps = (ms: number) => Number((SIZE / 1e6 / (ms / 1000)).toFixed(1));
    const mib = (b: number) => Number((b / MIB).toFixed(1));
    /** Server CPU seconds per GB moved. */
    const perGb = (cpuS: number) => Number((cpuS / (SIZE / 1e9)).toFixed(2));
    const rows: Array<Record<string, unknown>> = [];
    const best = { ours: null as null | Awaited<ReturnType<typeof benchOurs>>, baseline: null as null | Awaited<ReturnType<typeof benchBaseline>> };
    for (let r = 0; r < REPEATS; r++) {
      // Alternate the order so that neither always meets a warm page cache first.
      const order = r % 2 === 0 ? (['baseline', 'ours'] as const) : (['ours', 'baseline'] as const);
      for (const which of order) {
        const m = which === 'ours' ? await benchOurs(file, identity) : await benchBaseline(file);
        rows.push({ engine: which, repeat: r + 1, upload_mb_s: mbps(m.uploadMs), download_mb_s: mbps(m.downloadMs), upload_cpu_s_per_gb: perGb(m.uploadCpu), upload_client_cpu_s_per_gb: perGb(m.uploadClientCpu), upload_cpu_s_per_gb_by_thread: Object.fromEntries(Object.entries(m.uploadThreads).map(([name, s]) => [name, perGb(s)])), download_cpu_s_per_gb: perGb(m.downloadCpu), download_cpu_s_per_gb_by_thread: Object.fromEntries(Object.entries(m.downloadThreads).map(([name, s]) => [name, perGb(s)])), idle_rss_mib: mib(m.idleRss), upload_peak_rss_mib: mib(m.uploadPeakRss), download_peak_rss_mib: mib(m.downloadPeakRss) });
        const prev = best[which];
        if (!prev || m.uploadMs < prev.uploadMs) best[which] = { ...m, downloadMs: Math.min(m.downloadMs, prev?.downloadMs ?? Infinity) } as never;
        else best[which] = { ...prev, downloadMs: Math.min(m.downloadMs, prev.downloadMs), uploadPeakRss: Math.max(prev.uploadPeakRss, m.uploadPeakRss) } as never;
      }
    }
    console.table(rows);
    const ours = best.ours!;
    const growth = ours.uploadPeakRss - ours.idleRss;
    const result = {
      when: new Date().toISOString(),
      mode: isQuick ? 'quick' : 'full',
      size_mib: SIZE_MIB,
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
      dir: { path: BASE_DIR, ...fileSystemOf(BASE_DIR) },
      runs: rows,
      // Ours over the baseline within each repeat (the two ran back to back): steadier than best
      // against best when the disk's speed drifts over a run.
      paired_ratio: Object.fromEntries(
        (['upload_mb_s', 'download_mb_s'] as const).map((field) => [
          field.replace('_mb_s', ''),
          Array.from({ length: REPEATS }, (_, r) => {
            const mine = rows.find((row) => row.engine === 'ours' && row.repeat === r + 1)!;
            const theirs = rows.find((row) => row.engine === 'baseline' && row.repeat === r + 1)!;
            return Number(((mine[field] as number) / (theirs[field] as number)).toFixed(2));
          }),
        ]),
      ),
      best: {
        ours: { upload_mb_s: mbps(ours.uploadMs), download_mb_s: mbps(ours.downloadMs), idle_rss_mib: mib(ours.idleRss), upload_peak_rss_mib: mib(ours.uploadPeakRss), rss_growth_mib: mib(growth) },
        baseline: { upload_mb_s: mbps(best.baseline!.uploadMs), download_mb_s: mbps(best.baseline!.downloadMs), upload_peak_rss_mib: mib(best.baseline!.uploadPeakRss) },
      },
      // The least server CPU per GB over the repeats (steadier than wall time on a busy machine).
      cpu_s_per_gb: Object.fromEntries(
        (['ours', 'baseline'] as const).map((engine) => {
          const mine = rows.filter((row) => row.engine === engine);
          return [engine, { upload: Math.min(...mine.map((row) => row.upload_cpu_s_per_gb as number)), download: Math.min(...mine.map((row) => row.download_cpu_s_per_gb as number)) }];
        }),
      ),
    };
    console.log(JSON.stringify({ dir: result.dir, best: result.best, paired_ratio: result.paired_ratio, cpu_s_per_gb: result.cpu_s_per_gb }, null, 2));
    fs.mkdirSync('bench/results', { recursive: true });
    const out = `bench/results/upload-${result.mode}-${result.when.replace(/[:.]/g, '-')}.json`;
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`wrote ${out}`);
    // Bounded memory: the server must not grow with the file (a whole-file buffer would add SIZE).
    const limit = 256 * MIB;
    if (growth > limit) {
      console.error(`FAIL: server RSS grew by ${mib(growth)} MiB during a ${SIZE_MIB} MiB upload (limit ${mib(limit)} MiB)`);
      process.exitCode = 1;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
