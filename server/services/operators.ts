import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import * as OTPAuth from 'otpauth';
import type { Database } from '../db/schema.ts';
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

/**
 * Creates (or resets the password of) a platform operator: `provena operator-create`.
 * A new operator enrolls a TOTP authenticator at first login; `resetTotp` makes an
 * existing one enroll again (a lost phone), which also voids the old recovery codes.
 */
export async function upsertOperator(db: Db, input: { loginId: string; password: string; name?: string; resetTotp?: boolean }): Promise<{ id: number; isNew: boolean }> {
  const passwordHash = await hashPassword(input.password);
  const existing = await db.selectFrom('operators').select('id').where('login_id', '=', input.loginId).executeTakeFirst();
  if (existing) {
    const totp = input.resetTotp ? { totp_secret: null, totp_pending: null, totp_last_step: 0 } : {};
    await db.updateTable('operators').set({ password_hash: passwordHash, ...totp, ...(input.name ? { name: input.name } : {}) }).where('id', '=', existing.id).execute();
    if (input.resetTotp) await db.deleteFrom('operator_recovery_codes').where('operator_id', '=', existing.id).execute();
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

// ---- second factor (RFC 6238 TOTP) and recovery codes ----

export const TOTP_PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;

function totpKey(master: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'provena operator totp v1', 32));
}

/** Seals a TOTP secret (base32) with AES-256-GCM under a key derived from the server's master key. */
export function sealTotpSecret(master: Buffer, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', totpKey(master), iv);
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

export function openTotpSecret(master: Buffer, sealed: string): string {
  const [v, iv, body, tag] = sealed.split('.');
  if (v !== 'v1' || !iv || !body || !tag) throw new Error('not a sealed TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', totpKey(master), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

export function totpFor(base32: string, loginId: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: 'Provena', label: loginId, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: OTPAuth.Secret.fromBase32(base32) });
}

/** A new 160-bit TOTP secret, base32 (what authenticator apps take). */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/**
 * The time step a code belongs to (one step of clock drift either way), or null when
 * the code is wrong. The caller refuses steps at or below the last one accepted.
 */
export function totpStep(base32: string, loginId: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(base32, loginId).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten one-time recovery codes of 16 random characters (about 79 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(randomBytes(16), (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** High-entropy codes need no slow hash: SHA-256 of the normalized code is what is stored. */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(`operator-recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`).digest('hex');
}

// ---- audit log ----

export type OperatorAuditAction =
  | 'login'
  | 'login_failed'
  | 'logout'
  | 'totp_enrolled'
  | 'recovery_code_used'
  | 'application_approved'
  | 'application_rejected'
  | 'credit_order_confirmed'
  | 'credit_order_rejected'
  | 'key_custody_completed'
  | 'key_custody_rejected'
  | 'partner_contracts_exported';

/** Appends one line to the operator audit log (the table refuses updates and deletes). */
export async function writeOperatorAudit(
  db: Kysely<Database>,
  entry: { operatorId: number | null; loginId: string; action: OperatorAuditAction; target?: string; detail?: Record<string, unknown>; ip: string },
): Promise<void> {
  await db
    .insertInto('operator_audit')
    .values({
      operator_id: entry.operatorId,
      login_id: entry.loginId.slice(0, 64),
      action: entry.action,
      target: entry.target ?? '',
      detail: JSON.stringify(entry.detail ?? {}),
      ip: entry.ip,
      created_at: Date.now(),
    })
    .execute();
}
