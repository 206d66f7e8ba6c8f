import type { Kysely } from 'kysely';

/**
 * One row per checkpoint anchored on an EVM chain: the note (as stored under
 * checkpoints/), the hash the transaction carries, and where the transaction is. Anchors
 * are sent once per ANCHOR_INTERVAL for the newest checkpoint, not once per block.
 */
export function checkpointAnchors() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ledger_checkpoint_anchors')
        .addColumn('height', 'integer', (c) => c.primaryKey())
        .addColumn('tree_size', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('checkpoint_hash', 'text', (c) => c.notNull())
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('tx_hash', 'text', (c) => c.notNull())
        .addColumn('block_number', 'bigint', (c) => c.notNull())
        .addColumn('anchored_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
