import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';

export const SESSION_COOKIE = 'provena_session';
/**
 * Set and cleared with the session cookie, readable by scripts and holding no secret: the
 * browser asks who is logged in only when it is there, so an anonymous page makes no call
 * that fails (a 400 in every visitor's console).
 */
export const SIGNED_IN_HINT_COOKIE = 'provena_signed_in';
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Sliding expiry: a session used within its lifetime is extended, at most once an hour. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/** Only the hash of a session token is stored: a leaked database holds no live session. */
function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type SessionRow = { id: string; user_id: number; phone_change_until: number };

export function sessionService(db: Db) {
  return {
    async create(userId: number, meta: { ip: string; userAgent: string }): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = Date.now();
      await db
        .insertInto('sessions')
        .values({
          id: tokenId(token),
          user_id: userId,
          created_at: now,
          expires_at: now + SESSION_TTL_MS,
          last_seen_at: now,
          ip: meta.ip,
          user_agent: meta.userAgent.slice(0, 300),
        })
        .execute();
      return token;
    },

    async find(token: string): Promise<SessionRow | null> {
      const now = Date.now();
      const id = tokenId(token);
      const row = await db
        .selectFrom('sessions')
        .select(['id', 'user_id', 'phone_change_until', 'last_seen_at'])
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!row) return null;
      if (now - row.last_seen_at > TOUCH_INTERVAL_MS) {
        await db.updateTable('sessions').set({ last_seen_at: now, expires_at: now + SESSION_TTL_MS }).where('id', '=', id).execute();
      }
      return { id: row.id, user_id: row.user_id, phone_change_until: row.phone_change_until };
    },

    async destroy(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    /** After a password change or reset every other session of the user ends. */
    async destroyAllFor(userId: number, exceptSessionId?: string): Promise<void> {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
      await q.execute();
    },

    async allowPhoneChange(sessionId: string, until: number): Promise<void> {
      await db.updateTable('sessions').set({ phone_change_until: until }).where('id', '=', sessionId).execute();
    },

    async purgeExpired(): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', Date.now()).execute();
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
