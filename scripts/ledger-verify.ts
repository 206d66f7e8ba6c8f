/**
 * npm run ledger:verify — re-checks the whole ledger in the database named by
 * DATABASE_URL (or the SQLite file in DATA_DIR, default ./data): hashes, chain links,
 * signatures, tree sizes and roots. Exit 0 when consistent, 1 naming the first problem.
 */
import path from 'node:path';
import { openDatabase } from '../server/db/database.ts';
import { auditLedger } from '../server/ledger/audit.ts';

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const started = performance.now();
const { db } = await openDatabase({ databaseUrl, dataDir });
try {
  const result = await auditLedger(db);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (result.isOk) {
    console.log(`ledger OK: ${result.blocks} blocks, ${result.entries} sealed entries, ${result.pending} waiting for a block (${seconds} s)`);
  } else {
    console.error(`ledger INCONSISTENT after ${result.blocks} good blocks and ${result.entries} entries: ${result.problem}`);
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
