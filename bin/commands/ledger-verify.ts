import path from 'node:path';
import { openDatabase } from '../../server/db/database.ts';
import { auditLedger } from '../../server/ledger/audit.ts';

/** `provena ledger-verify`: the operator's full re-check of the ledger (same as npm run ledger:verify). */
export const ledgerVerifyCommand = {
  summary: 're-check the whole ledger in DATABASE_URL or DATA_DIR',
  usage: 'ledger-verify',
  async run(): Promise<number> {
    const { db } = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: path.resolve(process.env.DATA_DIR ?? './data') });
    try {
      const r = await auditLedger(db);
      if (r.isOk) {
        process.stdout.write(`ledger OK: ${r.blocks} blocks, ${r.entries} sealed entries, ${r.pending} waiting for a block\n`);
        return 0;
      }
      process.stderr.write(`ledger INCONSISTENT after ${r.blocks} good blocks: ${r.problem}\n`);
      return 1;
    } finally {
      await db.destroy();
    }
  },
};
