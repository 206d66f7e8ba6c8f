import type { Kysely } from 'kysely';

/**
 * A registration's certificate terms (validity, language) are kept on its ledger entry; the
 * `proofs` row is created when the entry's block is sealed, in the sealer's transaction. A
 * registration then writes no `proofs` row (one random primary-key page fewer per entry in
 * its COMMIT); readers treat an entry without one as status 1 (registered, waiting for its
 * block). Rows of entries registered before this stay as they are; the sealer moves them on.
 * NULL on those older entries.
 */
export function proofTermsOnEntries() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('ledger_entries').addColumn('proof_valid_ms', 'bigint').execute();
      await db.schema.alterTable('ledger_entries').addColumn('proof_locale', 'text').execute();
    },
  };
}
