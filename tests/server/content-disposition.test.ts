import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadName } from '../../server/services/disclosures.ts';

/** The header the disclosure download sends for a name the sender chose. */
const header = (name: string) => contentDisposition(downloadName(name, `0x${'a'.repeat(64)}.pdf`));

describe('download names', () => {
  it('strips a right-to-left override from filename and filename* (an .exe shown as a .pdf)', () => {
    expect(header('发票\u202Efdp.exe')).toBe(`attachment; filename="__fdp.exe.pdf"; filename*=UTF-8''%E5%8F%91%E7%A5%A8fdp.exe.pdf`);
    const h = header('invoice\u202Efdp.exe');
    expect(h).not.toContain('%E2%80%AE');
    expect(h).not.toContain('\u202E');
    expect(h).toBe('attachment; filename="invoicefdp.exe.pdf"');
  });

  it('strips every bidirectional control, zero-width character, C0/C1 control and line separator', () => {
    const hostile = ['\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u061C', '\u200B', '\uFEFF', '\u2028', '\u2029', '\u0085', '\u009B', '\u007F', '\r', '\n', '\u0000'];
    for (const c of hostile) {
      const h = header(`a${c}b.pdf`);
      const label = `U+${c.codePointAt(0)!.toString(16)}`;
      expect(h, label).not.toContain(c);
      expect(h, label).not.toContain(encodeURIComponent(c));
      expect(h, label).toMatch(/^attachment; filename="a_?b\.pdf"$/);
    }
  });

  it('keeps Chinese names in filename* and gives an ASCII fallback with no quote or backslash', () => {
    expect(header('设计图"x\\.pdf')).toBe(`attachment; filename="____x_.pdf"; filename*=UTF-8''%E8%AE%BE%E8%AE%A1%E5%9B%BE_x_.pdf`);
  });

  it('percent-encodes the characters RFC 5987 leaves out of attr-char', () => {
    expect(contentDisposition("设计's (1)*.pdf")).toContain("filename*=UTF-8''%E8%AE%BE%E8%AE%A1%27s%20%281%29%2A.pdf");
    expect(contentDisposition("it's (1)*.pdf")).toBe(`attachment; filename="it's (1)*.pdf"`);
  });
});
