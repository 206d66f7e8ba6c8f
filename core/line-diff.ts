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
 * the line's bytes (murmur3-like, four bytes a step, each with its own constants), joined into
 * one 53-bit value. No text is decoded and no string is made; two different lines share a
 * number with a chance of about 2^-53 per pair. Written into `into` when it is long enough.
 */
export function lineHashes(bytes: Uint8Array): Float64Array {
  const { out, count } = hashLines(bytes, new Float64Array(Math.min(bytes.length, 1024)));
  return out.subarray(0, count);
}

/** lineHashes into `out`, or into a buffer twice as large each time it is full. */
function hashLines(bytes: Uint8Array, out: Float64Array): { out: Float64Array; count: number } {
  let at = 0;
  let start = 0;
  // Line by line (the end found natively), so the word loop has no end-of-line test in it.
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    end = end < 0 ? bytes.length : end + 1;
    const length = end - start;
    let h1 = 0x811c9dc5 ^ length;
    let h2 = 0x9e3779b9 ^ Math.imul(length, 0x27d4eb2f);
    let i = start;
    for (; i + 4 <= end; i += 4) {
      const w = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
      let k = Math.imul(w, 0xcc9e2d51);
      k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      h1 ^= k;
      h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
      let q = Math.imul(w, 0x85ebca6b);
      q = Math.imul((q << 17) | (q >>> 15), 0xc2b2ae35);
      h2 ^= q;
      h2 = (Math.imul((h2 << 15) | (h2 >>> 17), 9) + 0x38b34ae5) | 0;
    }
    if (i < end) {
      let w = 0;
      for (let shift = 0; i < end; i++, shift += 8) w |= bytes[i]! << shift;
      let k = Math.imul(w, 0xcc9e2d51);
      h1 ^= Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      let q = Math.imul(w, 0x85ebca6b);
      h2 ^= Math.imul((q << 17) | (q >>> 15), 0xc2b2ae35);
    }
    h1 ^= h1 >>> 16;
    h1 = Math.imul(h1, 0x85ebca6b);
    h1 ^= h1 >>> 13;
    h1 = Math.imul(h1, 0xc2b2ae35);
    h1 ^= h1 >>> 16;
    h2 ^= h2 >>> 15;
    h2 = Math.imul(h2, 0x2c1b3c6d);
    h2 ^= h2 >>> 12;
    h2 = Math.imul(h2, 0x297a2d39);
    h2 ^= h2 >>> 15;
    if (at === out.length) {
      const grown = new Float64Array(Math.max(16, 2 * out.length));
      grown.set(out);
      out = grown;
    }
    out[at++] = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
    start = end;
  }
  return { out, count: at };
}

/** Where blobLineCounts hashes the lines of each side (grown as needed: a buffer per call costs a browser worker microseconds). */
let hashesA: Float64Array = new Float64Array(4096);
let hashesB: Float64Array = new Float64Array(4096);

/** The number of lines of a text (the last one may lack its end of line). */
export function lineCount(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let count = 0;
  for (let i = bytes.indexOf(10, start); i >= 0 && i < end; i = bytes.indexOf(10, i + 1)) count++;
  if (end > start && bytes[end - 1] !== 10) count++;
  return count;
}

/** The length of the common head of two byte strings, four bytes at a time where both are aligned. */
function commonHead(a: Uint8Array, b: Uint8Array, max: number): number {
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && max >= 64) {
    const wa = new Uint32Array(a.buffer, a.byteOffset, max >>> 2);
    const wb = new Uint32Array(b.buffer, b.byteOffset, max >>> 2);
    let w = 0;
    while (w < wa.length && wa[w] === wb[w]) w++;
    i = w * 4;
  }
  while (i < max && a[i] === b[i]) i++;
  return i;
}

/** The length of the common tail of two byte strings, at most `max`. */
function commonTail(a: Uint8Array, b: Uint8Array, max: number): number {
  let i = a.length - 1;
  let j = b.length - 1;
  const stop = a.length - max;
  while (i >= stop && a[i] === b[j]) {
    i--;
    j--;
  }
  return a.length - 1 - i;
}

/**
 * Lines added and removed from one text blob to another (null: the file is new or gone), as
 * countLines answers over every line of both: the common head and tail are found on the bytes
 * first (most commits change a few lines of a large file), cut back to whole lines, and only
 * the lines between are hashed and diffed. Both blobs must be text (see isBinary).
 */
