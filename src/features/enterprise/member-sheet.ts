import { decodeSheetText, parseMembersCsv, rowsToMembers, type MemberRow } from '../../../core/enterprise.ts';

/** The server takes at most this many rows in one bulk add. */
export const MEMBER_SHEET_MAX_ROWS = 500;

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  // Phone numbers typed into a spreadsheet are stored as numbers; print them whole, never as 1.38E+10.
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toFixed(0) : String(cell);
  return String(cell);
}

/**
 * Reads a member sheet (§6 add in bulk): XLSX/XLS through SheetJS (loaded only when needed),
 * CSV (UTF-8, UTF-16 or GBK/GB18030, detected) through the quoted-field parser. The first sheet's columns are phone, name, role, password.
 */
export async function readMemberSheet(bytes: Uint8Array, fileName: string): Promise<MemberRow[]> {
  const isCsv = /\.(csv|txt)$/i.test(fileName);
  if (isCsv) return parseMembersCsv(decodeSheetText(bytes));
  const XLSX = await import('@e965/xlsx');
  const workbook = XLSX.read(bytes, { type: 'array', dense: true, cellHTML: false, cellFormula: false });
  const first = workbook.SheetNames[0];
  const sheet = first ? workbook.Sheets[first] : undefined;
  if (!sheet) return [];
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: false });
  return rowsToMembers(rows.map((r) => r.map(cellText)));
}
