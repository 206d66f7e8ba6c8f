import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { creditsForAssets } from './credit-helpers.ts';
import { readEnv } from '../../server/env.ts';
import { buildServer } from '../../server/build-app.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';
import { freePort, pgQuery, schemaUrl } from '../../scripts/local-servers.ts';

/**
 * The multi-process shape on a real PostgreSQL (TEST_DATABASE_URL): API replicas
 * (`provena serve`) and workers (`provena work`) as real processes on one database, the leader
 * worker killed with SIGKILL, the standby taking over; and two sealers racing on one chain.
 * Without PostgreSQL there is no second process to share a database with: skipped.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-roles-'));
const children: ChildProcess[] = [];
const schema = `r_${randomBytes(6).toString('hex')}`;
let databaseUrl = '';

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (pgUrl) {
    await pgQuery(pgUrl, `drop schema if exists ${schema} cascade`);
    await pgQuery(pgUrl, `drop schema if exists ${schema}_jobs cascade`);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    APP_DIR: path.join(dataDir, 'no-app'),
    LOG_LEVEL: 'info',
    SCORE_RECOMPUTE_MINUTES: '0',
    LEDGER_BLOCK_INTERVAL_MS: '300',
    ...extra,
  };
}

type Proc = { child: ChildProcess; output: () => string; name: string };

function start(name: string, command: 'serve' | 'work', extra: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, ['bin/provena.ts', command], { cwd: root, env: childEnv(extra), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  return { child, name, output: () => out };
}

/** A probe error that ends the wait (a process exited). */
class Fatal extends Error {}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      if (error instanceof Fatal) throw error;
      return undefined;
    });
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> => pgQuery<R>(databaseUrl, text, values);

const isLeaderLine = (p: Proc) => p.output().includes('this process is the leader');

