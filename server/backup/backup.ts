import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import * as tar from 'tar-stream';
import type { Env } from '../env.ts';
import { driverFor } from '../storage/file-store.ts';
import { KEK_FILE, ROOT_PASSPHRASE_FILE } from '../keys/keyring.ts';
import { jobsSchemaOf } from '../jobs/queue.ts';
import { BackupError, Decryptor, Encryptor, FORMAT_VERSION, newEnvelope, openKey, readHeader, type EnvelopeHeader } from './sealed-stream.ts';

/**
 * `provena backup` and `provena restore` (docs/deploy.md, Backup and restore). One archive file,
 * encrypted as a whole (sealed-stream.ts), holding a tar of:
 *
 *   database/provena.sqlite   SQLite's online backup of the embedded database, or
 *   database/provena.pgdump   pg_dump's custom format of the deployment's schema and its jobs schema
 *   objects/<key>             every object of the object store (STORAGE_URL), as stored (sealed)
 *   files/<path>              the files of DATA_DIR besides the database and the objects: the key
 *                             material (key-encryption.key, storage.key, root-key.passphrase) as
 *                             stored, and the small uploaded files under blobs/
 *   manifest.json             last: format version, created_at, dialect, counts, and the size
 *                             and sha256 of every part
 *
 * A restore reads the archive twice: first it authenticates every record and checks every
 * part against the manifest, writing nothing to the target; then it writes.
 */

export type Progress = (line: string) => void;

const DB_SQLITE = 'database/provena.sqlite';
const DB_PG = 'database/provena.pgdump';
const SQLITE_FILES = ['provena.sqlite', 'provena.sqlite-wal', 'provena.sqlite-shm', 'provena.sqlite-journal'];
export const KEY_FILES = [KEK_FILE, 'storage.key', ROOT_PASSPHRASE_FILE];

type Part = { name: string; size: number; sha256: string };

export type Manifest = {
  format_version: number;
  created_at: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema the deployment's search_path names, and its pg-boss schema. */
  database_schema: string | null;
  jobs_schema: string | null;
  /** The newest sealed block in the snapshot (checkpoints above it were written after it and are left out). */
  ledger_height: number;
  counts: { objects: number; files: number; key_files: number };
  parts: Part[];
};

/** What a backup and a restore report of the archive (its JSON output, snake_case like the API). */
type ArchiveSummary = {
  archive: string;
  created_at: string;
  dialect: 'sqlite' | 'postgres';
  database_bytes: number;
  ledger_height: number;
  objects: number;
  object_bytes: number;
  files: number;
  key_files: string[];
  seconds: number;
};

export type BackupSummary = ArchiveSummary & { archive_bytes: number; skipped_newer_checkpoints: number; not_included: string[] };

export type RestoreSummary = ArchiveSummary;

// ---------------------------------------------------------------- PostgreSQL tools

/** The schema a DATABASE_URL's search_path names (what the server migrates into), else public. */
export function schemaOfUrl(databaseUrl: string): string {
  const options = new URL(databaseUrl).searchParams.get('options') ?? '';
  return /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1] ?? 'public';
}

/** pg_dump or pg_restore from PATH (or PG_BIN), or a clear error saying what to install. */
export function findPgTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  const dirs = [...(env.PG_BIN ? [env.PG_BIN] : []), ...(env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new BackupError(`${name} is not on PATH: a PostgreSQL backup needs the PostgreSQL client tools (${name}, of the server's major version or newer; Debian: apt-get install postgresql-client), or PG_BIN=<folder that holds ${name}>`);
}

/** libpq settings for a child process, from the URL: the password travels in the environment, not the command line. */
function pgChildEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env, PGHOST: decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')) || 'localhost', PGPORT: url.port || '5432', PGDATABASE: decodeURIComponent(url.pathname.slice(1)) || 'postgres' };
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  const host = url.searchParams.get('host');
  if (host) env.PGHOST = host;
  return env;
}

async function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new BackupError(`${path.basename(command)} failed (exit ${code}): ${err.trim() || out.trim()}`);
  return out;
}

