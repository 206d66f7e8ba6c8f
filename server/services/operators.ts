import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { forbidden } from '../plugins/enterprises.ts';
import { hashPassword } from './passwords.ts';

export const OPERATOR_COOKIE = 'provena_operator';
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Stored as a hash, as user sessions are. */
export function operatorTokenId(token: string): string {
  return createHash('sha256').update(`operator:${token}`).digest('hex');
}

/** The operator a console session token belongs to, while the session lasts; else null. */
export async function operatorOfSession(db: Db, token: string | undefined) {
  if (!token) return null;
  const row = await db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .select(['operators.id', 'operators.login_id', 'operators.name', 'operator_sessions.expires_at', 'operator_sessions.id as session_id'])
    .where('operator_sessions.id', '=', operatorTokenId(token))
    .executeTakeFirst();
  return row && row.expires_at >= Date.now() ? row : null;
}

export async function createOperatorSession(db: Db, operatorId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insertInto('operator_sessions').values({ id: operatorTokenId(token), operator_id: operatorId, created_at: now, expires_at: now + OPERATOR_SESSION_TTL_MS }).execute();
  return token;
}

/** Creates (or resets the password of) a platform operator: `provena operator-create`. */
export async function upsertOperator(db: Db, input: { loginId: string; password: string; name?: string }): Promise<{ id: number; isNew: boolean }> {
  const passwordHash = await hashPassword(input.password);
  const existing = await db.selectFrom('operators').select('id').where('login_id', '=', input.loginId).executeTakeFirst();
  if (existing) {
    await db.updateTable('operators').set({ password_hash: passwordHash, ...(input.name ? { name: input.name } : {}) }).where('id', '=', existing.id).execute();
    await db.deleteFrom('operator_sessions').where('operator_id', '=', existing.id).execute();
    return { id: existing.id, isNew: false };
  }
  const row = await db
    .insertInto('operators')
    .values({ login_id: input.loginId, name: input.name ?? '', password_hash: passwordHash, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, isNew: true };
}

/** The operator behind a request's operator cookie, or 403 forbidden (enterprise sessions never pass). */
export async function requireOperator(db: Db, request: FastifyRequest) {
  const operator = await operatorOfSession(db, request.cookies[OPERATOR_COOKIE]);
  if (!operator) forbidden();
  return operator;
}
