import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_ATTEMPTS,
  SMS_CODE_TTL_MS,
  SMS_RESEND_INTERVAL_MS,
} from '../../core/constants.ts';
import { ApiError } from '../errors.ts';
import { clear, hit } from './rate-limit.ts';
import type { SmsProvider } from './sms-providers.ts';

export type { SmsMessage, SmsProvider } from './sms-providers.ts';

function hashCode(phone: string, type: number, code: string): string {
  return createHash('sha256').update(`${phone}:${type}:${code}`).digest('hex');
}

const SMS_TEXT: Record<number, string> = {
  1: '注册验证码',
  8: '文件接收验证码',
  11: '重置密码验证码',
  14: '登录验证码',
  15: '更换手机号验证码（原手机）',
  16: '更换手机号验证码（新手机）',
  17: '企业法人认证验证码',
  18: '保险箱解锁验证码',
  19: '文件披露确认验证码',
};

/** Per-address ceiling on codes sent, on top of the one-a-minute rule per phone and type. */
export const CODES_PER_ADDRESS = { limit: 20, windowMs: 60 * 60 * 1000 };
/** Per-phone ceiling on codes sent, whatever the type: one phone cannot be flooded through the types. */
export const CODES_PER_PHONE = { limit: 10, windowMs: 60 * 60 * 1000 };

export type CodeService = ReturnType<typeof codeService>;

export function codeService(db: Db, provider: SmsProvider, addressLimitFactor = 1) {
  return {
    /**
     * Issues a 6-digit code valid 10 minutes. One per minute per phone and type
     * ("validation code filled"), and a ceiling per client address.
     */
    async send(phone: string, type: number, ip: string): Promise<void> {
      const now = Date.now();
      if (!(await hit(db, `sms:${phone}:${type}`, 1, SMS_RESEND_INTERVAL_MS, now))) {
        throw new ApiError('validation_code_filled', 'validation_code');
      }
      if (!(await hit(db, `sms-ip:${ip}`, CODES_PER_ADDRESS.limit * addressLimitFactor, CODES_PER_ADDRESS.windowMs, now))) {
        throw new ApiError('too_frequent_operation', 'validation_code');
      }
      if (!(await hit(db, `sms-phone:${phone}`, CODES_PER_PHONE.limit, CODES_PER_PHONE.windowMs, now))) {
        throw new ApiError('too_frequent_operation', 'validation_code');
      }
      const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
      const inserted = await db
        .insertInto('sms_codes')
        .values({ phone, type, code_hash: hashCode(phone, type, code), created_at: now, expires_at: now + SMS_CODE_TTL_MS, used_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const text = SMS_TEXT[type] ?? '验证码';
      try {
        await provider.send({
          id: randomUUID(),
          phone,
          type,
          template: 'code',
          params: { code },
          text: `【Provena】${text}：${code}，10分钟内有效。如非本人操作，请忽略。`,
        });
      } catch {
        // Not delivered (after the provider's retries): the code is void and the
        // one-a-minute rule is given back, so the user can ask again at once.
        await db.deleteFrom('sms_codes').where('id', '=', inserted.id).execute();
        await clear(db, `sms:${phone}:${type}`);
        throw new ApiError('sms_send_failed', 'validation_code');
      }
    },

    /**
     * Checks and uses up the newest code for a phone and type, inside the caller's
     * transaction so that the code is spent only if the whole action commits.
     * Returns a §8 key on failure instead of throwing, so that the attempt counter
     * it raises is committed with the caller's transaction rather than rolled back.
     */
    async consume(trx: Kysely<Database>, phone: string, type: number, code: string): Promise<ApiError | null> {
      const now = Date.now();
      const row = await trx
        .selectFrom('sms_codes')
        .selectAll()
        .where('phone', '=', phone)
        .where('type', '=', type)
        .where('used_at', 'is', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return new ApiError('validation_code_not_generated', 'validation_code');
      if (row.expires_at <= now || row.attempts >= SMS_CODE_MAX_ATTEMPTS) {
        return new ApiError('validation_code_expired', 'validation_code');
      }
      const given = Buffer.from(hashCode(phone, type, code));
      const expected = Buffer.from(row.code_hash);
      if (!timingSafeEqual(given, expected)) {
        await trx.updateTable('sms_codes').set({ attempts: row.attempts + 1 }).where('id', '=', row.id).execute();
        return new ApiError('validation_code_mismatch', 'validation_code');
      }
      const used = await trx
        .updateTable('sms_codes')
        .set({ used_at: now })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      // Two requests racing with the same code: only one may spend it.
      if (Number(used.numUpdatedRows) !== 1) return new ApiError('validation_code_expired', 'validation_code');
      return null;
    },
  };
}
