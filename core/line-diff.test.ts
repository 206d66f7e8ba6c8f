import { describe, expect, it } from 'vitest';
import { countLines, isBinary, lineCounts, lineHashes } from './line-diff.ts';

const t = (s: string) => new TextEncoder().encode(s);

describe('lineCounts: git diff --numstat over lines', () => {
  it('counts a new, a deleted and an unchanged file', () => {
    expect(lineCounts(null, t('a\nb\nc\n'))).toEqual({ added: 3, removed: 0 });
    expect(lineCounts(t('a\nb\n'), null)).toEqual({ added: 0, removed: 2 });
    expect(lineCounts(t('a\nb\n'), t('a\nb\n'))).toEqual({ added: 0, removed: 0 });
  });

  it('counts a change in the middle as one removed and one added, an insertion as one added', () => {
    expect(lineCounts(t('a\nb\nc\n'), t('a\nB\nc\n'))).toEqual({ added: 1, removed: 1 });
    expect(lineCounts(t('a\nc\n'), t('a\nb\nc\n'))).toEqual({ added: 1, removed: 0 });
    // A moved line: removed where it was, added where it went (not 0/0 as a set difference would say).
    expect(lineCounts(t('x\na\nb\nc\n'), t('a\nb\nc\nx\n'))).toEqual({ added: 1, removed: 1 });
    // The last line without its newline differs from the same line with one (git counts it).
    expect(lineCounts(t('a\nb'), t('a\nb\n'))).toEqual({ added: 1, removed: 1 });
  });

  it('agrees with git on interleaved edits', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    const after = 'zero\none\nthree\nfour!\nfive\nsix\nseven\n';
    // git diff --numstat: 3 added (zero, four!, seven), 2 removed (two, four).
    expect(lineCounts(t(before), t(after))).toEqual({ added: 3, removed: 2 });
  });

  it('says nothing for a binary file or past the edit bound', () => {
    expect(isBinary(new Uint8Array([1, 0, 2]))).toBe(true);
    expect(lineCounts(new Uint8Array([0, 1]), t('a\n'))).toBeNull();
    expect(lineCounts(t('a\nb\nc\n'), t('x\ny\nz\n'), 2)).toBeNull();
  });

  it('the edit bound gives the same answer with or without the shortcut: a moved block is within it, a rewrite is not', () => {
    // Reordered lines: every count equal on both sides (lower bound 0), yet 4 edits.
    expect(countLines([1, 2, 3, 4, 9], [3, 4, 1, 2, 9], 4)).toEqual({ added: 2, removed: 2 });
    expect(countLines([1, 2, 3, 4, 9], [3, 4, 1, 2, 9], 3)).toBeNull();
    // A rewrite: 6 lines in one side only, past a bound of 5 (the shortcut answers), within a bound of 6.
    expect(countLines([1, 2, 3], [4, 5, 6], 5)).toBeNull();
    expect(countLines([1, 2, 3], [4, 5, 6], 6)).toEqual({ added: 3, removed: 3 });
  });

  it('hashed lines (what the reader keeps per blob) count the same as the text lines', () => {
    const pairs: Array<[string, string]> = [
      ['one\ntwo\nthree\nfour\nfive\nsix\n', 'zero\none\nthree\nfour!\nfive\nsix\nseven\n'],
      ['a\nb', 'a\nb\n'],
      ['', 'x\n'],
      ['中文\n', '中文\n更多\n'],
    ];
    for (const [a, b] of pairs) expect(countLines(lineHashes(t(a)), lineHashes(t(b)))).toEqual(lineCounts(t(a), t(b)));
    expect(lineHashes(t('a\nb')).length).toBe(2);
    expect(lineHashes(t('')).length).toBe(0);
  });
});