async function pgQuery<R extends pg.QueryResultRow>(databaseUrl: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------- helpers

function snakeCount(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Files of DATA_DIR that belong in a backup: not the database, not the local object store, not upload staging or temp files. */
function dataFiles(dataDir: string, exclude: string[]): string[] {
  const out: string[] = [];
  const skip = new Set(exclude.map((p) => path.resolve(p)));
  const walk = (dir: string, rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      const relative = rel ? `${rel}/${entry.name}` : entry.name;
      if (skip.has(full)) continue;
      if (!rel && (SQLITE_FILES.includes(entry.name) || entry.name === 'uploads')) continue;
      if (entry.isDirectory()) walk(full, relative);
      else if (entry.isFile() && !entry.name.endsWith('.tmp') && isSafeRelative(relative)) out.push(relative);
    }
  };
  walk(dataDir, '');
  return out;
}

function isSafeRelative(rel: string): boolean {
  return rel.length > 0 && rel.length < 1024 && !rel.startsWith('/') && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\\') && !s.includes('\0'));
}

/** Writes `source` as one tar entry of `size` bytes, hashing it on the way. */
async function addEntry(pack: tar.Pack, name: string, size: number, source: Readable | Buffer): Promise<Part> {
  const hash = createHash('sha256');
  let written = 0;
  await new Promise<void>((resolve, reject) => {
    const sink = pack.entry({ name, size, mode: 0o600, mtime: new Date(0), type: 'file' }, (error) => (error ? reject(error) : resolve()));
    void (async () => {
      try {
        const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(source) ? [source] : (source as AsyncIterable<Buffer>);
        for await (const chunk of chunks) {
          written += chunk.length;
          if (written > size) throw new BackupError(`${name} grew while it was being read`);
          hash.update(chunk);
          if (!sink.write(chunk)) await new Promise<void>((r) => sink.once('drain', () => r()));
        }
        if (written !== size) throw new BackupError(`${name} shrank while it was being read (${written} of ${size} bytes)`);
        sink.end(null);
      } catch (error) {
        if (!Buffer.isBuffer(source)) source.destroy();
        sink.destroy(error as Error);
        reject(error as Error);
      }
    })();
  });
  return { name, size, sha256: hash.digest('hex') };
}

// ---------------------------------------------------------------- backup

export async function runBackup(opts: { env: Env; out: string; passphrase: string; progress: Progress; isForce?: boolean }): Promise<BackupSummary> {
  const { env, progress } = opts;
  const started = performance.now();
  process.umask(0o077);
  const out = path.resolve(opts.out);
  if (fs.existsSync(out) && !opts.isForce) throw new BackupError(`${out} exists: choose another --out, or --force to replace it`);
  const dialect = env.databaseUrl ? 'postgres' : 'sqlite';
  const createdAt = new Date();
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(out), '.provena-backup-'));
  const partial = `${out}.partial`;
  const notIncluded: string[] = [];
  if (env.keys.kek) notIncluded.push('KEY_ENCRYPTION_KEY (set in the environment: keep it apart from the archive)');
  else if (env.keys.kekFile && !path.resolve(env.keys.kekFile).startsWith(`${env.dataDir}${path.sep}`)) notIncluded.push(`KEY_ENCRYPTION_KEY_FILE ${env.keys.kekFile} (outside DATA_DIR)`);
  if (env.storageKey) notIncluded.push('STORAGE_KEY (set in the environment: keep it apart from the archive)');
  if (env.keys.backend === 'pkcs11') notIncluded.push('the HSM keys of KEY_BACKEND=pkcs11 (back up the token with its own tools)');
  try {
    // 1. The database snapshot, first: every object it refers to was stored before it committed.
    let dbFile: string;
    let ledgerHeight = 0;
    let databaseSchema: string | null = null;
    let jobsSchema: string | null = null;
    if (dialect === 'sqlite') {
      const file = path.join(env.dataDir, 'provena.sqlite');
      if (!fs.existsSync(file)) throw new BackupError(`no database at ${file} (is DATA_DIR right?)`);
      dbFile = path.join(work, 'provena.sqlite');
      progress(`backup: snapshot of ${file}`);
      const source = new SQLite(file, { fileMustExist: true });
      try {
        source.pragma('busy_timeout = 5000');
        await source.backup(dbFile);
      } finally {
        source.close();
      }
      const snap = new SQLite(dbFile, { readonly: true });
      try {
        ledgerHeight = Number((snap.prepare('select coalesce(max(height), 0) as h from ledger_blocks').get() as { h: number }).h);
      } finally {
        snap.close();
      }
    } else {
      const url = env.databaseUrl!;
      const pgDump = findPgTool('pg_dump');
      databaseSchema = schemaOfUrl(url);
      jobsSchema = jobsSchemaOf(url);
      // Read before the dump: the dump holds this height or more, so no checkpoint kept is ahead of it.
      ledgerHeight = Number((await pgQuery<{ h: string | number }>(url, 'select coalesce(max(height), 0) as h from ledger_blocks'))[0]?.h ?? 0);
      dbFile = path.join(work, 'provena.pgdump');
      progress(`backup: pg_dump of schemas ${databaseSchema} and ${jobsSchema}`);
      await runTool(pgDump, ['--format=custom', '--no-sync', `--file=${dbFile}`, `--schema=${databaseSchema}`, `--schema=${jobsSchema}`], pgChildEnv(url));
    }
    const dbSize = fs.statSync(dbFile).size;
    progress(`backup: database snapshot ${megabytes(dbSize)}, ledger height ${ledgerHeight}`);

    const { header, key } = await newEnvelope(opts.passphrase, { dialect, createdAt });
    const pack = tar.pack();
    const output = fs.createWriteStream(partial, { mode: 0o600 });
    const written = pipeline(pack as unknown as Readable, new Encryptor(header, key), output);
    written.catch(() => undefined);
    const parts: Part[] = [];
    let objects = 0;
    let objectBytes = 0;
    let skipped = 0;
    const keyFiles: string[] = [];
    let files = 0;
    try {
      parts.push(await addEntry(pack, dialect === 'sqlite' ? DB_SQLITE : DB_PG, dbSize, fs.createReadStream(dbFile, { highWaterMark: 1024 * 1024 })));

      // 2. Every object of the store, as stored (already sealed by the file store).
      const driver = driverFor(env.storage);
      let lastReport = Date.now();
      for await (const objectKey of driver.list()) {
        const checkpoint = /^checkpoints\/(\d{12})$/.exec(objectKey);
        if (checkpoint && Number(checkpoint[1]) > ledgerHeight) {
          skipped++;
          continue;
        }
        const size = await driver.size(objectKey);
        const stream = size === null ? null : await driver.get(objectKey);
        if (size === null || stream === null) continue; // removed since it was listed
        parts.push(await addEntry(pack, `objects/${objectKey}`, size, stream));
        objects++;
        objectBytes += size;
        if (Date.now() - lastReport > 2000) {
          lastReport = Date.now();
          progress(`backup: ${snakeCount(objects, 'object')}, ${megabytes(objectBytes)}`);
        }
      }
      progress(`backup: ${snakeCount(objects, 'object')}, ${megabytes(objectBytes)}${skipped ? ` (${snakeCount(skipped, 'checkpoint')} newer than the snapshot left out)` : ''}`);

      // 3. The data folder's own files: key material as stored, small blobs.
      const exclude = [work, partial, out];
      if (env.storage.kind === 'local') exclude.push(env.storage.dir);
      for (const rel of dataFiles(env.dataDir, exclude)) {
        const full = path.join(env.dataDir, rel);
        const size = fs.statSync(full).size;
        parts.push(await addEntry(pack, `files/${rel}`, size, fs.createReadStream(full)));
        files++;
        if (KEY_FILES.includes(rel)) keyFiles.push(rel);
      }
      progress(`backup: ${snakeCount(files, 'data file')} (key material: ${keyFiles.join(', ') || 'none in DATA_DIR'})`);

      const manifest: Manifest = {
        format_version: FORMAT_VERSION,
        created_at: createdAt.toISOString(),
        dialect,
        database_schema: databaseSchema,
        jobs_schema: jobsSchema,
        ledger_height: ledgerHeight,
        counts: { objects, files, key_files: keyFiles.length },
        parts,
      };
      await addEntry(pack, 'manifest.json', Buffer.byteLength(JSON.stringify(manifest)), Buffer.from(JSON.stringify(manifest)));
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
      await written.catch(() => undefined);
      throw error;
    }
    await written;
    fs.renameSync(partial, out);
    fs.chmodSync(out, 0o600);
    return {
      archive: out,
      archive_bytes: fs.statSync(out).size,
      created_at: createdAt.toISOString(),
      dialect,
      database_bytes: dbSize,
      ledger_height: ledgerHeight,
      objects,
      object_bytes: objectBytes,
      files,
      key_files: keyFiles,
      skipped_newer_checkpoints: skipped,
      not_included: notIncluded,
      seconds: Math.round((performance.now() - started) / 10) / 100,
    };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- restore

type Entry = AsyncIterable<Buffer> & { header: tar.Header };

/** The tar entries of an archive, decrypted and authenticated record by record. */
async function* entriesOf(file: string, offset: number, headerBytes: Buffer, header: EnvelopeHeader, key: Awaited<ReturnType<typeof openKey>>): AsyncGenerator<Entry> {
  const extract = tar.extract();
  const source = fs.createReadStream(file, { start: offset, highWaterMark: 1024 * 1024 });
  const decryptor = new Decryptor(headerBytes, header, key);
  source.on('error', (e) => decryptor.destroy(e));
  decryptor.on('error', (e) => extract.destroy(e));
  source.pipe(decryptor).pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) yield entry as unknown as Entry;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`the archive is damaged: ${(error as Error).message}`);
  } finally {
    source.destroy();
    decryptor.destroy();
    extract.destroy();
  }
}

