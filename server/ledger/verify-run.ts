import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/database.ts';
import { auditLedger } from './audit.ts';
import { CheckpointStore, compareWithCheckpoints, hasHeadMoved } from './checkpoints.ts';
import { driverFor } from '../storage/file-store.ts';
import { readEnv } from '../env.ts';
import { readLedgerConfig } from './config.ts';
import { checkpointOrigin } from '../../core/ledger/checkpoint.ts';
import { fromBase64 } from '../../core/ledger/bytes.ts';
import { checkAnchoredCheckpoints } from './anchor.ts';

type Out = { out(line: string): void; err(line: string): void };

/** The database named by DATABASE_URL or DATA_DIR must already exist: opening would create an empty one. */
async function missingDatabase(databaseUrl: string | undefined, dataDir: string): Promise<string | null> {
  if (!databaseUrl) {
    const file = path.join(dataDir, 'provena.sqlite');
    return fs.existsSync(file) ? null : `no ledger database at ${file} (is DATA_DIR right?)`;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const r = await client.query<{ t: string | null }>(`select to_regclass('ledger_blocks')::text as t`);
    return r.rows[0]?.t ? null : 'the database in DATABASE_URL has no ledger tables (is DATABASE_URL right?)';
  } catch (error) {
    return `cannot open DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The operator's full re-check (npm run ledger:verify, provena ledger-verify): the chain in
 * the database, then the database's head against the newest checkpoint in the object store,
 * then (with ANCHOR_RPC_URL) the anchored checkpoints against the chain. Exit code 0 when
 * all agree, 1 naming the first problem, 2 when there is no database to check.
 */
export async function runLedgerVerify(source: NodeJS.ProcessEnv, io: Out): Promise<number> {
  const databaseUrl = source.DATABASE_URL || undefined;
  const dataDir = path.resolve(source.DATA_DIR ?? './data');
  const missing = await missingDatabase(databaseUrl, dataDir);
  if (missing) {
    io.err(`ledger-verify: ${missing}`);
    return 2;
  }
  const started = performance.now();
  const { db } = await openDatabase({ databaseUrl, dataDir });
  try {
    const env = readEnv({ ...source, DATA_DIR: dataDir });
    const config = readLedgerConfig(source);
    const store = new CheckpointStore(driverFor(env.storage), checkpointOrigin(config.publicUrl));
    // A running server may seal a block and publish its checkpoint (always after its commit)
    // between reading the database and reading the store: when the head moved meanwhile, the
    // whole check runs again on it (a few times at most). A database that lost its tail fails at once.
    for (let attempt = 1; ; attempt++) {
      const result = await auditLedger(db);
      if (!result.isOk) {
        io.err(`ledger INCONSISTENT after ${result.blocks} good blocks and ${result.entries} entries: ${result.problem}`);
        return 1;
      }
      const head = await db.selectFrom('ledger_blocks').select(['height', 'tree_size', 'root']).orderBy('height', 'desc').limit(1).executeTakeFirst();
      const keys = await db.selectFrom('ledger_keys').select(['spki']).execute();
      const tail = await compareWithCheckpoints(store, head ? { height: head.height, tree_size: Number(head.tree_size), root: head.root } : null, keys.map((k) => fromBase64(k.spki)));
      if (!tail.isOk) {
        if (attempt < 4 && (await hasHeadMoved(db, head?.height ?? 0))) continue;
        io.err(`ledger INCONSISTENT with its checkpoints: ${tail.problem}`);
        return 1;
      }
      let anchors = '';
      if (config.anchor) {
        const anchored = await checkAnchoredCheckpoints(db, config.anchor, head ? { height: head.height, tree_size: Number(head.tree_size) } : null);
        if (!anchored.isOk) {
          io.err(`ledger INCONSISTENT with its chain anchors: ${anchored.problem}`);
          return 1;
        }
        anchors = `; ${anchored.detail}`;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      io.out(`ledger OK: ${result.blocks} blocks, ${result.entries} sealed entries, ${result.pending} waiting for a block; checkpoint ${tail.detail}${anchors} (${seconds} s)`);
      return 0;
    }
  } finally {
    await db.destroy();
  }
}
