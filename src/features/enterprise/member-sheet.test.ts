import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { readMemberSheet } from './member-sheet.ts';

function xlsx(rows: unknown[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), '成员');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

describe('member sheets for bulk add', () => {
  it('reads an XLSX written by a spreadsheet: numeric phones whole, header skipped, blank rows dropped', async () => {
    const bytes = xlsx([
      ['手机号', '姓名', '角色', '密码'],
      [13800000001, '李四', 2, 'Passw0rdA'],
      [],
      ['13800000002', ' 王五 ', '', ''],
      [13800000003, 'Bad role', 'admin', 'x'],
    ]);
    expect(Array.from(bytes.subarray(0, 2))).toEqual([0x50, 0x4b]); // a real zip container
    expect(await readMemberSheet(bytes, 'members.xlsx')).toEqual([
      { phone: '13800000001', name: '李四', role: 2, password: 'Passw0rdA' },
      { phone: '13800000002', name: '王五', role: 0, password: '' },
      { phone: '13800000003', name: 'Bad role', role: -1, password: 'x' },
    ]);
  });
  it('reads CSV with quoted commas and a BOM, and an empty workbook as no rows', async () => {
    const csv = new TextEncoder().encode('\uFEFFphone,name,role\r\n13800000004,"Li, Si",3\n');
    expect(await readMemberSheet(csv, 'm.csv')).toEqual([{ phone: '13800000004', name: 'Li, Si', role: 3, password: '' }]);
    expect(await readMemberSheet(xlsx([['phone', 'name']]), 'empty.xlsx')).toEqual([]);
  });
});
