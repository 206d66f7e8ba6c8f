import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * The trust core's tables. ledger_entries is acknowledged on insert (leaf_index null
 * until sealed); ledger_blocks is append-only with the height as primary key, so two
 * sealers can never both write block N (no fork); proofs is the certificate job table.
 */
export function ledger(dialect: Dialect) {
  const binary = dialect === 'sqlite' ? 'blob' : 'bytea';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ledger_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('spki', 'text', (c) => c.notNull())
        .addColumn('pkcs8', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('dna', 'text', (c) => c.notNull().unique())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('leaf_hash', 'text', (c) => c.notNull())
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('salt', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('enterprise_name', 'text', (c) => c.notNull())
        .addColumn('registrant_user_id', 'integer')
        .addColumn('registered_at', 'bigint', (c) => c.notNull())
        .addColumn('leaf_index', 'bigint', (c) => c.unique())
        .addColumn('block_height', 'integer')
        .execute();
      await db.schema.createIndex('ledger_entries_block').on('ledger_entries').column('block_height').execute();
      await db.schema.createIndex('ledger_entries_file').on('ledger_entries').column('file_hash').execute();

      await db.schema
        .createTable('ledger_blocks')
        .addColumn('height', 'integer', (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('tree_size', 'bigint', (c) => c.notNull())
        .addColumn('root', 'text', (c) => c.notNull())
        .addColumn('sealed_at', 'bigint', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('header', 'text', (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .addColumn('entry_count', 'integer', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('proofs')
        .addColumn('dna', 'text', (c) => c.primaryKey())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('valid_ms', 'bigint', (c) => c.notNull())
        .addColumn('issued_at', 'bigint')
        .addColumn('expires_at', 'bigint')
        .addColumn('pdf', binary)
        .addColumn('error', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('proofs_status').on('proofs').column('status').execute();
    },
  };
}
