/**
 * npm run ledger:verify — re-checks the whole ledger in the database named by
 * DATABASE_URL (or the SQLite file in DATA_DIR, default ./data): hashes, chain links,
 * signatures, tree sizes and roots; then the database's head against the newest checkpoint
 * in the object store, and (with ANCHOR_RPC_URL) against the chain anchors.
 * Exit 0 when consistent, 1 naming the first problem, 2 when there is no database.
 */
import { runLedgerVerify } from '../server/ledger/verify-run.ts';

process.exitCode = await runLedgerVerify(process.env, { out: (line) => console.log(line), err: (line) => console.error(line) });
