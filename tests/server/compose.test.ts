/**
 * The reference deployment (compose.yaml, Dockerfile, deploy/), run without Docker: this machine
 * has no container runtime, so the test reads the three files as Compose and the image would
 * and starts the same processes with the same environment (interpolated from
 * deploy/example.env as `docker compose` does), on PostgreSQL and an S3 server on loopback.
 * Only what a container changes is replaced: host names (postgres, minio) by loopback
 * addresses, /app by this checkout, and each process's ports by free ones.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import pg from 'pg';
import { startS3 } from './storage-helpers.ts';

vi.setConfig({ testTimeout: 240_000 });

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

type Service = { image?: string; build?: unknown; command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown>; healthcheck?: { test: string[] }; volumes?: string[] };
const compose = YAML.parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };

/** deploy/example.env as KEY=VALUE pairs (comments and blank lines skipped). */
const exampleEnv = Object.fromEntries(
  read('deploy/example.env')
    .split('\n')
    .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
) as Record<string, string>;

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}, and $$ for a literal $. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === '$$') return '$';
    const v = env[name!];
    if (op === '-') return v ? v : (arg ?? '');
    if (op === '?' && !v) throw new Error(`compose would refuse to start: ${arg}`);
    return v ?? '';
  });
}

/** The image's ENV and ENTRYPOINT, as the Dockerfile sets them. */
const dockerfile = read('Dockerfile');
const imageEnv = Object.fromEntries([...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/).map((pair) => pair.split('=') as [string, string])));
const entrypoint = JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)![1]!) as string[];
const workdir = /^WORKDIR (.+)$/m.exec(dockerfile)![1]!.trim();

const provenaServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
const apiServices = provenaServices.filter(([, s]) => s.command?.[0] === 'serve').map(([name]) => name);
const workerServices = provenaServices.filter(([, s]) => s.command?.[0] === 'work').map(([name]) => name);

describe('the reference deployment files agree with each other', () => {
  it('every variable compose requires is in deploy/example.env; every service runs a command the image has', () => {
    const required = [...read('compose.yaml').matchAll(/\$\{([A-Z_][A-Z0-9_]*):\?/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    for (const name of new Set(required)) expect(Object.keys(exampleEnv), `${name} missing from deploy/example.env`).toContain(name);
    expect(entrypoint).toEqual(['node', 'bin/provena.ts']);
    expect(apiServices.length).toBeGreaterThanOrEqual(2);
    expect(workerServices.length).toBeGreaterThanOrEqual(1);
    // The entry (bin/provena.ts) loads the command table from bin/provena-main.ts.
    const commands = read('bin/provena-main.ts');
    for (const [, s] of provenaServices) expect(commands).toContain(`'${s.command![0]}'`);
  });

  it("nginx balances over exactly compose's API services on the image's port, and starts after them", () => {
    const upstreams = [...read('deploy/nginx.conf').matchAll(/^\s*server ([\w-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams.sort()).toEqual(apiServices.map((name) => `${name}:${imageEnv.PORT}`).sort());
    expect(Object.keys(compose.services.proxy?.depends_on ?? {}).sort()).toEqual([...apiServices].sort());
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('the reference deployment, started as compose would start it', () => {
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });

  it('two API replicas and two workers start on an empty database at the same moment, become ready, share one set of platform keys, and one worker leads', async () => {
    const schema = `compose_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    cleanups.push(async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    });
    const databaseUrl = new URL(pgUrl!);
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    const s3 = await startS3('provena');
    cleanups.push(() => s3.close());
    // The SMS provider the example configures (webhook): a receiver that accepts every message.
    const sms = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
    await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => sms.close(() => resolve())));
    // deploy/example.env filled in as its comments say (openssl rand -hex 32 for each key).
    const dotEnv: Record<string, string> = {
      ...exampleEnv,
      POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
      MINIO_ROOT_PASSWORD: randomBytes(16).toString('hex'),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      STORAGE_KEY: randomBytes(32).toString('hex'),
      ROOT_KEY_PASSPHRASE: randomBytes(16).toString('hex'),
      SMS_WEBHOOK_URL: `http://127.0.0.1:${(sms.address() as net.AddressInfo).port}/sms`,
      SMS_WEBHOOK_SECRET: randomBytes(16).toString('hex'),
    };
    // One named volume (provena-data) is mounted into every Provena container.
    const volume = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-compose-'));
    cleanups.push(() => fs.rmSync(volume, { recursive: true, force: true }));
    const started: Array<{ name: string; child: ChildProcess; out: () => string; opsPort: number; port: number }> = [];
    for (const [name, service] of provenaServices) {
      const env: Record<string, string> = { ...imageEnv };
      for (const [key, value] of Object.entries(service.environment ?? {})) env[key] = interpolate(String(value), dotEnv);
      // What a container changes, and nothing else.
      expect(env.DATABASE_URL).toMatch(/@postgres:5432\/provena$/);
      env.DATABASE_URL = databaseUrl.toString();
      expect(env.S3_ENDPOINT).toBe('http://minio:9000');
      env.S3_ENDPOINT = s3.endpoint;
      env.S3_ACCESS_KEY_ID = 'S3RVER';
      env.S3_SECRET_ACCESS_KEY = 'S3RVER';
      expect(env.DATA_DIR).toBe('/var/lib/provena');
      env.DATA_DIR = volume;
      env.APP_DIR = env.APP_DIR!.replace(workdir, root);
      const port = await freePort();
      const opsPort = await freePort();
      env.PORT = String(port);
      env.OPS_PORT = String(opsPort);
      env.HOST = '127.0.0.1';
      env.OPS_HOST = '127.0.0.1';
      const child = spawn(process.execPath, [...entrypoint.slice(1), ...service.command!], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c));
      child.stderr!.on('data', (c: Buffer) => (out += c));
      started.push({ name, child, out: () => out, opsPort, port });
    }
    // Compose's healthcheck: GET /readyz on the ops port answers 2xx.
    for (const s of started) {
      const probe = compose.services[s.name]!.healthcheck!.test.join(' ');
      expect(probe).toContain('http://127.0.0.1:9090/readyz');
      await vi.waitFor(
        async () => {
          if (s.child.exitCode !== null) throw new Error(`${s.name} exited ${s.child.exitCode}: ${s.out().slice(-3000)}`);
          const res = await fetch(`http://127.0.0.1:${s.opsPort}/readyz`).catch(() => null);
          expect(res?.ok, `${s.name} not ready: ${s.out().slice(-1500)}`).toBe(true);
        },
        { timeout: 180_000, interval: 250 },
      );
    }
    // The API replicas answer as one platform: the same roots from both.
    const apis = started.filter((s) => apiServices.includes(s.name));
    const roots = await Promise.all(apis.map(async (s) => (await fetch(`http://127.0.0.1:${s.port}/api/v1/ledger/platform-roots`)).text()));
    expect(roots[0]).toContain('fingerprint');
    expect(new Set(roots).size).toBe(1);
    // Exactly one worker holds the leader lock (the sealer, anchoring and schedules).
    const workers = started.filter((s) => workerServices.includes(s.name));
    await vi.waitFor(() => expect(workers.filter((w) => w.out().includes('this process is the leader'))).toHaveLength(1), { timeout: 60_000, interval: 250 });
    for (const s of apis) expect(s.out()).not.toContain('this process is the leader');
    // Every file the processes made in the shared volume is private to the service user.
    for (const file of fs.readdirSync(volume)) expect(fs.statSync(path.join(volume, file)).mode & 0o077, file).toBe(0);
  });
});
