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

/** The lines of a file (each with its end of line), interned as numbers shared by both sides. */
function lineIds(bytes: Uint8Array, ids: Map<string, number>, decoder: TextDecoder): number[] {
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

/** The length of the shortest edit script between a and b, or -1 beyond `maxD` edits. */
function editDistance(a: number[], b: number[], maxD: number): number {
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
  const a = before ? lineIds(before, ids, decoder) : [];
  const b = after ? lineIds(after, ids, decoder) : [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ma = a.slice(head, a.length - tail);
  const mb = b.slice(head, b.length - tail);
  if (ma.length === 0 || mb.length === 0) return { added: mb.length, removed: ma.length };
  const d = editDistance(ma, mb, Math.min(maxD, ma.length + mb.length));
  if (d < 0) return null;
  // d = removed + added, and added - removed = |mb| - |ma|.
  const added = (d + mb.length - ma.length) / 2;
  return { added, removed: d - added };
}