async function registerOver(port: number, cookie: string, n: number): Promise<string> {
  const fileHash = `0x${randomBytes(32).toString('hex')}.dat`;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/assets`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `file-${n}`, type: 1, file_hash: fileHash, size: 1 }),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`registration over :${port} failed (${res.status}): ${body}`);
  return (JSON.parse(body) as { data: { dip_id: string } }).data.dip_id;
}

/** No height twice, heights 1…n without a gap, each block's parent the block before it, every entry in one block. */
async function expectOneChain(): Promise<number> {
  const blocks = await query<{ height: number; hash: string; prev_hash: string; tree_size: string; entry_count: number }>('select height, hash, prev_hash, tree_size, entry_count from ledger_blocks order by height');
  expect(new Set(blocks.map((b) => b.height)).size).toBe(blocks.length);
  let size = 0;
  blocks.forEach((b, i) => {
    expect(b.height).toBe(i + 1);
    if (i > 0) expect(b.prev_hash).toBe(blocks[i - 1]!.hash);
    size += b.entry_count;
    expect(Number(b.tree_size)).toBe(size);
  });
  const [entries] = await query<{ n: string; sealed: string; distinct_leaves: string }>('select count(*) as n, count(leaf_index) as sealed, count(distinct leaf_index) as distinct_leaves from ledger_entries');
  expect(Number(entries!.sealed)).toBe(size);
  expect(Number(entries!.distinct_leaves)).toBe(size);
  return blocks.length;
}

describe.skipIf(!pgUrl)('roles on PostgreSQL (provena serve + provena work)', () => {
  let owner: { cookie: string; phone: string };

  it('sets up a schema, an enterprise with credits, and two sealers racing on one chain leave one block per height', { timeout: 120_000 }, async () => {
    await pgQuery(pgUrl!, `create schema ${schema}`);
    databaseUrl = schemaUrl(pgUrl!, schema);

    const h: Harness = await startHarness({}, { databaseUrl, dataDir, appDir: path.join(dataDir, 'no-app'), storage: { kind: 'local', dir: path.join(dataDir, 'blobs', 'objects') } });
    const o = await ownerWithEnterprise(h, '多进程部署有限公司');
    owner = o;
    await creditsForAssets(h, o, o, 200);

    // A second process's view of the same database: a sealer that did not win the lock
    // (or a deposed one that has not noticed yet) still calls sealNow directly.
    const other = await buildServer({ ...readEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_DIR: path.join(dataDir, 'no-app') }), databaseUrl }, { config: DEFAULT_CONFIG, logger: false });
    try {
    await other.ready();
    expect(h.app.leadership.isLeader).toBe(true);
    expect(other.leadership.isLeader).toBe(false);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) {
        const res = await (i % 2 ? other : h.app).inject({ method: 'POST', url: '/api/v1/assets', headers: { cookie: o.cookie }, payload: { name: `race-${round}-${i}`, type: 1, file_hash: `0x${randomBytes(32).toString('hex')}.dat`, size: 1 } });
        expect(res.statusCode, res.body).toBe(200);
      }
      await Promise.all([h.app.ledger.sealNow(), other.ledger.sealNow(), h.app.ledger.sealNow(), other.ledger.sealNow()]);
    }
    expect(await expectOneChain()).toBeGreaterThanOrEqual(5);
    // A deposed leader's insert with a stale parent is refused by the database itself (migration 0030).
    const head = (await query<{ height: number; hash: string; prev_hash: string }>('select height, hash, prev_hash from ledger_blocks order by height desc limit 1'))[0]!;
    await expect(query(`insert into ledger_blocks (height, hash, prev_hash, tree_size, root, sealed_at, key_id, header, signature, entry_count) values ($1, 'forged', $2, 0, 'r', 0, 'k', 'h', 's', 0)`, [head.height + 1, head.prev_hash])).rejects.toThrow(/duplicate key|unique/);
    } finally {
      // Closed whatever happened: an open 'all' process would keep the leader lock from the workers below.
      await other.close();
      await h.close();
    }
  });

  it('2 API replicas + 2 workers: registrations through both APIs, the leader worker SIGKILLed, the standby takes over within 10 s, no height twice, ledger-verify passes', { timeout: 900_000 }, async () => {
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port, i) => start(`serve-${i}`, 'serve', { PORT: String(port) }));
    const workers = [start('work-0', 'work'), start('work-1', 'work')];
    for (const [i, api] of apis.entries()) {
      await until(`API ${api.name}`, async () => {
        if (api.child.exitCode !== null) throw new Fatal(`${api.name} exited: ${api.output()}`);
        return (await fetch(`http://127.0.0.1:${ports[i]}/config.json`)).ok;
      }, 240_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${api.output().slice(-3000)}`);
      });
    }
    const leader = await until('a leader', async () => workers.find(isLeaderLine), 240_000);
    const standby = workers.find((w) => w !== leader)!;
    // Exactly one leader; no API replica ever leads or seals.
    await sleep(1500);
    expect(isLeaderLine(standby), standby.output()).toBe(false);
    for (const api of apis) expect(isLeaderLine(api)).toBe(false);

    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) acknowledged.push(await registerOver(ports[i % 2]!, owner.cookie, i));
    await until('the first registrations sealed', async () => {
      const [r] = await query<{ n: string }>('select count(*) as n from ledger_entries where leaf_index is null');
      return Number(r!.n) === 0;
    }, 180_000);

    // Registrations keep coming while the leader dies.
    const during = (async () => {
      for (let i = 20; i < 40; i++) acknowledged.push(await registerOver(ports[i % 2]!, owner.cookie, i));
    })();
    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    await until('the standby to lead', async () => isLeaderLine(standby), 15_000);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(10_000);
    await during;
    await until('every registration sealed by the new leader', async () => {
      const [r] = await query<{ n: string }>('select count(*) as n from ledger_entries where leaf_index is null');
      return Number(r!.n) === 0;
    }, 180_000);
    // Every acknowledged registration is in the ledger, in a block.
    const sealed = await query<{ dna: string }>('select dna from ledger_entries where leaf_index is not null and dna = any($1)', [acknowledged]);
    expect(sealed.length).toBe(acknowledged.length);
    await expectOneChain();
    // Certificates are rendered by the workers' jobs (pg-boss), none left waiting.
    await until('every certificate rendered', async () => {
      const [r] = await query<{ n: string }>('select count(*) as n from proofs where status < 5');
      return Number(r!.n) === 0;
    }, 300_000);
    const jobs = await query<{ name: string; state: string }>(`select name, state from ${schema}_jobs.job where name = 'proofs.render'`);
    expect(jobs.some((j) => j.state === 'completed')).toBe(true);

    // The whole chain checks out.
    const verify = spawnSync(process.execPath, ['bin/provena.ts', 'ledger-verify'], { cwd: root, env: childEnv({}), encoding: 'utf8' });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    console.log(`roles: leader SIGKILLed, standby leading after ${takeoverMs} ms; ${acknowledged.length} registrations over 2 API replicas sealed in ${await expectOneChain()} blocks`);

    // Graceful stop of the rest.
    for (const p of [...apis, standby]) p.child.kill('SIGTERM');
    await Promise.all([...apis, standby].map((p) => (p.child.exitCode === null ? new Promise((r) => p.child.once('exit', r)) : null)));
    for (const p of [...apis, standby]) expect(p.child.exitCode, p.output()).toBe(0);
  });

});

describe('roles without PostgreSQL', () => {
  it('refuses serve and work without PostgreSQL, with a clear message', { timeout: 120_000 }, () => {
    const bad = spawnSync(process.execPath, ['bin/provena.ts', 'work'], { cwd: root, env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir }, encoding: 'utf8', timeout: 110_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('provena work shares the job queue and the sealer lock');
  });
});
