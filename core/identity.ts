/**
 * §5 ID card number: trimmed, 18 digits (the last may be X) or the older 15 digits.
 * The 18-digit number carries an ISO 7064 MOD 11-2 check character (GB 11643-1999)
 * and a birth date; both are checked. Returns the §8 key of the failure or null.
 */
import type { ErrorKey } from './errors.ts';
import { checkRequiredText } from './validation.ts';

const ID18_RE = /^\d{17}[\dX]$/;
const ID15_RE = /^\d{15}$/;
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CHARS = '10X98765432';

/** Upper-cases a trailing x and drops surrounding blanks. */
export function normalizeCardNo(value: string): string {
  return value.trim().toUpperCase();
}

/** The check character of the first 17 digits. */
export function cardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (WEIGHTS[i] as number);
  return CHECK_CHARS[sum % 11] as string;
}

function isRealDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export function isCardNo(raw: string): boolean {
  const value = normalizeCardNo(raw);
  if (ID18_RE.test(value)) {
    const year = Number(value.slice(6, 10));
    if (year < 1800 || !isRealDate(year, Number(value.slice(10, 12)), Number(value.slice(12, 14)))) return false;
    return cardCheckChar(value.slice(0, 17)) === value[17];
  }
  if (ID15_RE.test(value)) {
    return isRealDate(1900 + Number(value.slice(6, 8)), Number(value.slice(8, 10)), Number(value.slice(10, 12)));
  }
  return false;
}

export function checkCardNo(raw: string): ErrorKey | null {
  if (!raw.trim()) return 'required';
  return isCardNo(raw) ? null : 'identity_info_invalid';
}

export const REAL_NAME_MAX = 30;
export function checkRealName(raw: string): ErrorKey | null {
  return checkRequiredText(raw, REAL_NAME_MAX);
}