function checkPartName(name: string): void {
  const ok = name === DB_SQLITE || name === DB_PG || name === 'manifest.json' || (name.startsWith('objects/') && isSafeRelative(name.slice(8))) || (name.startsWith('files/') && isSafeRelative(name.slice(6)));
  if (!ok) throw new BackupError(`the archive is damaged: unexpected part ${JSON.stringify(name)}`);
}

async function isObjectStoreEmpty(env: Env): Promise<boolean> {
  if (env.storage.kind === 'local' && !fs.existsSync(env.storage.dir)) return true;
  for await (const _key of driverFor(env.storage).list()) return false;
  return true;
}

export async function runRestore(opts: { env: Env; input: string; passphrase: string; progress: Progress; isForce?: boolean }): Promise<RestoreSummary> {
  const { env, progress } = opts;
  const started = performance.now();
  // Every folder and file written from here on is 0700 / 0600, as in DATA_DIR (server/data-dir.ts).
  process.umask(0o077);
  const input = path.resolve(opts.input);
  if (!fs.existsSync(input)) throw new BackupError(`no archive at ${input}`);
  const { header, headerBytes, offset } = await readHeader(input);
  const dialect = env.databaseUrl ? 'postgres' : 'sqlite';
  if (header.dialect !== dialect) {
    throw new BackupError(header.dialect === 'sqlite'
      ? 'the archive holds an embedded SQLite database: restore it with DATABASE_URL unset (DATA_DIR names the target)'
      : 'the archive holds a PostgreSQL database: set DATABASE_URL to the (empty) target database');
  }
  const key = await openKey(opts.passphrase, header);

  // Before anything is read or written: is the target empty?
  const problems: string[] = [];
  const sqliteFile = path.join(env.dataDir, 'provena.sqlite');
  if (dialect === 'sqlite' && fs.existsSync(sqliteFile) && fs.statSync(sqliteFile).size > 0) problems.push(`a database exists at ${sqliteFile}`);
  if (!(await isObjectStoreEmpty(env))) problems.push(`the object store (${env.storage.kind === 'local' ? env.storage.dir : `s3://${env.storage.bucket}/${env.storage.prefix}`}) holds objects`);
  for (const f of KEY_FILES) if (fs.existsSync(path.join(env.dataDir, f))) problems.push(`DATA_DIR already has ${f}`);
  const blobs = path.join(env.dataDir, 'blobs');
  if (fs.existsSync(blobs) && fs.readdirSync(blobs, { withFileTypes: true }).some((e) => e.isFile())) problems.push(`DATA_DIR already has uploaded files in ${blobs}`);
  const pgSchemas = env.databaseUrl ? [schemaOfUrl(env.databaseUrl), jobsSchemaOf(env.databaseUrl)] : [];
  if (env.databaseUrl) {
    let tables: { n: string }[];
    try {
      tables = await pgQuery<{ n: string }>(env.databaseUrl, 'select count(*) as n from pg_tables where schemaname = any($1)', [pgSchemas]);
    } catch (error) {
      throw new BackupError(`cannot open DATABASE_URL: ${(error as Error).message}`);
    }
    if (Number(tables[0]?.n ?? 0) > 0) problems.push(`the database in DATABASE_URL has tables in ${pgSchemas.join(' or ')}`);
  }
  const refuse = () => new BackupError(`the target is not empty, nothing was restored:\n  - ${problems.join('\n  - ')}\nrestore into an empty DATA_DIR, database and object store, or pass --force to write over them`);
  if (problems.length && !opts.isForce) throw refuse();

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-restore-'));
  try {
    // Pass 1: authenticate every record, check every part against the manifest. Only the
    // database snapshot is kept, in a private temp folder, for the step that loads it.
    progress(`restore: checking ${input} (made ${header.created_at})`);
    const seen = new Map<string, Part>();
    let manifest: Manifest | null = null;
    let dbTemp: string | null = null;
    let checkedBytes = 0;
    let lastReport = Date.now();
    for await (const entry of entriesOf(input, offset, headerBytes, header, key)) {
      const name = entry.header.name;
      if (Date.now() - lastReport > 2000) {
        lastReport = Date.now();
        progress(`restore: checked ${snakeCount(seen.size, 'part')}, ${megabytes(checkedBytes)}`);
      }
      if (manifest) throw new BackupError('the archive is damaged: parts follow its manifest');
      if (entry.header.type !== 'file') throw new BackupError(`the archive is damaged: ${name} is not a file`);
      checkPartName(name);
      if (seen.has(name)) throw new BackupError(`the archive is damaged: ${name} appears twice`);
      const hash = createHash('sha256');
      let size = 0;
      if (name === 'manifest.json') {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk);
        try {
          manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
        } catch {
          throw new BackupError('the archive is damaged: its manifest does not parse');
        }
        continue;
      }
      const isDb = name === DB_SQLITE || name === DB_PG;
      const sink = isDb ? fs.createWriteStream((dbTemp = path.join(work, path.basename(name))), { mode: 0o600 }) : null;
      for await (const chunk of entry) {
        hash.update(chunk);
        size += chunk.length;
        if (sink && !sink.write(chunk)) await once(sink, 'drain');
      }
      if (sink) {
        sink.end();
        await once(sink, 'finish');
      }
      seen.set(name, { name, size, sha256: hash.digest('hex') });
      checkedBytes += size;
    }
    if (!manifest) throw new BackupError('the archive is damaged: its manifest is missing');
    if (manifest.format_version !== header.format_version || manifest.dialect !== header.dialect || manifest.created_at !== header.created_at) throw new BackupError('the archive is damaged: its manifest does not match its header');
    if (manifest.parts.length !== seen.size) throw new BackupError(`the archive is damaged: the manifest lists ${manifest.parts.length} parts, the archive holds ${seen.size}`);
    for (const part of manifest.parts) {
      const got = seen.get(part.name);
      if (!got) throw new BackupError(`the archive is damaged: ${part.name} is missing`);
      if (got.size !== part.size || got.sha256 !== part.sha256) throw new BackupError(`the archive is damaged: ${part.name} does not match its sha256 in the manifest`);
    }
    if (!dbTemp) throw new BackupError('the archive is damaged: it holds no database');
    const keyFiles = manifest.parts.filter((p) => p.name.startsWith('files/') && KEY_FILES.includes(p.name.slice(6))).map((p) => p.name.slice(6));
    for (const part of manifest.parts) {
      if (part.name.startsWith('files/') && fs.existsSync(path.join(env.dataDir, part.name.slice(6)))) problems.push(`DATA_DIR already has ${part.name.slice(6)}`);
    }
    if (dialect === 'postgres') {
      const target = pgSchemas[0]!;
      if (manifest.database_schema && target !== manifest.database_schema) throw new BackupError(`the archive holds schema ${manifest.database_schema}, DATABASE_URL's search_path names ${target}: restore into a search_path of the same name`);
      if (manifest.jobs_schema && pgSchemas[1] !== manifest.jobs_schema) throw new BackupError(`the archive holds the jobs schema ${manifest.jobs_schema}, DATABASE_URL's would be ${pgSchemas[1]}`);
    }
    if (problems.length && !opts.isForce) throw refuse();
    progress(`restore: archive intact (${snakeCount(manifest.counts.objects, 'object')}, ${snakeCount(manifest.counts.files, 'data file')}); writing`);

    // Pass 2, the database first (the step most likely to refuse).
    fs.mkdirSync(env.dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(env.dataDir, 0o700);
    if (dialect === 'sqlite') {
      for (const f of SQLITE_FILES) fs.rmSync(path.join(env.dataDir, f), { force: true });
      const temp = path.join(env.dataDir, '.provena.sqlite.restoring');
      fs.copyFileSync(dbTemp, temp);
      fs.chmodSync(temp, 0o600);
      fs.renameSync(temp, sqliteFile);
    } else {
      const url = env.databaseUrl!;
      const pgRestore = findPgTool('pg_restore');
      const childEnv = pgChildEnv(url);
      if (opts.isForce) {
        for (const schema of pgSchemas) await pgQuery(url, `drop schema if exists "${schema}" cascade`);
      }
      // Schemas that exist already (public, or one created empty for the target) are not created again.
      const existing = new Set((await pgQuery<{ nspname: string }>(url, 'select nspname from pg_namespace where nspname = any($1)', [pgSchemas])).map((r) => r.nspname));
      const toc = await runTool(pgRestore, ['--list', dbTemp], childEnv);
      const kept = toc.split('\n').filter((line) => {
        const m = /^\d+; \d+ \d+ SCHEMA - (\S+) /.exec(line) ?? /^\d+; \d+ \d+ COMMENT - SCHEMA (\S+) /.exec(line);
        return !(m && existing.has(m[1]!));
      });
      const listFile = path.join(work, 'restore.list');
      fs.writeFileSync(listFile, kept.join('\n'), { mode: 0o600 });
      progress(`restore: pg_restore into ${pgSchemas.join(', ')}`);
      await runTool(pgRestore, ['--exit-on-error', '--no-owner', '--no-privileges', '--single-transaction', `--use-list=${listFile}`, `--dbname=${childEnv.PGDATABASE}`, dbTemp], childEnv);
    }

    // Then the objects and the data folder's files.
    const driver = driverFor(env.storage);
    let objects = 0;
    let objectBytes = 0;
    let files = 0;
    lastReport = Date.now();
    for await (const entry of entriesOf(input, offset, headerBytes, header, key)) {
      const name = entry.header.name;
      const expected = seen.get(name);
      if (name.startsWith('objects/') && expected) {
        const hash = createHash('sha256');
        const counted = async function* () {
          for await (const chunk of entry) {
            hash.update(chunk);
            yield chunk;
          }
        };
        await driver.put(name.slice(8), Readable.from(counted()));
        if (hash.digest('hex') !== expected.sha256) throw new BackupError(`${input} changed while it was being restored (${name})`);
        objects++;
        objectBytes += expected.size;
        if (Date.now() - lastReport > 2000) {
          lastReport = Date.now();
          progress(`restore: ${snakeCount(objects, 'object')} of ${manifest.counts.objects}`);
        }
      } else if (name.startsWith('files/') && expected) {
        const target = path.join(env.dataDir, name.slice(6));
        let dir = path.dirname(target);
        const dirs: string[] = [];
        while (dir.length > env.dataDir.length && !fs.existsSync(dir)) {
          dirs.unshift(dir);
          dir = path.dirname(dir);
        }
        for (const d of dirs) fs.mkdirSync(d, { mode: 0o700 });
        const temp = `${target}.restoring.tmp`;
        const hash = createHash('sha256');
        const sink = fs.createWriteStream(temp, { mode: 0o600 });
        for await (const chunk of entry) {
          hash.update(chunk);
          if (!sink.write(chunk)) await once(sink, 'drain');
        }
        sink.end();
        await once(sink, 'finish');
        if (hash.digest('hex') !== expected.sha256) {
          fs.rmSync(temp, { force: true });
          throw new BackupError(`${input} changed while it was being restored (${name})`);
        }
        fs.chmodSync(temp, 0o600);
        fs.renameSync(temp, target);
        files++;
      } else {
        for await (const _chunk of entry) {
          // the database (restored above) and the manifest
        }
      }
    }
    progress(`restore: ${snakeCount(objects, 'object')}, ${snakeCount(files, 'data file')} written`);
    return {
      archive: input,
      created_at: header.created_at,
      dialect,
      database_bytes: seen.get(dialect === 'sqlite' ? DB_SQLITE : DB_PG)?.size ?? 0,
      ledger_height: manifest.ledger_height,
      objects,
      object_bytes: objectBytes,
      files,
      key_files: keyFiles,
      seconds: Math.round((performance.now() - started) / 10) / 100,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
