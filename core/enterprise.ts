/**
 * Enterprise states and rules shared by the server and the browser (§3, §4, §6, §9).
 */
import { ROLES } from './constants.ts';
import { checkRequiredText } from './validation.ts';

/** Membership states: §4 member_confirmed_status 1–3, plus 4 for a frozen (locked) member. */
export const EMPLOYEE_STATUS = { confirmed: 1, applied: 2, rejected: 3, frozen: 4 } as const;
/** §9 invite actions (and the pending state an invitation starts in). */
export const INVITATION_STATUS = { pending: 1, accepted: 2, refused: 3 } as const;
/** §9 channels: 1 legal-person fast route, 2 application form reviewed by an operator. */
export const CHANNELS = { legalPerson: 1, agent: 2 } as const;
/** Channel-2 applications under operator review. */
export const APPLICATION_STATUS = { pending: 1, approved: 2, rejected: 3 } as const;
/** §4 enterprise verification: verifying, then verified or failed. */
export const VERIFY_STATUS = { verifying: 1, verified: 2, failed: 3 } as const;

export const ROLE_VALUES: readonly number[] = Object.values(ROLES);
/** §6: administrators and super administrators manage members. */
export function isAdminRole(role: number): boolean {
  return role === ROLES.superAdmin || role === ROLES.admin;
}
/** §6: the confidentiality officer sees all enterprise data (but manages nothing). */
export function canSeeEnterpriseData(role: number): boolean {
  return isAdminRole(role) || role === ROLES.confidentialityOfficer;
}

/** Invitation codes: 8 characters (§9) from an alphabet without look-alikes (0/O, 1/I/L). */
export const INVITATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** §5 enterprise name: required, at most this many characters. */
export const ENTERPRISE_NAME_MAX = 100;

/** The kinds of file §5 accepts for images and application forms, by content. */
export type SniffedType = 'jpg' | 'png' | 'bmp' | 'gif' | 'pdf';

/** Reads the magic bytes; the extension a name claims is never trusted on its own. */
export function sniffFileType(head: Uint8Array): SniffedType | null {
  const at = (i: number) => head[i];
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpg';
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47 && at(4) === 0x0d && at(5) === 0x0a && at(6) === 0x1a && at(7) === 0x0a) return 'png';
  if (at(0) === 0x42 && at(1) === 0x4d && head.length >= 14) return 'bmp';
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38 && (at(4) === 0x37 || at(4) === 0x39) && at(5) === 0x61) return 'gif';
  if (at(0) === 0x25 && at(1) === 0x50 && at(2) === 0x44 && at(3) === 0x46 && at(4) === 0x2d) return 'pdf';
  return null;
}

/** Whether a file's lowercase extension agrees with its sniffed content (jpeg and jpg are one kind). */
export function extensionMatches(extension: string, sniffed: SniffedType): boolean {
  const ext = extension === 'jpeg' ? 'jpg' : extension;
  return ext === sniffed;
}

export type MemberRow = { phone: string; name: string; role: number; password: string };
export type MemberRowProblem = { row: number; message: string };

/**
 * Bulk add (§6): a CSV with the columns phone, name, role, password (a header row is
 * recognised and skipped; quoted fields with commas are allowed).
 */
/**
 * The text of a CSV as spreadsheets write it: UTF-8 (with or without a BOM), UTF-16 with a BOM
 * (Excel's "Unicode text"), or, when the bytes are not valid UTF-8, GB18030, a superset of the
 * GBK that Excel on Chinese Windows writes. Valid UTF-8 is never taken for GBK: a GBK file of
 * Chinese text is practically never valid UTF-8.
 */
export function decodeSheetText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

export function parseMembersCsv(text: string): MemberRow[] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let isQuoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (isQuoted) {
      if (ch === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') isQuoted = false;
      else field += ch;
    } else if (ch === '"') isQuoted = true;
    else if (ch === ',' || ch === '\t') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rowsToMembers(rows);
}

/** Cells of a member sheet (CSV or spreadsheet) to rows: blank rows dropped, a header row recognised and skipped. */
export function rowsToMembers(rows: string[][]): MemberRow[] {
  const cleaned = rows.map((r) => r.map((c) => c.trim())).filter((r) => r.some((c) => c));
  if (cleaned[0] && !/\d/.test(cleaned[0][0] ?? '')) cleaned.shift();
  // A role that is not a number becomes -1, which the server answers per row (invalid_param on role).
  const roleOf = (cell: string | undefined) => (!cell ? 0 : Number.isInteger(Number(cell)) ? Number(cell) : -1);
  return cleaned.map((r) => ({ phone: r[0] ?? '', name: r[1] ?? '', role: roleOf(r[2]), password: r[3] ?? '' }));
}

/** Unified social credit code (18) or the older registration number (15), upper-case letters and digits. */
export function checkLicenseNo(raw: string): 'required' | 'len' | 'invalid_param' | null {
  const value = raw.trim().toUpperCase();
  if (!value) return 'required';
  if (value.length !== 15 && value.length !== 18) return 'len';
  return /^[0-9A-Z]+$/.test(value) ? null : 'invalid_param';
}

export function checkEnterpriseName(raw: string): 'required' | 'lt' | null {
  return checkRequiredText(raw, ENTERPRISE_NAME_MAX);
}
