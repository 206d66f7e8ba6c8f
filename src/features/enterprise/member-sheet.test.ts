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
  // What Excel on Chinese Windows saves as "CSV (comma delimited)": GBK, CRLF, a Chinese header.
  // The last name has a character beyond GBK (U+20BB7), which GB18030 writes in four bytes.
  const GB18030_CSV = 'cad6bbfabac52cd0d5c3fb2cbdc7c9ab2cc3dcc2eb0d0a31333830303030303030352cd5c5c8fdb7e12c322c5061737377307264410d0a31333830303030303030362c22c5b7d1f42c20c4c8c4c8222c302c0d0a31333830303030303030372ccdf59534b2352c312c0d0a';
  const CHINESE_ROWS = [
    { phone: '13800000005', name: '张三丰', role: 2, password: 'Passw0rdA' },
    { phone: '13800000006', name: '欧阳, 娜娜', role: 0, password: '' },
    { phone: '13800000007', name: '王\u{20BB7}', role: 1, password: '' },
  ];
  const text = '手机号,姓名,角色,密码\r\n13800000005,张三丰,2,Passw0rdA\r\n13800000006,"欧阳, 娜娜",0,\r\n13800000007,王\u{20BB7},1,\r\n';
  it('reads CSV in GBK/GB18030, as Excel on Chinese Windows writes it', async () => {
    const bytes = Uint8Array.from(GB18030_CSV.match(/../g)!.map((h) => parseInt(h, 16)));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    expect(await readMemberSheet(bytes, '成员.csv')).toEqual(CHINESE_ROWS);
  });
  it('reads the same CSV in UTF-8 without a BOM, with a BOM, and in UTF-16 with a BOM', async () => {
    const utf8 = new TextEncoder().encode(text);
    expect(await readMemberSheet(utf8, 'm.csv')).toEqual(CHINESE_ROWS);
    expect(await readMemberSheet(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]), 'm.csv')).toEqual(CHINESE_ROWS);
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) new DataView(utf16.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    expect(await readMemberSheet(utf16, 'm.csv')).toEqual(CHINESE_ROWS);
  });
  it('reads the same rows from an XLSX with Chinese names', async () => {
    const rows = text.trim().split('\r\n').map((line) => line.match(/("[^"]*"|[^,]*)(,|$)/g)!.slice(0, 4).map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '')));
    expect(await readMemberSheet(xlsx(rows), '成员.xlsx')).toEqual(CHINESE_ROWS);
  });
});
