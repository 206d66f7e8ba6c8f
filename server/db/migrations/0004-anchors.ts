import type { Kysely } from 'kysely';

/** One row per block hash anchored on an EVM chain (optional anchoring). */
export function anchors() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ledger_anchors')
        .addColumn('height', 'integer', (c) => c.primaryKey())
        .addColumn('block_hash', 'text', (c) => c.notNull())
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('tx_hash', 'text', (c) => c.notNull())
        .addColumn('block_number', 'bigint', (c) => c.notNull())
        .addColumn('anchored_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
