import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * A fixed-window counter kept in the database, so that several API processes
 * share one limit. One atomic upsert per hit; returns whether the hit is allowed.
 */
export async function hit(db: Db, key: string, limit: number, windowMs: number, now = Date.now()): Promise<boolean> {
  const windowStart = now - windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${windowStart} then 1 else rate_limits.count + 1 end`,
        window_start: sql<number>`case when rate_limits.window_start <= ${windowStart} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count <= limit;
}

/** Forgets a key (e.g. after a successful login). */
export async function clear(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
