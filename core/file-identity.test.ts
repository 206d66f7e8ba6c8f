import { describe, expect, it } from 'vitest';
import { fileExtension, fileIdentity, parseFileIdentity } from './file-identity.ts';

const H = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

describe('§3 file identity', () => {
  it('is 0x + lowercase hash + lowercase extension', () => {
    expect(fileIdentity(H.toUpperCase(), 'Report.PDF')).toBe(`0x${H}.pdf`);
    expect(fileIdentity(H, 'archive.tar.gz')).toBe(`0x${H}.gz`);
    expect(fileIdentity(`0x${H}`, 'dir/sub/photo.JpG')).toBe(`0x${H}.jpg`);
  });
  it('has no extension for names without one', () => {
    expect(fileIdentity(H, 'Makefile')).toBe(`0x${H}`);
    expect(fileIdentity(H, '.bashrc')).toBe(`0x${H}`);
    expect(fileIdentity(H, 'trailing.')).toBe(`0x${H}`);
    expect(fileExtension('C:\\docs\\a.DOCX')).toBe('.docx');
    expect(fileExtension('weird.ext with space')).toBe('');
  });
  it('rejects what is not a SHA-256 digest', () => {
    expect(() => fileIdentity('abc', 'a.txt')).toThrow();
  });
  it('parses back', () => {
    expect(parseFileIdentity(`0x${H}.pdf`)).toEqual({ sha256: H, extension: '.pdf' });
    expect(parseFileIdentity(`0x${H}`)).toEqual({ sha256: H, extension: '' });
    expect(parseFileIdentity(`${H}.pdf`)).toBeNull();
  });
});
