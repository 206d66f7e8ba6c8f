import type { Kysely } from 'kysely';

/**
 * Anchoring records its intent before it sends: one row per transaction the anchoring
 * account signs, written (with the signed bytes) before the transaction is broadcast. The
 * primary key (address, nonce) is the fence: no two rows, so no two different transactions,
 * ever hold the same nonce, and a leader that died after sending leaves a row the next leader
 * reconciles with the chain (record it when mined, send the same bytes again when not).
 * state: 'sent' (may or may not be on the chain yet), 'recorded' (in ledger_checkpoint_anchors),
 * 'replaced' (the nonce was used by a transaction this row does not describe: only an operator
 * using the anchoring key elsewhere can cause it; ledger:verify then reports it), 'failed'
 * (mined, but reverted: it used its nonce and anchors nothing).
 */
export function anchorIntents() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ledger_anchor_intents')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('nonce', 'bigint', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('tree_size', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('checkpoint_hash', 'text', (c) => c.notNull())
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('tx_hash', 'text', (c) => c.notNull())
        .addColumn('raw_tx', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ledger_anchor_intents_pk', ['address', 'nonce'])
        .execute();
      await db.schema.createIndex('ledger_anchor_intents_state').on('ledger_anchor_intents').columns(['address', 'state']).execute();
    },
  };
}
