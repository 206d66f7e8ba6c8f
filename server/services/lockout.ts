import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { LOGIN_ACCOUNT_MAX_FAILURES, LOGIN_FAILURE_WINDOW_MS, LOGIN_LOCK_MS, LOGIN_MAX_FAILURES } from '../../core/constants.ts';
import { hit } from './rate-limit.ts';

/**
 * Password lockout, shared by member and operator logins (§8 "multiple wrong passwords,
 * try again in ten minutes"). Failures are counted per (account, client address): five
 * wrong passwords from one address lock that address out of that account for ten
 * minutes, and the owner elsewhere is not affected. Only many failures from all
 * addresses together (LOGIN_ACCOUNT_MAX_FAILURES in an hour) lock the account itself.
 * Counters and locks live in the rate_limits table so that every API process sees them;
 * a lock row's window_start is the moment it began.
 *
 * `account` names the login: `user:<id>` or `operator:<id>`.
 */
export const LOCKOUT = {
  perPair: { limit: LOGIN_MAX_FAILURES, windowMs: LOGIN_FAILURE_WINDOW_MS },
  perAccount: { limit: LOGIN_ACCOUNT_MAX_FAILURES, windowMs: LOGIN_FAILURE_WINDOW_MS },
  lockMs: LOGIN_LOCK_MS,
} as const;

const pairKey = (account: string, ip: string) => `${account}@${ip}`;

async function setLock(db: Db, key: string, now: number): Promise<void> {
  await db
    .insertInto('rate_limits')
    .values({ key: `lock:${key}`, window_start: now, count: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: now, count: sql<number>`rate_limits.count + 1` }))
    .execute();
  await db.deleteFrom('rate_limits').where('key', '=', `fail:${key}`).execute();
}

/** When the lock on this account for this address ends (the later of pair and account locks), or 0 when none holds. */
export async function lockedUntil(db: Db, account: string, ip: string, now = Date.now()): Promise<number> {
  const rows = await db
    .selectFrom('rate_limits')
    .select('window_start')
    .where('key', 'in', [`lock:${pairKey(account, ip)}`, `lock:${account}`])
    .execute();
  const until = Math.max(0, ...rows.map((r) => Number(r.window_start) + LOCKOUT.lockMs));
  return until > now ? until : 0;
}

/** Counts a wrong password; returns true when this failure started a lock. */
export async function recordFailure(db: Db, account: string, ip: string, now = Date.now()): Promise<boolean> {
  const pair = pairKey(account, ip);
  const isPairOk = await hit(db, `fail:${pair}`, LOCKOUT.perPair.limit - 1, LOCKOUT.perPair.windowMs, now);
  const isAccountOk = await hit(db, `fail:${account}`, LOCKOUT.perAccount.limit - 1, LOCKOUT.perAccount.windowMs, now);
  if (!isPairOk) await setLock(db, pair, now);
  if (!isAccountOk) await setLock(db, account, now);
  return !isPairOk || !isAccountOk;
}

/** A right password from this address forgets that address's failures. */
export async function recordSuccess(db: Db, account: string, ip: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', `fail:${pairKey(account, ip)}`).execute();
}

/** The owner proved themselves another way (an SMS code): every password lock and counter of the account goes. */
export async function unlockAccount(db: Db, account: string): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where((eb) =>
      eb.or([
        eb('key', 'in', [`fail:${account}`, `lock:${account}`]),
        eb('key', 'like', `fail:${account}@%`),
        eb('key', 'like', `lock:${account}@%`),
      ]),
    )
    .execute();
}
