/** §9 business constants. */
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_MS = 10 * 60 * 1000;
export const SMS_RESEND_INTERVAL_MS = 60 * 1000;
export const SMS_RESEND_COUNTDOWN_S = 60;
/** Wrong code attempts before a code is burnt and a new one must be sent. */
export const SMS_CODE_MAX_ATTEMPTS = 5;

export const PHONE_LENGTH = 11;
export const INVITATION_CODE_LENGTH = 8;
export const PROJECT_NAME_MAX = 30;
export const PROJECT_DESCRIPTION_MAX = 200;
/** §5 file to register: the name a registered file (an asset, a vault file) is listed under; §5 only says it is required. */
export const REGISTERED_FILE_NAME_MAX = 100;
export const IMAGE_MAX_BYTES = 3 * 1024 * 1024;
export const HASH_CHUNK_BYTES = 10 * 1024 * 1024;
export const PBKDF2_ITERATIONS = 100_000;
export const PEM_LINE_LENGTH = 64;
export const ADD_MEMBER_TIMEOUT_MS = 10_000;
export const DOWNLOAD_POLL_MS = 1000;
export const DISCLOSURE_EXPIRED_ABOVE = 4;

/**
 * §8 login: repeated wrong passwords lock the login for ten minutes. Counted per
 * (account, client address) first, so a stranger's guesses lock only the stranger out;
 * across all addresses only at the far higher account threshold (docs/security.md).
 */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_LOCK_MS = 10 * 60 * 1000;
/** Wrong passwords counted per (account, address) within this window. */
export const LOGIN_FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** Wrong passwords from all addresses together that lock the account itself (per window). */
export const LOGIN_ACCOUNT_MAX_FAILURES = 50;

/** SMS code types of §7. */
export const SMS_TYPES = { register: 1, disclosureReceiver: 8, reset: 11, codeLogin: 14, changePhoneOld: 15, changePhoneNew: 16, legalPerson: 17, vaultUnlock: 18 } as const;
export type SmsType = (typeof SMS_TYPES)[keyof typeof SMS_TYPES];
export const SMS_TYPE_VALUES: readonly number[] = Object.values(SMS_TYPES);
/** Types that may be sent to any number (the rest go to the logged-in user's phone). */
export const PUBLIC_SMS_TYPES: readonly number[] = [SMS_TYPES.register, SMS_TYPES.reset, SMS_TYPES.codeLogin, SMS_TYPES.changePhoneNew];

/** §3 role numbers. */
export const ROLES = { member: 0, superAdmin: 1, admin: 2, confidentialityOfficer: 3, member4: 4 } as const;

/** §3: timestamps above this are milliseconds, at or below it seconds. */
export const MS_TIMESTAMP_THRESHOLD = 9_999_999_999;
export function toMillis(ts: number): number {
  return ts > MS_TIMESTAMP_THRESHOLD ? ts : ts * 1000;
}
