/**
 * Lines added and removed between two versions of a text file, as `git diff --numstat` counts
 * them: a shortest edit script over lines (Myers' O(ND) algorithm), after the common head and
 * tail are set aside. Pure TypeScript (the browser worker and the CLI).
 */

/** A file git would call binary: a NUL byte in its first 8000 bytes. */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** The lines of a file (each with its end of line), interned as numbers shared by both sides (and by every version of a history). */
export function lineIds(bytes: Uint8Array, ids: Map<string, number>, decoder: TextDecoder = new TextDecoder()): number[] {
  const text = decoder.decode(bytes);
  const out: number[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    end = end < 0 ? text.length : end + 1;
    const line = text.slice(start, end);
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    out.push(id);
    start = end;
  }
  return out;
}

/**
 * The lines of a file (each with its end of line) as numbers: two independent 32-bit hashes of
 * the line's bytes, joined into one 53-bit value. No text is decoded and no string is made; two
 * different lines share a number with a chance of about 2^-53 per pair.
 */
export function lineHashes(bytes: Uint8Array): Float64Array {
  let count = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++;
  if (bytes.length && bytes[bytes.length - 1] !== 10) count++;
  const out = new Float64Array(count);
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9;
  let at = 0;
  let start = 0;
  // Line by line (the end found natively), so the byte loop has no end-of-line test in it.
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    end = end < 0 ? bytes.length : end + 1;
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995) ^ (h2 >>> 15);
    }
    out[at++] = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
    h1 = 0x811c9dc5;
    h2 = 0x9e3779b9;
    start = end;
  }
  return out;
}

/** The length of the shortest edit script between a and b, or -1 beyond `maxD` edits. */
function editDistance(a: ArrayLike<number>, b: ArrayLike<number>, maxD: number): number {
  const n = a.length;
  const m = b.length;
  const offset = maxD + 1;
  const v = new Int32Array(2 * maxD + 3);
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return -1;
}

function typedSlice(a: ArrayLike<number>, start: number, end: number): ArrayLike<number> {
  if (a instanceof Float64Array || a instanceof Int32Array) return a.subarray(start, end);
  return Array.prototype.slice.call(a, start, end) as number[];
}

/** The number of lines (with multiplicity) in one side and not the other: no edit script is shorter. */
function editLowerBound(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < a.length; i++) counts.set(a[i]!, (counts.get(a[i]!) ?? 0) + 1);
  for (let i = 0; i < b.length; i++) counts.set(b[i]!, (counts.get(b[i]!) ?? 0) - 1);
  let bound = 0;
  for (const c of counts.values()) bound += Math.abs(c);
  return bound;
}

export type LineCounts = { added: number; removed: number } | null;

/**
 * Lines added and removed from `before` to `after` (either may be null: the file is new or
 * gone). Null for a binary file, or when the edit script would exceed `maxD` edits (a very
 * large rewrite: the counts are not worth the time).
 */
export function lineCounts(before: Uint8Array | null, after: Uint8Array | null, maxD = 20_000): LineCounts {
  if ((before && isBinary(before)) || (after && isBinary(after))) return null;
  const ids = new Map<string, number>();
  const decoder = new TextDecoder();
  return countLines(before ? lineIds(before, ids, decoder) : [], after ? lineIds(after, ids, decoder) : [], maxD);
}

/** The same over interned lines (the reader keeps each blob's lines between its two commits). */
export function countLines(a: ArrayLike<number>, b: ArrayLike<number>, maxD = 20_000): LineCounts {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n === 0 || m === 0) return { added: m, removed: n };
  const ma = typedSlice(a, head, a.length - tail);
  const mb = typedSlice(b, head, b.length - tail);
  // Every line whose count differs between the two sides is one edit at least: when that lower
  // bound already passes maxD the answer is null, without the O((n+m)·maxD) search to find it.
  if (n + m > maxD && editLowerBound(ma, mb) > maxD) return null;
  const d = editDistance(ma, mb, Math.min(maxD, n + m));
  if (d < 0) return null;
  // d = removed + added, and added - removed = m - n.
  const added = (d + m - n) / 2;
  return { added, removed: d - added };
}
