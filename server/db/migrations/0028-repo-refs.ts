import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Source-code projects, second part: the branches and tags a push last reported
 * (`repo_refs`, one row per ref name), the force-pushes detected when a ref moved to a commit
 * that does not descend from its previous one (`repo_force_pushes`), and on each registered
 * commit when it stopped being reachable from any reported ref (`orphaned_at`, its proof stays
 * valid) and the changed paths with line counts the reader computed against its first parent
 * (`changes`, JSON, informational: not part of the registered record).
 */
export function repoRefs(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('repo_refs')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('repo_projects.id').onDelete('cascade'))
        // refs/heads/main, refs/tags/v1.0, refs/remotes/origin/x (HEAD is not kept).
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('commit_id', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('repo_refs_project_name', ['project_id', 'name'])
        .execute();
      await db.schema
        .createTable('repo_force_pushes')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('repo_projects.id').onDelete('cascade'))
        .addColumn('ref_name', 'text', (c) => c.notNull())
        .addColumn('old_commit', 'text', (c) => c.notNull())
        .addColumn('new_commit', 'text', (c) => c.notNull())
        // JSON array of the commit ids this push left unreachable from every reported ref.
        .addColumn('orphaned', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('detected_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('repo_force_pushes_project').on('repo_force_pushes').columns(['project_id', 'id']).execute();
      await db.schema.alterTable('repo_commits').addColumn('orphaned_at', 'bigint').execute();
      await db.schema.alterTable('repo_commits').addColumn('changes', 'text').execute();
    },
  };
}
