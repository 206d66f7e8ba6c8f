import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * The trade-secret vault: projects, the files registered into them (each one a
 * ledger entry), the audit log of every vault action, and the unlocked-vault sessions.
 */
export function vault(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('vault_projects')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('owner_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // §8 project_already_exist: one name per enterprise, enforced by the database too.
        .addUniqueConstraint('vault_projects_enterprise_name', ['enterprise_id', 'name'])
        .execute();
      await db.schema.createIndex('vault_projects_owner').on('vault_projects').columns(['enterprise_id', 'owner_user_id']).execute();

      await db.schema
        .createTable('vault_files')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('vault_projects.id').onDelete('cascade'))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('file_hash', 'text', (c) => c.notNull())
        // Bare hex SHA-256: the same content under another extension is still the same file.
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('dna', 'text', (c) => c.notNull().unique().references('ledger_entries.dna'))
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // §8 hash_duplicate: a file is registered once in an enterprise's vault.
        .addUniqueConstraint('vault_files_enterprise_digest', ['enterprise_id', 'digest'])
        .execute();
      await db.schema.createIndex('vault_files_project').on('vault_files').columns(['project_id', 'id']).execute();

      await db.schema
        .createTable('vault_logs')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        // Null for vault-wide actions (unlocking).
        .addColumn('project_id', 'integer', (c) => c.references('vault_projects.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vault_logs_project').on('vault_logs').columns(['project_id', 'id']).execute();
      await db.schema.createIndex('vault_logs_enterprise').on('vault_logs').columns(['enterprise_id', 'id']).execute();

      // One unlocked vault per login session (ends with the session, or at expires_at).
      await db.schema
        .createTable('vault_sessions')
        .addColumn('session_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('unlocked_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
