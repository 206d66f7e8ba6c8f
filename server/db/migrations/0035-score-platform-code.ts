import type { Kysely } from 'kysely';

/**
 * The platform's own source-code projects in the score graph: a score repository may stand
 * for a registered project (`project_id`), and a score developer for a commit author known
 * by the SHA-256 of the e-mail address (`email_sha256`), so that one person committing to
 * projects of two enterprises links them, as developers shared in imported history do.
 */
export function scorePlatformCode() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('score_repositories').addColumn('project_id', 'integer').execute();
      await db.schema.createIndex('score_repositories_project').on('score_repositories').column('project_id').unique().execute();
      await db.schema.alterTable('score_developers').addColumn('email_sha256', 'text').execute();
      await db.schema.createIndex('score_developers_email').on('score_developers').column('email_sha256').unique().execute();
    },
  };
}
