/**
 * npm run bench:ingest — the registration half of bench:ledger alone (no sealing, no PDFs), so
 * that group commit can be measured on a shared machine in seconds: Ledger.register from
 * CONCURRENCY concurrent callers (each with its own durable acknowledgement), against the
 * floor of a bare INSERT of an equivalent row into the same database, and the same callers
 * charging credits inside the registration's transaction (the feature services' shape).
 * JSON in bench/results/ingest-<db>.json. BENCH_DATABASE_URL=postgres://… runs on PostgreSQL.
 * BENCH_N (default 5000) and BENCH_CONCURRENCY (default 16) override the sizes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { openDatabase } from '../server/db/database.ts';
import { keyringFromProcessEnv } from '../server/keys/keyring.ts';
import { attachKeyring } from '../server/keys/platform-keys.ts';
import { Ledger } from '../server/ledger/ledger.ts';
import { readLedgerConfig } from '../server/ledger/config.ts';

const N = Number(process.env.BENCH_N ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const pgUrl = process.env.BENCH_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-ingest-'));
let databaseUrl: string | undefined;
let schema: string | undefined;
const pg = (await import('pg')).default;
const pgRun = async (q: string) => {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(q);
  await c.end();
};
if (pgUrl) {
  schema = `bench_ingest_${Date.now().toString(36)}`;
  await pgRun(`create schema ${schema}`);
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
}
const { db } = await openDatabase({ databaseUrl, dataDir });
attachKeyring(db, keyringFromProcessEnv(dataDir));
const quiet = { info() {}, warn() {}, error: (o: object) => console.error(o) };
const ledger = new Ledger(db, { ...readLedgerConfig({}), maxBlockEntries: 10 * N + 1 }, quiet);
await ledger.start({ isSealingTimerOn: false });
const hashOf = (i: number, salt: string) => createHash('sha256').update(`${salt}-${i}`).digest('hex');

async function pool(count: number, work: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return performance.now() - t0;
}

const anyDb = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
await anyDb.schema.createTable('bench_floor').addColumn('id', 'integer').addColumn('dna', 'text').addColumn('record', 'text').addColumn('file_hash', 'text').execute();
const floorMs = await pool(N, (i) => anyDb.insertInto('bench_floor').values({ id: i, dna: `pv${i}`, record: `{"v":1,"i":${i}}`, file_hash: hashOf(i, 'floor') }).execute());
const registerMs = await pool(N, (i) => ledger.register({ fileHash: `0x${hashOf(i, 'reg')}.txt`, enterpriseName: '基准测试有限公司', registrantUserId: null, kind: 'file' }));
// The feature services' shape: a read and a write of the caller's own inside the transaction.
await anyDb.schema.createTable('bench_charge').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('balance', 'integer').execute();
await anyDb.insertInto('bench_charge').values({ id: 1, balance: 10 * N }).execute();
const withWorkMs = await pool(N, (i) =>
  ledger.register({ fileHash: `0x${hashOf(i, 'work')}.txt`, enterpriseName: '基准测试有限公司', registrantUserId: null, kind: 'file' }, async (trx) => {
    const t = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await t.selectFrom('bench_charge').select('balance').where('id', '=', 1).executeTakeFirstOrThrow();
    await t.updateTable('bench_charge').set({ balance: 10 * N - i }).where('id', '=', 1).execute();
  }),
);
const count = Number((await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
if (count !== 2 * N) throw new Error(`expected ${2 * N} entries, found ${count}`);

const rate = (ms: number) => Math.round((N / ms) * 1000);
const result = {
  database: pgUrl ? 'postgresql' : 'sqlite',
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
  count: N,
  concurrency: CONCURRENCY,
  baselineBareInsert: { ms: Math.round(floorMs), perSecond: rate(floorMs) },
  registrations: { ms: Math.round(registerMs), perSecond: rate(registerMs), ofFloor: +(floorMs / registerMs).toFixed(3) },
  registrationsWithWork: { ms: Math.round(withWorkMs), perSecond: rate(withWorkMs), note: 'a read and an update in the same transaction, as a credit charge does' },
};
fs.mkdirSync('bench/results', { recursive: true });
const out = `bench/results/ingest-${result.database}.json`;
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
await ledger.stop();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
if (schema) await pgRun(`drop schema ${schema} cascade`);
