/**
 * `provena agent --app <id> --watch <dir> [--once]`: registers every new or
 * changed file of a folder through the open API, by its identity only (the bytes never
 * leave the machine), hashed streaming by node:crypto (the CPU's SHA instructions where present;
 * `npm run bench` compares it with sha256sum on the same file).
 *
 * Nothing is lost in an outage: a file is first hashed into a local queue (an append-only
 * JSON-lines file, fsynced), and the queue is sent in order, oldest first, in batches with
 * an Idempotency-Key, so a batch retried after a timeout answers its first result. A batch
 * leaves the queue only once the server answered it. Heartbeats keep the application
 * "normal" while nothing changes. `--once` scans, sends and exits (for cron): exit 0 when
 * the queue is empty, 1 when something is left for the next run.
 *
 * Credentials: PROVENA_URL, PROVENA_APP_KEY_ID, and PROVENA_APP_SECRET or
 * PROVENA_APP_SECRET_FILE (a file only its owner may read, 0600).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileIdentity } from '../../core/file-identity.ts';
import { FILE_BATCH_MAX, signedHeaders } from '../../core/applications.ts';
import { sha256File } from './sha256-file.ts';

const USAGE = `usage: provena agent --app <id> --watch <dir> [--once] [--state <dir>] [--scan-seconds <n>] [--heartbeat-seconds <n>] [--batch <n>]
environment: PROVENA_URL, PROVENA_APP_KEY_ID, PROVENA_APP_SECRET or PROVENA_APP_SECRET_FILE (mode 0600)
`;

type Options = { app: number; watch: string; once: boolean; state: string; scanMs: number; heartbeatMs: number; batch: number; settleMs: number };
type Credentials = { url: string; keyId: string; secret: string };
type Seen = Record<string, { size: number; mtimeMs: number; file_hash: string }>;
type QueueItem = { path: string; file_hash: string; name: string; size: number; mtime: number };

function parseArgs(args: string[]): Options | string {
  const opts: Partial<Options> = { once: false, scanMs: 2000, heartbeatMs: 30_000, batch: 100, settleMs: 1000 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const positive = (v: string, max: number) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`${a} must be a number from 0 to ${max}`);
      return n;
    };
    try {
      if (a === '--app') opts.app = positive(value(), 2 ** 31);
      else if (a === '--watch') opts.watch = path.resolve(value());
      else if (a === '--once') opts.once = true;
      else if (a === '--state') opts.state = path.resolve(value());
      else if (a === '--scan-seconds') opts.scanMs = positive(value(), 3600) * 1000;
      else if (a === '--heartbeat-seconds') opts.heartbeatMs = positive(value(), 86_400) * 1000;
      else if (a === '--settle-seconds') opts.settleMs = positive(value(), 3600) * 1000;
      else if (a === '--batch') opts.batch = Math.min(FILE_BATCH_MAX, Math.floor(positive(value(), FILE_BATCH_MAX)));
      else return `unknown option ${a}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
  if (!opts.app || !Number.isInteger(opts.app)) return '--app <application id> is required';
  if (!opts.watch) return '--watch <dir> is required';
  opts.state ??= path.join(process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'provena', `agent-${opts.app}`);
  return opts as Options;
}

function readCredentials(): Credentials | string {
  const url = process.env.PROVENA_URL?.replace(/\/+$/, '');
  const keyId = process.env.PROVENA_APP_KEY_ID?.trim();
  let secret = process.env.PROVENA_APP_SECRET?.trim();
  const file = process.env.PROVENA_APP_SECRET_FILE;
  if (!secret && file) {
    try {
      const stat = fs.statSync(file);
      if ((stat.mode & 0o077) !== 0) return `${file} is readable by others (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 it`;
      secret = fs.readFileSync(file, 'utf8').trim();
    } catch (error) {
      return `cannot read ${file}: ${(error as Error).message}`;
    }
  }
  if (!url || !/^https?:\/\//.test(url)) return 'PROVENA_URL must be the platform URL (http:// or https://)';
  if (!keyId) return 'PROVENA_APP_KEY_ID is required';
  if (!secret) return 'PROVENA_APP_SECRET or PROVENA_APP_SECRET_FILE is required';
  return { url, keyId, secret };
}

class RetryLater extends Error {}


/** The local state: what was seen (path → size, mtime, identity) and the queue of registrations not yet answered. */
class AgentState {
  readonly dir: string;
  seen: Seen = {};
  queue: QueueItem[] = [];
  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      this.seen = JSON.parse(fs.readFileSync(this.file('seen.json'), 'utf8')) as Seen;
    } catch {
      this.seen = {};
    }
    try {
      this.queue = fs
        .readFileSync(this.file('queue.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as QueueItem];
          } catch {
            return []; // a line torn by a crash mid-append: its file is seen again at the next scan
          }
        });
    } catch {
      this.queue = [];
    }
  }
  file(name: string) {
    return path.join(this.dir, name);
  }
  private writeAtomic(name: string, text: string) {
    const tmp = this.file(`${name}.tmp`);
    const fd = fs.openSync(tmp, 'w', 0o600);
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.file(name));
  }
  enqueue(item: QueueItem, seen: Seen[string]) {
    // Queue first (fsynced), then seen: a crash between the two hashes the file again rather than losing it.
    const fd = fs.openSync(this.file('queue.jsonl'), 'a', 0o600);
    fs.writeSync(fd, `${JSON.stringify(item)}\n`);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    this.queue.push(item);
    this.seen[item.path] = seen;
  }
  saveSeen() {
    this.writeAtomic('seen.json', JSON.stringify(this.seen));
  }
  dropFirst(n: number) {
    this.queue = this.queue.slice(n);
    this.writeAtomic('queue.jsonl', this.queue.map((q) => `${JSON.stringify(q)}\n`).join(''));
  }
}

