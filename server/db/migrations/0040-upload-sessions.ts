import type { Kysely } from 'kysely';

/**
 * Resumable uploads any API replica can continue (server/storage/shared-staging.ts): the
 * upload's state in a row (offset, sealed tail, the sealed segment objects, as JSON in `meta`),
 * the lease of the request writing it (lock_owner, lock_until: one writer across replicas), and
 * finished_at once stored (the row then answers "complete" until it expires). Sizes and times
 * are bigint: files reach 64 GiB, times are milliseconds.
 */
export function uploadSessions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upload_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('meta', 'text', (c) => c.notNull())
        .addColumn('upload_offset', 'bigint', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('lock_owner', 'text')
        .addColumn('lock_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('upload_sessions_created').on('upload_sessions').column('created_at').execute();
    },
  };
}
