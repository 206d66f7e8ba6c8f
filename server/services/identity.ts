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
