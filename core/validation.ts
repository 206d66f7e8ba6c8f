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

/** §5: an SMS code is 6 digits and required; anything else is "please enter the phone verification code". */
export function checkSmsCode(value: string): RuleResult {
  return SMS_CODE_RE.test(value) ? null : 'validation_code_required';
}

/** §5 password login: at least 8 characters with a letter and a digit (phone mode). */
export function isLoginPasswordShape(value: string): boolean {
  return value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/**
 * Password login, checked in the browser before asking. Only the login id's shape is
 * judged here: in phone mode the phone must be 11 digits, else the one "phone or
 * password wrong" message (which never says which of the two was wrong). The password is
 * never judged by its shape in the browser: the change-password dialog accepts 7
 * characters (§9), so a shape check here would lock such a user out of password login for
 * good. The server checks the password and answers `invalid_password_format` (the §8
 * weak-password dialog) when it is right but below today's rule.
 */
export function checkPasswordLogin(
  loginId: string,
  password: string,
  opts: { allowUserNameLogin: boolean },
): { field: 'login_id' | 'password'; key: ErrorKey } | null {
  if (!loginId) return { field: 'login_id', key: 'required' };
  if (!password) return { field: 'password', key: 'required' };
  if (opts.allowUserNameLogin) return null;
  if (!isPhone(loginId)) return { field: 'login_id', key: 'login_failed' };
  return null;
}

/** Any character that is not an ASCII letter or digit counts as special (with `strongPassword`). */
const SPECIAL_RE = /[^A-Za-z0-9]/;

/**
 * A stored password that no longer meets the login rule (§5: ≥ 8 with a letter and
 * a digit; with strongPassword also a special character) must be upgraded before it
 * is used: the §8 weak-password dialog (invalid_password_format).
 */
export function isWeakPassword(value: string, opts: { strongPassword: boolean }): boolean {
  if (!isLoginPasswordShape(value)) return true;
  return opts.strongPassword && !SPECIAL_RE.test(value);
}

/**
 * Where a password is set, and so which §5/§9 rule applies: sign-up, reset and an
 * administrator adding a member ask for 8 characters with upper case, lower case and a
 * digit; the change-password dialog for 7 with letters and digits. With `strongPassword`
 * every one of them also asks for a special character.
 */
export type PasswordContext = 'new' | 'change';

export type PasswordRule = { minLength: number; needsCase: boolean; needsSpecial: boolean };

export function passwordRule(context: PasswordContext, opts: { strongPassword: boolean }): PasswordRule {
  return context === 'change'
    ? { minLength: 7, needsCase: false, needsSpecial: opts.strongPassword }
    : { minLength: 8, needsCase: true, needsSpecial: opts.strongPassword };
}

/** The one check behind every place that sets a password; each failure has its own message. */
export function checkPasswordRule(value: string, rule: PasswordRule): RuleResult {
  if (!value) return 'required';
  if (value.length < rule.minLength) return rule.needsCase ? 'password_too_short' : 'new_password_too_short';
  if (rule.needsCase) {
    if (!(/[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value))) return 'password_needs_letters_and_numbers';
  } else if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) {
    return 'password_needs_digits_and_letters';
  }
  if (rule.needsSpecial && !SPECIAL_RE.test(value)) return 'password_needs_special_character';
  return null;
}

/**
 * §5 password for register and reset: at least 8 characters with upper case, lower
 * case and a digit; with strongPassword also a special character.
 */
export function checkNewPassword(value: string, opts: { strongPassword: boolean }): RuleResult {
  return checkPasswordRule(value, passwordRule('new', opts));
}

export function checkRepeatPassword(password: string, repeat: string): RuleResult {
  if (!repeat) return 'required';
  return password === repeat ? null : 'password_mismatch';
}

/**
 * §5 change-password dialog: new ≥ 7 characters (§9), with letters and digits (and a
 * special character with strongPassword), differing from the old.
 */
export function checkChangedPassword(oldPassword: string, newPassword: string, opts: { strongPassword: boolean }): RuleResult {
  const shape = checkPasswordRule(newPassword, passwordRule('change', opts));
  if (shape) return shape;
  return newPassword === oldPassword ? 'new_password_same_as_old' : null;
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
