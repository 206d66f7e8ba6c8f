import type { Kysely } from 'kysely';

/**
 * Fencing for the sealer: the height is already the primary key (one block per
 * height); a block's parent is now unique too, so no two blocks can ever extend the same
 * block. A deposed leader that still holds an old head cannot append: its insert names a
 * height or a parent another block already has, and the database refuses it.
 */
export function sealerFencing() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('ledger_blocks_prev_hash_unique').on('ledger_blocks').column('prev_hash').unique().execute();
    },
  };
}
