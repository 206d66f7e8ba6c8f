import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { identityOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { listen, startS3, tusUpload } from './storage-helpers.ts';
import type { StorageEnv } from '../../server/env.ts';
import { MAGIC } from '../../server/backup/sealed-stream.ts';

/**
 * The restore drill: a real instance registers files, stores one and
 * gets its certificate; `provena backup` archives it while it runs; `provena restore` puts the
 * archive into a fresh data folder (and, on PostgreSQL + S3, a second database and another
 * prefix); `provena ledger-verify` passes on the copy; the copy serves the same certificate and
 * the same stored bytes. A wrong passphrase and an altered archive fail and write nothing.
 */
const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-backup-test-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
});

/** The newest PostgreSQL client tools installed here, as .ci/run finds the server (PATH may only have Debian's wrapper, or none). */
const pgBin = (() => {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_dump'))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  return newest ? path.join(base, newest, 'bin') : undefined;
})();

const PASSPHRASE = 'drill passphrase: 七个字的口令 ok';

type Run = { code: number; stdout: string; stderr: string };

/** Runs `provena <args>` as an operator would: a real process, settings in its environment. */
async function provena(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...(pgBin ? { PG_BIN: pgBin } : {}), ...env };
  const child = spawn(process.execPath, [path.join(root, 'bin/provena.ts'), ...args], { cwd: root, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'close')) as [number];
  return { code, stdout, stderr };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function storageEnv(storage: StorageEnv): Record<string, string> {
  if (storage.kind === 'local') return { STORAGE_URL: `file://${storage.dir}` };
  return { STORAGE_URL: `s3://${storage.bucket}/${storage.prefix.replace(/\/$/, '')}`, S3_ENDPOINT: storage.endpoint, S3_ACCESS_KEY_ID: storage.accessKeyId, S3_SECRET_ACCESS_KEY: storage.secretAccessKey, S3_FORCE_PATH_STYLE: 'true' };
}

