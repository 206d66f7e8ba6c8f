/** §2 and §9 masking rules. */

/** First 3 and last 4 digits shown: 138****5678. */
export function maskPhone(phone: string): string {
  if (phone.length < 7) return phone;
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

/** Only the last 4 digits (disclosure receipt): *******5678. */
export function maskPhoneTail(phone: string): string {
  if (phone.length <= 4) return phone;
  return `${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`;
}

/**
 * 2 characters: a star plus the last; 3 characters: a star plus the last two;
 * longer: two stars plus the rest from the third character. Counted in code
 * points so that CJK and astral characters are never split.
 */
export function maskName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 1) return name;
  if (chars.length === 2) return `*${chars[1]}`;
  if (chars.length === 3) return `*${chars.slice(1).join('')}`;
  return `**${chars.slice(2).join('')}`;
}

/** Licence numbers: first 5 and last 3 shown. */
export function maskLicense(license: string): string {
  if (license.length <= 8) return license;
  return `${license.slice(0, 5)}${'*'.repeat(license.length - 8)}${license.slice(-3)}`;
}
