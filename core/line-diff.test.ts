import { describe, expect, it } from 'vitest';
import { blobLineCounts, countLines, isBinary, lineCount, lineCounts, lineHashes } from './line-diff.ts';

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

  it('blobLineCounts (common bytes set aside first) counts what lineCounts counts over every line', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const words = ['a', 'b', 'c', '', 'a\r', '中', 'x y'];
    for (let round = 0; round < 400; round++) {
      const lines = Array.from({ length: rand(40) }, () => words[rand(words.length)]!);
      const edited = [...lines];
      for (let e = rand(6); e > 0; e--) {
        const at = rand(edited.length + 1);
        if (rand(2)) edited.splice(at, 1);
        else edited.splice(at, 0, words[rand(words.length)]!);
      }
      const text = (ls: string[]) => ls.join('\n') + (rand(3) ? '\n' : '');
      const [a, b] = [t(text(lines)), t(text(edited))];
      expect(blobLineCounts(a, b, 20)).toEqual(lineCounts(a, b, 20));
      expect(blobLineCounts(b, a, 20)).toEqual(lineCounts(b, a, 20));
    }
    expect(blobLineCounts(null, t('a\nb'))).toEqual({ added: 2, removed: 0 });
    expect(blobLineCounts(t('a\n\n'), null)).toEqual({ added: 0, removed: 2 });
    expect(blobLineCounts(t('p\nq'), t('r\nq'))).toEqual({ added: 1, removed: 1 });
    expect(blobLineCounts(t('x\nfoo\n'), t('yfoo\n'))).toEqual({ added: 1, removed: 2 });
    expect(lineCount(t(''))).toBe(0);
  });

  it('large rewrites (the bit-parallel LCS) give the exact distance, within and past the bound', () => {
    // Reference: the LCS by dynamic programming.
    const lcs = (a: number[], b: number[]) => {
      let prev = new Array<number>(b.length + 1).fill(0);
      for (const x of a) {
        const row = [0];
        for (let j = 0; j < b.length; j++) row.push(x === b[j] ? prev[j]! + 1 : Math.max(prev[j + 1]!, row[j]!));
        prev = row;
      }
      return prev[b.length]!;
    };
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 30; round++) {
      const a = Array.from({ length: 50 + rand(300) }, () => rand(20 + round * 5));
      const b = a.filter(() => rand(4) > 0).map((x) => (rand(5) ? x : rand(40)));
      const d = a.length + b.length - 2 * lcs(a, b);
      const added = (d + b.length - a.length) / 2;
      expect(countLines(a, b, 20_000)).toEqual({ added, removed: d - added });
      expect(countLines(a, b, d)).toEqual({ added, removed: d - added });
      // (A pure insertion or deletion is counted whatever the bound: no search is made.)
      if (d !== Math.abs(a.length - b.length)) expect(countLines(a, b, d - 1)).toBeNull();
    }
  });
});