/** Every file under a folder, relative, with its mode. */
function listTree(dir: string): { rel: string; mode: number; isDir: boolean }[] {
  const out: { rel: string; mode: number; isDir: boolean }[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push({ rel: path.relative(dir, p), mode: fs.statSync(p).mode & 0o777, isDir: e.isDirectory() });
      if (e.isDirectory()) walk(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

type Source = { h: Harness; owner: { cookie: string }; dna: string; pdf: Buffer; identity: string; bytes: Buffer; licence: string };

/** A live instance with two registrations, a stored file, a certificate and a checkpoint. */
async function populate(h: Harness): Promise<Source> {
  const owner = await ownerWithEnterprise(h, `备份演练有限公司 ${randomBytes(3).toString('hex')}`);
  await creditsForAssets(h, owner, owner, 2);
  const bytes = randomBytes(3 * 1024 * 1024 + 77);
  const identity = identityOf(bytes, 'bin');
  const asset = await registerAsset(h, owner, identity, 'drill.bin');
  await registerAsset(h, owner, identityOf(randomBytes(64), 'txt'), 'second.txt');
  // Stored as the browser stores it: a tus upload over HTTP, sealed into the object store.
  const upload = await tusUpload(await listen(h), owner.cookie, bytes, identity);
  expect(upload.error).toBeNull();
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
  const proof = await h.request({ method: 'GET', url: `/api/v1/assets/${asset.asset_dna}/proof`, cookie: owner.cookie });
  expect(proof.statusCode, proof.body).toBe(200);
  expect(proof.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  const licence = fs.readdirSync(path.join(h.app.env.dataDir, 'blobs')).find((n) => n.endsWith('.png'))!;
  expect(licence).toBeTruthy();
  return { h, owner, dna: asset.asset_dna, pdf: proof.rawPayload, identity, bytes, licence };
}

async function drill(opts: {
  source: Harness;
  sourceEnv: Record<string, string>;
  targetEnv: Record<string, string>;
  targetDir: string;
  openTarget: () => Promise<Harness>;
  isTargetEmpty: () => Promise<boolean>;
}): Promise<void> {
  const s = await populate(opts.source);
  const passFile = path.join(work, `pass-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(passFile, `${PASSPHRASE}\n`, { mode: 0o600 });
  const archive = path.join(work, `drill-${randomBytes(4).toString('hex')}.provena-backup`);

  // A passphrase on the command line is refused; a missing one too.
  expect((await provena(['backup', '--out', archive, '--passphrase', PASSPHRASE], opts.sourceEnv)).code).toBe(2);
  const none = await provena(['backup', '--out', archive], opts.sourceEnv);
  expect(none.code).toBe(1);
  expect(none.stderr).toMatch(/no passphrase/);

  // The backup, while the source instance runs.
  const made = await provena(['backup', '--out', archive, '--passphrase-file', passFile, '--json'], opts.sourceEnv);
  expect(made.code, made.stderr).toBe(0);
  const summary = JSON.parse(made.stdout) as Record<string, unknown>;
  expect(summary).toMatchObject({ archive, dialect: (opts.source.app.env.databaseUrl ? 'postgres' : 'sqlite'), ledger_height: expect.any(Number) });
  expect(summary.objects as number).toBeGreaterThanOrEqual(2); // the stored file and a checkpoint at least
  expect(summary.key_files).toEqual(expect.arrayContaining(['key-encryption.key', 'storage.key']));
  expect(Object.keys(summary).every((k) => /^[a-z_]+$/.test(k))).toBe(true);
  expect(made.stderr).toMatch(/backup: database snapshot/);
  expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
  const sealed = fs.readFileSync(archive);
  expect(sealed.subarray(0, 8).equals(MAGIC)).toBe(true);
  // Nothing readable inside: not the stored file's sealed bytes, not the key files, not the PDF.
  const kek = fs.readFileSync(path.join(opts.source.app.env.dataDir, 'key-encryption.key'));
  expect(sealed.includes(kek.subarray(0, 32))).toBe(false);
  expect(sealed.includes(s.pdf.subarray(0, 200))).toBe(false);
  expect(sealed.includes(Buffer.from('ledger_blocks'))).toBe(false);

  // A wrong passphrase: refused, nothing written.
  const wrongFile = path.join(work, `wrong-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(wrongFile, 'not the passphrase at all\n', { mode: 0o600 });
  const wrong = await provena(['restore', '--in', archive, '--passphrase-file', wrongFile], opts.targetEnv);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toMatch(/wrong passphrase/);
  expect(listTree(opts.targetDir)).toEqual([]);
  expect(await opts.isTargetEmpty()).toBe(true);

  // Altered archives: a byte in the last record (the manifest), a byte in the header, the tail cut off.
  const tampered = [
    (b: Buffer) => {
      const c = Buffer.from(b);
      c[c.length - 40] = c[c.length - 40]! ^ 1;
      return c;
    },
    (b: Buffer) => {
      // The header still parses and the passphrase still opens it, but it is not the header the records were sealed with.
      const c = Buffer.from(b);
      const at = c.indexOf('"created_at":"') + '"created_at":"'.length + 3;
      c[at] = c[at] === 0x30 ? 0x31 : 0x30;
      return c;
    },
    (b: Buffer) => b.subarray(0, b.length - 1000),
  ];
  for (const [i, alter] of tampered.entries()) {
    const file = `${archive}.tampered-${i}`;
    fs.writeFileSync(file, alter(sealed), { mode: 0o600 });
    const r = await provena(['restore', '--in', file, '--passphrase-file', passFile], opts.targetEnv);
    expect(r.code, `tampering ${i}: ${r.stderr}`).toBe(1);
    expect(r.stderr).toMatch(/damaged|altered|cut short|not a provena backup|wrong passphrase/);
    expect(listTree(opts.targetDir)).toEqual([]);
    expect(await opts.isTargetEmpty()).toBe(true);
  }

  // The restore.
  const restored = await provena(['restore', '--in', archive, '--passphrase-file', passFile, '--json'], opts.targetEnv);
  expect(restored.code, restored.stderr).toBe(0);
  expect(JSON.parse(restored.stdout)).toMatchObject({ dialect: (opts.source.app.env.databaseUrl ? 'postgres' : 'sqlite'), objects: summary.objects, files: summary.files, ledger_height: summary.ledger_height });
  for (const entry of listTree(opts.targetDir)) expect(entry.mode, entry.rel).toBe(entry.isDir ? 0o700 : 0o600);
  expect(fs.existsSync(path.join(opts.targetDir, 'blobs', s.licence))).toBe(true);

  // A second restore into the same (no longer empty) target: refused, with what is there.
  const again = await provena(['restore', '--in', archive, '--passphrase-file', passFile], opts.targetEnv);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/not empty/);
  // --force writes over it (the database replaced as a whole, the same objects and files again).
  const forced = await provena(['restore', '--in', archive, '--passphrase-file', passFile, '--force'], opts.targetEnv);
  expect(forced.code, forced.stderr).toBe(0);

  // The ledger checks out on the copy, against its checkpoints in the restored object store.
  const verified = await provena(['ledger-verify'], opts.targetEnv);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/checkpoint/);

  // The copy serves the same certificate to the same session, and the same stored bytes (opened with the restored storage key).
  const copy = await opts.openTarget();
  try {
    const proof = await copy.request({ method: 'GET', url: `/api/v1/assets/${s.dna}/proof`, cookie: s.owner.cookie });
    expect(proof.statusCode, proof.body).toBe(200);
    expect(proof.rawPayload.equals(s.pdf)).toBe(true);
    const stored = await copy.request({ method: 'GET', url: `/api/v1/storage/files/${s.identity}`, cookie: s.owner.cookie });
    expect(stored.json().data).toMatchObject({ is_stored: true, is_registered: true, size: s.bytes.length });
    expect((await collect((await copy.app.fileStore.open(s.identity))!)).equals(s.bytes)).toBe(true);
  } finally {
    await copy.close();
  }
}

describe('provena backup / restore', () => {
  it('--help for both', async () => {
    for (const name of ['backup', 'restore']) {
      const r = await provena([name, '--help'], {});
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`usage: provena ${name}`);
      expect(r.stdout).toContain('--passphrase-file');
    }
  });

  it('drill on the embedded SQLite database and the local object folder: ledger-verify passes on the restored copy', { timeout: 180_000 }, async () => {
    const sourceDir = path.join(work, 'sqlite-source');
    const targetDir = path.join(work, 'sqlite-target');
    const sourceStorage: StorageEnv = { kind: 'local', dir: path.join(sourceDir, 'blobs', 'objects') };
    const h = await startHarness({}, { dataDir: sourceDir, databaseUrl: undefined, storage: sourceStorage });
    cleanups.push(() => h.close());
    const targetStorage: StorageEnv = { kind: 'local', dir: path.join(targetDir, 'blobs', 'objects') };
    await drill({
      source: h,
      sourceEnv: { DATA_DIR: sourceDir },
      targetEnv: { DATA_DIR: targetDir },
      targetDir,
      openTarget: () => startHarness({}, { dataDir: targetDir, databaseUrl: undefined, storage: targetStorage }),
      isTargetEmpty: async () => !fs.existsSync(targetStorage.dir),
    });
  });

  const pgUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!pgUrl)('drill on PostgreSQL and S3 (s3rver): restored into a second database and another prefix', { timeout: 240_000 }, async () => {
    const s3 = await startS3();
    cleanups.push(() => s3.close());
    const sourceDir = path.join(work, 'pg-source');
    const targetDir = path.join(work, 'pg-target');
    const sourceStorage: StorageEnv = { ...(s3.storage as Extract<StorageEnv, { kind: 's3' }>), prefix: 'source/' };
    const targetStorage: StorageEnv = { ...sourceStorage, prefix: 'restored/' };
    const h = await startHarness({}, { dataDir: sourceDir, storage: sourceStorage });
    cleanups.push(() => h.close());
    const sourceUrl = h.app.env.databaseUrl!;
    const schema = new URL(sourceUrl).searchParams.get('options')!.replace(/^.*search_path=/, '');
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema if exists ${schema}_jobs cascade`);
      await c.end();
    });
    const database = `restore_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${database} with (force)`);
      await c.end();
    });
    const target = new URL(sourceUrl);
    target.pathname = `/${database}`;
    const targetUrl = target.toString();
    const s3Driver = (await import('../../server/storage/file-store.ts')).driverFor(targetStorage);
    await drill({
      source: h,
      sourceEnv: { DATA_DIR: sourceDir, DATABASE_URL: sourceUrl, ...storageEnv(sourceStorage) },
      targetEnv: { DATA_DIR: targetDir, DATABASE_URL: targetUrl, ...storageEnv(targetStorage) },
      targetDir,
      openTarget: () => startHarness({}, { dataDir: targetDir, databaseUrl: targetUrl, storage: targetStorage }),
      isTargetEmpty: async () => {
        for await (const _key of s3Driver.list()) return false;
        const c = new pg.Client({ connectionString: targetUrl });
        await c.connect();
        const r = await c.query<{ n: string }>('select count(*) as n from pg_tables where schemaname = $1', [schema]);
        await c.end();
        return Number(r.rows[0]!.n) === 0;
      },
    });
  });
});
