/**
 * The §5 field rules, shared by the browser (inline errors) and the server
 * (the same rule, answered as `{ message, field_name }`). Each rule returns the
 * §8 catalogue key of the failure, or null when the value passes.
 */
import type { ErrorKey } from './errors.ts';
import { SMS_CODE_LENGTH } from './constants.ts';

export type RuleResult = ErrorKey | null;

/** Length in characters as a person counts them (a CJK character or an emoji is one). */
export function charLength(value: string): number {
  return Array.from(value).length;
}

/** A required text: blank after trimming is `required`, more than `max` characters (as people count them) `lt`. */
export function checkRequiredText(raw: string, max: number): 'required' | 'lt' | null {
  const value = raw.trim();
  if (!value) return 'required';
  return charLength(value) > max ? 'lt' : null;
}

/** An optional text: at most `max` characters (as people count them) after trimming. */
export function checkOptionalText(raw: string, max: number): 'lt' | null {
  return charLength(raw.trim()) > max ? 'lt' : null;
}

const PHONE_RE = /^\d{11}$/;
const SMS_CODE_RE = new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`);

export function isPhone(value: string): boolean {
  return PHONE_RE.test(value);
}

export function checkPhone(value: string): RuleResult {
  if (!value) return 'required';
  return isPhone(value) ? null : 'phone_invalid';
}

export function checkSmsCode(value: string): RuleResult {
  if (!value) return 'validation_code_required';
  return SMS_CODE_RE.test(value) ? null : 'validation_code_mismatch';
}

/** §5 password login: at least 8 characters with a letter and a digit (phone mode). */
export function isLoginPasswordShape(value: string): boolean {
  return value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/**
 * §5 password login. In username mode only non-emptiness is checked; in phone mode
 * the phone must be 11 digits and the password of login shape, else the one
 * "phone or password wrong" message (which never says which of the two was wrong).
 */
export function checkPasswordLogin(
  loginId: string,
  password: string,
  opts: { allowUserNameLogin: boolean },
): { field: 'login_id' | 'password'; key: ErrorKey } | null {
  if (!loginId) return { field: 'login_id', key: 'required' };
  if (!password) return { field: 'password', key: 'required' };
  if (opts.allowUserNameLogin) return null;
  if (!isPhone(loginId) || !isLoginPasswordShape(password)) return { field: 'login_id', key: 'login_failed' };
  return null;
}

/**
 * A stored password that no longer meets the login rule (§5: ≥ 8 with a letter and
 * a digit; with strongPassword also a special character) must be upgraded before it
 * is used: the §8 weak-password dialog (invalid_password_format).
 */
export function isWeakPassword(value: string, opts: { strongPassword: boolean }): boolean {
  if (!isLoginPasswordShape(value)) return true;
  return opts.strongPassword && !/[^A-Za-z0-9]/.test(value);
}

/**
 * §5 password for register and reset: at least 8 characters with upper case, lower
 * case and a digit; with strongPassword also a special character.
 */
export function checkNewPassword(value: string, opts: { strongPassword: boolean }): RuleResult {
  if (!value) return 'required';
  if (value.length < 8) return 'password_too_short';
  const hasAll = /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value);
  if (!hasAll) return 'password_needs_letters_and_numbers';
  if (opts.strongPassword && !/[^A-Za-z0-9]/.test(value)) return 'password_needs_letters_and_numbers';
  return null;
}

export function checkRepeatPassword(password: string, repeat: string): RuleResult {
  if (!repeat) return 'required';
  return password === repeat ? null : 'password_mismatch';
}

/** §5 change-password dialog: new ≥ 7 characters, with letters and digits, differing from the old. */
export function checkChangedPassword(oldPassword: string, newPassword: string): RuleResult {
  if (!newPassword) return 'required';
  if (newPassword.length < 7) return 'password_too_short';
  if (!/[A-Za-z]/.test(newPassword) || !/\d/.test(newPassword)) return 'password_needs_letters_and_numbers';
  if (newPassword === oldPassword) return 'new_password_same_as_old';
  return null;
}

export function checkNewPhone(currentPhone: string, newPhone: string): RuleResult {
  const shape = checkPhone(newPhone);
  if (shape) return shape;
  return newPhone === currentPhone ? 'new_phone_same_as_current' : null;
}

/** Display names: optional at sign-up; at most 20 characters, no control characters. */
export const NAME_MAX_LENGTH = 20;
export function checkName(value: string, opts: { required: boolean }): RuleResult {
  const trimmed = value.trim();
  if (!trimmed) return opts.required ? 'required' : null;
  if (trimmed.length > NAME_MAX_LENGTH) return 'lt';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'invalid_param';
  return null;
}

/** Usernames (when username login is on): 4–32 letters, digits, '_' '.' '-', not all digits. */
export function checkUserName(value: string): RuleResult {
  if (!value) return 'required';
  if (value.length < 4) return 'gt';
  if (value.length > 32) return 'lt';
  if (!/^[A-Za-z0-9_.-]+$/.test(value) || /^\d+$/.test(value)) return 'invalid_param';
  return null;
}
