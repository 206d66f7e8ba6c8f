import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';
import { primaryId } from '../dialect.ts';

/**
 * Stored files (large, sealed, by §3 identity) and their owning enterprises; disclosures
 * to outside receivers with their events, receiver sessions, download links and receipts.
 */
export function storageDisclosures(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('stored_files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stored_file_owners')
        .addColumn('file_id', 'text', (c) => c.notNull().references('stored_files.id'))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('stored_file_owners_pk', ['file_id', 'enterprise_id'])
        .execute();
      await db.schema
        .createTable('disclosures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('enterprise_id', 'integer', (c) => c.notNull())
        .addColumn('sender_user_id', 'integer', (c) => c.notNull())
        .addColumn('file_id', 'text', (c) => c.notNull().references('stored_files.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('received_phone', 'text', (c) => c.notNull())
        .addColumn('store_name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('store_forever', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('disclosures_enterprise').on('disclosures').columns(['enterprise_id', 'created_at']).execute();
      await db.schema
        .createTable('disclosure_events')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('disclosure_id', 'text', (c) => c.notNull().references('disclosures.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('detail', 'text')
        .execute();
      await db.schema.createIndex('disclosure_events_disclosure').on('disclosure_events').columns(['disclosure_id', 'id']).execute();
      await db.schema
        .createTable('disclosure_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('disclosure_id', 'text', (c) => c.notNull().references('disclosures.id'))
        .addColumn('verified_at', 'bigint', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('disclosure_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('disclosure_id', 'text', (c) => c.notNull().references('disclosures.id'))
        .addColumn('session_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('disclosure_receipts')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('disclosure_id', 'text', (c) => c.notNull().references('disclosures.id'))
        .addColumn('session_hash', 'text', (c) => c.notNull())
        .addColumn('dna', 'text', (c) => c.notNull())
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('agreement_hash', 'text', (c) => c.notNull())
        .addColumn('receiver_phone', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('disclosure_receipts_session', ['disclosure_id', 'session_hash'])
        .execute();
    },
  };
}