export function blobLineCounts(before: Uint8Array | null, after: Uint8Array | null, maxD = 20_000): LineCounts {
  if (!before || !after) return { added: after ? lineCount(after) : 0, removed: before ? lineCount(before) : 0 };
  const la = before.length;
  const lb = after.length;
  const min = Math.min(la, lb);
  // The head: every whole line in the common bytes (a line ends with its "\n").
  const same = commonHead(before, after, min);
  if (same === la && la === lb) return { added: 0, removed: 0 };
  const head = same === 0 ? 0 : before.lastIndexOf(10, same - 1) + 1;
  // The tail: the common bytes after the head, from the first position that starts a line in both.
  const tailBytes = commonTail(before, after, min - head);
  let tail = 0;
  if (tailBytes > 0) {
    const sa = la - tailBytes;
    const sb = lb - tailBytes;
    if ((sa === head || before[sa - 1] === 10) && (sb === head || after[sb - 1] === 10)) tail = tailBytes;
    else {
      const nl = before.indexOf(10, sa);
      if (nl >= 0) tail = la - (nl + 1);
    }
  }
  const middleA = before.subarray(head, la - tail);
  const middleB = after.subarray(head, lb - tail);
  const a = hashLines(middleA, hashesA);
  const b = hashLines(middleB, hashesB);
  hashesA = a.out;
  hashesB = b.out;
  return countLines(a.out.subarray(0, a.count), b.out.subarray(0, b.count), maxD);
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

/** Bit-parallel LCS is used past this many lines (Myers' search is cheaper for the small ones). */
const BIT_PARALLEL_MIN_LINES = 64;
/** The most 32-bit mask words bit-parallel LCS may allocate (4 MiB); past it, Myers' search. */
const BIT_PARALLEL_MAX_WORDS = 2 ** 20;

/**
 * The length of the shortest edit script between a and b (insertions and deletions of lines:
 * n + m - 2 * LCS), with the bit-parallel LCS of Allison and Dix (Hyyrö's formulation): one
 * pass over b, each step O(n / 32) word operations, whatever the distance. Myers' search costs
 * about d² / 2 steps, which for a file rewritten in many places (d in the thousands) is far
 * more. -1 when the masks would take more than BIT_PARALLEL_MAX_WORDS.
 */
function editDistanceBitParallel(a: ArrayLike<number>, b: ArrayLike<number>): number {
  // The masks are built over the shorter side (the LCS is symmetric).
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  const words = (n + 31) >>> 5;
  // Only the lines of a that also occur in b get a mask: the others never match.
  const inB = new Set<number>();
  for (let j = 0; j < m; j++) inB.add(b[j]!);
  const row = new Map<number, number>();
  for (let i = 0; i < n; i++) if (inB.has(a[i]!) && !row.has(a[i]!)) row.set(a[i]!, row.size);
  if (row.size * words > BIT_PARALLEL_MAX_WORDS) return -1;
  const masks = new Int32Array(row.size * words);
  for (let i = 0; i < n; i++) {
    const r = row.get(a[i]!);
    if (r !== undefined) masks[r * words + (i >>> 5)]! |= 1 << (i & 31);
  }
  // V: a 1 for each position of a not (yet) in the LCS; V' = (V + (V & M)) | (V & ~M).
  const v = new Int32Array(words).fill(-1);
  for (let j = 0; j < m; j++) {
    const r = row.get(b[j]!);
    if (r === undefined) continue;
    const base = r * words;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const x = v[w]!;
      const mask = masks[base + w]!;
      const u = x & mask;
      const sum = (x >>> 0) + (u >>> 0) + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = sum | (x & ~mask);
    }
  }
  let lcs = 0;
  for (let i = 0; i < n; i++) if (!(v[i >>> 5]! & (1 << (i & 31)))) lcs++;
  return n + m - 2 * lcs;
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
  const ma = head || tail ? typedSlice(a, head, a.length - tail) : a;
  const mb = head || tail ? typedSlice(b, head, b.length - tail) : b;
  // Every line whose count differs between the two sides is one edit at least: when that lower
  // bound already passes maxD the answer is null, without the O((n+m)·maxD) search to find it.
  if (n + m > maxD && editLowerBound(ma, mb) > maxD) return null;
  // Myers' search first, bounded to about what the bit-parallel pass would cost (most edits are
  // a few lines), then the bit-parallel LCS, whose cost does not grow with the distance.
  const bound = Math.min(maxD, n + m);
  const cheap = n + m > BIT_PARALLEL_MIN_LINES ? Math.min(bound, Math.ceil(Math.sqrt((n * m) / 16))) : bound;
  let d = editDistance(ma, mb, cheap);
  if (d < 0 && cheap < bound) {
    d = editDistanceBitParallel(ma, mb);
    if (d < 0) d = editDistance(ma, mb, bound);
  }
  if (d < 0 || d > maxD) return null;
  // d = removed + added, and added - removed = m - n.
  const added = (d + m - n) / 2;
  return { added, removed: d - added };
}
