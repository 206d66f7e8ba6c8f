import { maskPhone } from '../../core/masking.ts';

/**
 * §9 masking before any outside call: mainland ID numbers (18 digits, the last
 * may be X, or the old 15 digits) keep their first 3 and last 4 characters, phones (11
 * digits from 1) their first 3 and last 4 digits (138****5678). A number that is part of a
 * longer run of digits (a hash, a DNA) is left alone.
 */
const ID_NUMBER = /(?<![0-9A-Za-z])(\d{17}[\dXx]|\d{15})(?![0-9A-Za-z])/g;
const PHONE = /(?<![0-9A-Za-z])((?:\+?86[ -]?)?)(1[3-9]\d{9})(?![0-9A-Za-z])/g;

export function maskSensitive(text: string): string {
  return text
    .replace(ID_NUMBER, (id) => `${id.slice(0, 3)}${'*'.repeat(id.length - 7)}${id.slice(-4)}`)
    .replace(PHONE, (_all, prefix: string, phone: string) => `${prefix}${maskPhone(phone)}`);
}
