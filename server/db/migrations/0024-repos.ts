import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Source-code (copyright) projects: a project of an enterprise (its creation is a
 * ledger entry of kind `repo_project`), the per-project tokens CI pipelines push with (only
 * their SHA-256 is kept; revocable), and one row per registered commit (a ledger entry of
 * kind `commit` whose file hash is the SHA-256 of the commit's canonical record, kept here).
 */
export function repos(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('repo_projects')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('owner_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('dna', 'text', (c) => c.notNull().unique().references('ledger_entries.dna'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // §8 project_already_exist: one name per enterprise.
        .addUniqueConstraint('repo_projects_enterprise_name', ['enterprise_id', 'name'])
        .execute();
      await db.schema.createIndex('repo_projects_owner').on('repo_projects').columns(['enterprise_id', 'owner_user_id']).execute();

      await db.schema
        .createTable('repo_tokens')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('repo_projects.id').onDelete('cascade'))
        // Hex SHA-256 of the token: the token itself is shown once and never stored.
        .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('repo_tokens_project').on('repo_tokens').columns(['project_id', 'id']).execute();

      await db.schema
        .createTable('repo_commits')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('repo_projects.id').onDelete('cascade'))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('commit_id', 'text', (c) => c.notNull())
        .addColumn('tree_id', 'text', (c) => c.notNull())
        // The canonical record (core/repos.ts encodeCommitRecord) and its SHA-256.
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('record_sha256', 'text', (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('author_time', 'bigint', (c) => c.notNull())
        .addColumn('dna', 'text', (c) => c.notNull().unique().references('ledger_entries.dna'))
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('repo_commits_project_commit', ['project_id', 'commit_id'])
        .execute();
      await db.schema.createIndex('repo_commits_project_time').on('repo_commits').columns(['project_id', 'author_time', 'id']).execute();
      await db.schema.createIndex('repo_commits_enterprise_commit').on('repo_commits').columns(['enterprise_id', 'commit_id']).execute();
    },
  };
}
