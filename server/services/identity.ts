import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorKey } from '../../core/errors.ts';
import { isCardNo, normalizeCardNo } from '../../core/identity.ts';
import type { Db } from '../db/database.ts';

const run = promisify(execFile);

/**
 * Real-name verification behind an interface, so that a deployment can plug in an
 * outside authority. The default checks what can be checked without one: the number's
 * format and check digit, that no other account holds the number, and that an account
 * never changes an identity it has already proved.
 */
export type IdentityProvider = {
  verify(input: { db: Db; userId: number; currentCardNo: string; cardNo: string; name: string }): Promise<ErrorKey | null>;
};

export const localIdentityProvider: IdentityProvider = {
  async verify({ db, userId, currentCardNo, cardNo, name }) {
    const value = normalizeCardNo(cardNo);
    if (!isCardNo(value)) return 'identity_info_invalid';
    if (!name.trim()) return 'real_name_info_empty';
    if (currentCardNo && currentCardNo !== value) return 'modified_identity_info_wrong';
    const holder = await db.selectFrom('users').select('id').where('card_no', '=', value).where('id', '<>', userId).executeTakeFirst();
    if (holder) return 'phone_real_name_inconsistent';
    return null;
  },
};

export type LicenceFields = { name: string; license: string; legal_person: string };

/** Business-licence recognition behind an interface; `isAvailable` false means the UI asks the user to type. */
export type LicenceOcr = { isAvailable: boolean; recognize(file: string): Promise<LicenceFields | null> };

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/** Reads the three fields a licence prints under fixed labels. */
export function parseLicenceText(text: string): LicenceFields | null {
  const flat = text.replace(/[ \t\u3000]+/g, '');
  const pick = (re: RegExp) => re.exec(flat)?.[1]?.trim() ?? '';
  const license = pick(/统一社会信用代码[:：]?([0-9A-Z]{18})/) || pick(/([0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10})/);
  const name = pick(/名称[:：]?([^\n]+)/);
  const legal = pick(/法定代表人[:：]?([^\n]+)/) || pick(/负责人[:：]?([^\n]+)/);
  if (!license || !name || !legal) return null;
  return { name, license, legal_person: legal };
}

export type IdCardSide = 'front' | 'back';
/** Front: number and name. Back: the end of the validity period (`YYYYMMDD`, or `long` for 长期). */
export type IdCardFields = { card_no: string; name: string; valid_until: string };

/**
 * Reads the front of a resident identity card: the 18/15-digit number (with a valid check
 * digit) and the name after 姓名. The number alone is enough: it is the field the server
 * checks against the photo, and OCR misreads rarer name characters, so a card whose name
 * could not be read answers with an empty name for the person to type.
 */
export function parseIdCardFront(text: string): IdCardFields | null {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/[\s\u3000]+/g, ''));
  const flat = lines.join('\n');
  let cardNo = '';
  for (const m of flat.replace(/\n/g, '').matchAll(/(?<![0-9])([0-9]{17}[0-9Xx]|[0-9]{15})(?![0-9Xx])/g)) {
    const candidate = normalizeCardNo(m[1]);
    if (isCardNo(candidate)) {
      cardNo = candidate;
      break;
    }
  }
  const nameLine = /姓名[:：]?([^\n]*)/.exec(flat)?.[1] ?? '';
  // A name is Chinese characters (and the middle dot of minority names); OCR noise around it is dropped.
  const name = /[\u4e00-\u9fff][\u4e00-\u9fff·]{0,19}/.exec(nameLine)?.[0] ?? '';
  if (!cardNo) return null;
  return { card_no: cardNo, name, valid_until: '' };
}

/** Reads the back of the card: 有效期限 YYYY.MM.DD-YYYY.MM.DD (or -长期). */
export function parseIdCardBack(text: string): IdCardFields | null {
  const flat = text.replace(/[\s\u3000]+/g, '');
  const m = /(\d{4})[.\-年/](\d{2})[.\-月/](\d{2})日?[-—–~至]+(?:(\d{4})[.\-年/](\d{2})[.\-月/](\d{2})日?|(长期))/.exec(flat);
  if (!m) return null;
  return { card_no: '', name: '', valid_until: m[7] ? 'long' : `${m[4]}${m[5]}${m[6]}` };
}

/** Identity-card recognition behind an interface; `isAvailable` false means the UI asks the user to type. */
export type IdCardOcr = { isAvailable: boolean; recognize(file: string, side: IdCardSide): Promise<IdCardFields | null> };

async function tesseractText(file: string): Promise<string | null> {
  try {
    const { stdout } = await run('tesseract', [file, 'stdout', '-l', 'chi_sim+eng'], { timeout: 30_000, maxBuffer: 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

/** Tesseract for identity cards; results are remembered per file identity (content-addressed, so they cannot go stale). */
export function tesseractIdCardOcr(isAvailable = onPath('tesseract')): IdCardOcr {
  const seen = new Map<string, IdCardFields | null>();
  return {
    isAvailable,
    async recognize(file, side) {
      if (!isAvailable) return null;
      const key = `${side}:${file}`;
      if (seen.has(key)) return seen.get(key) ?? null;
      const text = await tesseractText(file);
      const fields = text === null ? null : side === 'front' ? parseIdCardFront(text) : parseIdCardBack(text);
      if (seen.size > 500) seen.clear();
      seen.set(key, fields);
      return fields;
    },
  };
}

/** Tesseract (Debian tesseract-ocr with chi_sim) when it is on PATH; otherwise unavailable. */
export function tesseractLicenceOcr(): LicenceOcr {
  const isAvailable = onPath('tesseract');
  return {
    isAvailable,
    async recognize(file) {
      if (!isAvailable) return null;
      try {
        const { stdout } = await run('tesseract', [file, 'stdout', '-l', 'chi_sim+eng'], { timeout: 30_000, maxBuffer: 1024 * 1024 });
        return parseLicenceText(stdout);
      } catch {
        return null;
      }
    },
  };
}