function* walk(dir: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith('.')) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.isFile()) yield full;
  }
}

export class Agent {
  private readonly opts: Options;
  private readonly creds: Credentials;
  readonly state: AgentState;
  private lastContact = 0;
  private readonly log: (line: string) => void;

  constructor(opts: Options, creds: Credentials, log: (line: string) => void = (l) => process.stderr.write(`${new Date().toISOString()} ${l}\n`)) {
    this.opts = opts;
    this.creds = creds;
    this.state = new AgentState(opts.state);
    this.log = log;
  }

  /** New or changed files, oldest change first, hashed into the queue. A file still being written (changed within the settle time) waits for the next scan. */
  async scan(now = Date.now()): Promise<number> {
    const changed: Array<{ file: string; size: number; mtimeMs: number }> = [];
    for (const file of walk(this.opts.watch)) {
      let stat: fs.Stats;
      try {
        stat = fs.statSync(file);
      } catch {
        continue;
      }
      const rel = path.relative(this.opts.watch, file);
      const seen = this.state.seen[rel];
      if (seen && seen.size === stat.size && seen.mtimeMs === stat.mtimeMs) continue;
      if (!this.opts.once && now - stat.mtimeMs < this.opts.settleMs) continue;
      changed.push({ file, size: stat.size, mtimeMs: stat.mtimeMs });
    }
    changed.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.file < b.file ? -1 : 1));
    for (const c of changed) {
      let hex: string;
      try {
        hex = await sha256File(c.file);
      } catch (error) {
        this.log(`cannot read ${c.file}: ${(error as Error).message}`);
        continue;
      }
      const rel = path.relative(this.opts.watch, c.file);
      const file_hash = fileIdentity(hex, c.file);
      if (this.state.seen[rel]?.file_hash === file_hash) {
        this.state.seen[rel] = { size: c.size, mtimeMs: c.mtimeMs, file_hash };
        continue;
      }
      this.state.enqueue({ path: rel, file_hash, name: path.basename(c.file), size: c.size, mtime: Math.floor(c.mtimeMs) }, { size: c.size, mtimeMs: c.mtimeMs, file_hash });
    }
    if (changed.length) this.state.saveSeen();
    return changed.length;
  }

  private async call(method: string, apiPath: string, body: unknown, extra: Record<string, string> = {}): Promise<{ status: number; json: any }> {
    const raw = body === undefined ? '' : JSON.stringify(body);
    const url = new URL(this.creds.url + apiPath);
    const headers = signedHeaders(this.creds.keyId, this.creds.secret, { method, path: url.pathname + url.search, body: raw });
    let res: Response;
    try {
      res = await fetch(url, { method, body: raw || undefined, headers: { ...headers, ...(raw ? { 'content-type': 'application/json' } : {}), ...extra }, signal: AbortSignal.timeout(60_000) });
    } catch (error) {
      throw new RetryLater(`platform unreachable: ${(error as Error).message}`);
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    if (res.status >= 500 || res.status === 429) throw new RetryLater(`platform answered ${res.status}`);
    if (res.status === 401) throw new RetryLater(`signature refused (${json?.field_name ?? 'unknown'}): check PROVENA_APP_KEY_ID and the secret, and this machine's clock`);
    this.lastContact = Date.now();
    return { status: res.status, json };
  }

  /** Sends the queue in order. Resolves true when it is empty; false when the platform is out of reach or refused for now (kept for later). */
  async drain(): Promise<boolean> {
    while (this.state.queue.length) {
      const batch = this.state.queue.slice(0, this.opts.batch);
      const items = batch.map((q) => ({ file_hash: q.file_hash, name: q.name, size: q.size, metadata: { path: q.path, mtime: q.mtime } }));
      const key = `agent-${createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 40)}`;
      let res;
      try {
        res = await this.call('POST', '/open-api/v1/files/batch', { items }, { 'idempotency-key': key });
      } catch (error) {
        if (error instanceof RetryLater) {
          this.log(`${error.message}; ${this.state.queue.length} file(s) wait in the queue`);
          return false;
        }
        throw error;
      }
      if (res.status !== 200) {
        this.log(`batch refused: ${res.json?.message ?? res.status}`);
        return false;
      }
      const results = res.json.data.results as Array<{ index: number; ok: boolean; message?: string; field_name?: string; file?: { dip_id: string; duplicate?: boolean } }>;
      // Refusals that a person can lift (credits, membership) stop the queue here, in order; a file the platform can never take is logged and dropped.
      const blocking = results.find((r) => !r.ok && (r.message === 'integrals_not_enough' || r.message === 'forbidden' || r.message === 'server error'));
      const upTo = blocking ? blocking.index : batch.length;
      for (const r of results.slice(0, upTo)) {
        const item = batch[r.index]!;
        if (r.ok) this.log(`registered ${item.path} ${item.file_hash} → ${r.file?.dip_id}${r.file?.duplicate ? ' (already registered)' : ''}`);
        else this.log(`refused ${item.path}: ${r.message}${r.field_name ? ` (${r.field_name})` : ''}`);
      }
      this.state.dropFirst(upTo);
      if (blocking) {
        this.log(`stopped at ${batch[upTo]!.path}: ${blocking.message}; it and the files after it wait in the queue`);
        return false;
      }
    }
    return true;
  }

  async heartbeat(force = false): Promise<boolean> {
    if (!force && Date.now() - this.lastContact < this.opts.heartbeatMs) return true;
    try {
      const res = await this.call('POST', '/open-api/v1/heartbeat', {});
      if (res.status === 200 && res.json?.data?.application_id !== this.opts.app) {
        this.log(`these credentials belong to application ${res.json?.data?.application_id}, not ${this.opts.app}`);
        return false;
      }
      return res.status === 200;
    } catch (error) {
      if (error instanceof RetryLater) {
        this.log(error.message);
        return false;
      }
      throw error;
    }
  }

  async runOnce(): Promise<number> {
    await this.scan();
    const isDrained = await this.drain();
    const isAlive = await this.heartbeat(true);
    return isDrained && isAlive ? 0 : 1;
  }

  async watch(signal: AbortSignal): Promise<number> {
    let backoff = this.opts.scanMs;
    if (!(await this.heartbeat(true))) this.log('the platform is not reachable yet; files are queued until it is');
    while (!signal.aborted) {
      await this.scan();
      const isDrained = await this.drain();
      await this.heartbeat();
      backoff = isDrained ? this.opts.scanMs : Math.min(backoff * 2, 60_000);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, backoff);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
    return 0;
  }
}

export const agentCommand = {
  summary: 'register new or changed files of a folder for an external application',
  usage: 'agent --app <id> --watch <dir> [--once]',
  async run(args: string[]): Promise<number> {
    const opts = parseArgs(args);
    if (typeof opts === 'string') {
      process.stderr.write(`provena agent: ${opts}\n${USAGE}`);
      return 2;
    }
    const creds = readCredentials();
    if (typeof creds === 'string') {
      process.stderr.write(`provena agent: ${creds}\n${USAGE}`);
      return 2;
    }
    if (!fs.existsSync(opts.watch) || !fs.statSync(opts.watch).isDirectory()) {
      process.stderr.write(`provena agent: ${opts.watch} is not a folder\n`);
      return 2;
    }
    const agent = new Agent(opts, creds);
    if (opts.once) return agent.runOnce();
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    return agent.watch(stop.signal);
  },
};
