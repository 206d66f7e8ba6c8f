import { isUniqueViolation, type Db } from '../db/database.ts';
import { fail } from '../errors.ts';
import type { CodeService } from './sms.ts';
import { pickIconColor, type UserRow } from './users.ts';

/**
 * The writes of the account routes (registration, password, name, username, phone): the routes
 * check the input and the session; these functions write, and turn a lost race on a unique
 * column into the §8 answer on its field.
 */

/** Runs `action` after spending the SMS code, all in one transaction; a wrong code still counts as an attempt. */
export async function withSmsCode<T>(db: Db, codes: CodeService, phoneNumber: string, type: number, validationCode: string, action: (trx: Db) => Promise<T>): Promise<T> {
  const outcome = await db.transaction().execute(async (trx) => {
    const error = await codes.consume(trx, phoneNumber, type, validationCode);
    if (error) return { error };
    return { value: await action(trx) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

export async function insertUser(trx: Db, u: { phonenumber: string; name: string; passwordHash: string }): Promise<UserRow> {
  const now = Date.now();
  try {
    return await trx
      .insertInto('users')
      .values({ phonenumber: u.phonenumber, login_id: null, name: u.name, password_hash: u.passwordHash, icon_color: pickIconColor(), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) fail('user_already_exist', 'phonenumber');
    throw error;
  }
}

/** Proving the phone clears the password locks. */
export async function clearPasswordLocks(trx: Db, userId: number): Promise<void> {
  await trx.updateTable('users').set({ failed_logins: 0, locked_until: 0 }).where('id', '=', userId).execute();
}

/** A forgotten password reset: the new hash, the locks cleared, every session ended. */
export async function resetPassword(trx: Db, userId: number, passwordHash: string): Promise<void> {
  await trx.updateTable('users').set({ password_hash: passwordHash, failed_logins: 0, locked_until: 0, updated_at: Date.now() }).where('id', '=', userId).execute();
  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: Date.now() }).where('id', '=', userId).execute();
}

export async function renameUser(db: Db, userId: number, name: string): Promise<UserRow> {
  return db.updateTable('users').set({ name, updated_at: Date.now() }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
}

export async function setLoginId(db: Db, userId: number, loginId: string): Promise<UserRow> {
  try {
    return await db.updateTable('users').set({ login_id: loginId, updated_at: Date.now() }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) fail('user_already_exist', 'login_id');
    throw error;
  }
}

/** The old phone proven: this session may set a new number until `until`. */
export async function openPhoneChange(trx: Db, sessionId: string, until: number): Promise<void> {
  await trx.updateTable('sessions').set({ phone_change_until: until }).where('id', '=', sessionId).execute();
}

/** The new number, and the session's phone-change window closed. */
export async function setPhone(trx: Db, userId: number, sessionId: string, newPhone: string): Promise<UserRow> {
  try {
    const row = await trx.updateTable('users').set({ phonenumber: newPhone, updated_at: Date.now() }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
    await trx.updateTable('sessions').set({ phone_change_until: 0 }).where('id', '=', sessionId).execute();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) fail('user_already_exist', 'new_phone_number');
    throw error;
  }
}
