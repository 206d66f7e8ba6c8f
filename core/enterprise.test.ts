import { describe, expect, it } from 'vitest';
import { canSeeEnterpriseData, extensionMatches, isAdminRole, parseMembersCsv, sniffFileType } from './enterprise.ts';

describe('roles (§6)', () => {
  it('admins are roles 1 and 2; the confidentiality officer (3) sees data but is no admin', () => {
    expect([0, 1, 2, 3, 4].map(isAdminRole)).toEqual([false, true, true, false, false]);
    expect([0, 1, 2, 3, 4].map(canSeeEnterpriseData)).toEqual([false, true, true, true, false]);
  });
});

describe('file type by content (§5)', () => {
  const bytes = (...b: number[]) => new Uint8Array([...b, ...new Array(16).fill(0)]);
  it('knows JPEG, PNG, BMP, GIF and PDF by their magic bytes', () => {
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpg');
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('png');
    expect(sniffFileType(bytes(0x42, 0x4d))).toBe('bmp');
    expect(sniffFileType(new TextEncoder().encode('GIF89a......'))).toBe('gif');
    expect(sniffFileType(new TextEncoder().encode('%PDF-1.7\n'))).toBe('pdf');
  });
  it('refuses anything else, whatever its name', () => {
    expect(sniffFileType(new TextEncoder().encode('<html>'))).toBeNull();
    expect(sniffFileType(new Uint8Array())).toBeNull();
    expect(extensionMatches('jpeg', 'jpg')).toBe(true);
    expect(extensionMatches('png', 'jpg')).toBe(false);
  });
});

describe('bulk member CSV', () => {
  it('skips a header, keeps quoted commas and reads roles', () => {
    const rows = parseMembersCsv('\uFEFFphone,name,role,password\r\n13800000001,"Li, Si",2,Passw0rdA\n\n13800000002,王五,,\n');
    expect(rows).toEqual([
      { phone: '13800000001', name: 'Li, Si', role: 2, password: 'Passw0rdA' },
      { phone: '13800000002', name: '王五', role: 0, password: '' },
    ]);
  });
});
