import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Digital assets: each row is one registered file of an enterprise, a ledger entry
 * (kind `asset`) with its name, §3 type and description, and the credits its registration cost.
 */
export function assets(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('assets')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        // §3 asset type, 0–7 (core/assets.ts ASSET_TYPES).
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('file_hash', 'text', (c) => c.notNull())
        // Bare hex SHA-256: the same content under another extension is still the same file.
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('dna', 'text', (c) => c.notNull().unique().references('ledger_entries.dna'))
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // §8 hash_duplicate: a file is registered once as an asset of an enterprise.
        .addUniqueConstraint('assets_enterprise_digest', ['enterprise_id', 'digest'])
        .execute();
      // The list: newest first for the enterprise (roles 1–3) or for one registrant (members, the filter).
      await db.schema.createIndex('assets_enterprise_created').on('assets').columns(['enterprise_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('assets_registrant_created').on('assets').columns(['enterprise_id', 'user_id', 'created_at', 'id']).execute();
    },
  };
}
