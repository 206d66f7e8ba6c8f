/**
 * The Merkle tree of RFC 6962 §2.1 / RFC 9162 §2.1: leaf = SHA-256(0x00 ‖ data),
 * node = SHA-256(0x01 ‖ left ‖ right), the empty tree hashes to SHA-256(""), and a
 * tree of n leaves splits at the largest power of two smaller than n.
 * Audit paths (PATH) and consistency proofs (PROOF) are generated as the RFC defines
 * them and verified with the RFC 9162 §2.1.3.2 / §2.1.4.2 algorithms.
 */
import { concat, equalBytes, sha256 } from './bytes.ts';

const LEAF_PREFIX = new Uint8Array([0]);
const NODE_PREFIX = new Uint8Array([1]);

export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(concat(LEAF_PREFIX, data));
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concat(NODE_PREFIX, left, right));
}

export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** Largest power of two strictly smaller than n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * An append-only list of leaf hashes with a cache of complete subtrees, so a root or
 * proof over any prefix costs O(log n) node hashes once the cache is warm. Subtrees of
 * RFC 6962's recursion are always aligned to their size, and an aligned complete
 * subtree never changes as the log grows, so cached values stay valid forever.
 */
export class MerkleLog {
  readonly leaves: Uint8Array[] = [];
  /** levels[h][i] = hash of leaves [i·2^h, (i+1)·2^h), filled lazily. */
  private readonly levels: (Uint8Array | undefined)[][] = [];

  get size(): number {
    return this.leaves.length;
  }

  append(hash: Uint8Array): number {
    this.leaves.push(hash);
    return this.leaves.length - 1;
  }

  /** Drops leaves past `size` (used when a sealing transaction did not commit). */
  truncate(size: number): void {
    if (size >= this.leaves.length) return;
    this.leaves.length = size;
    for (let h = 0; h < this.levels.length; h++) {
      const level = this.levels[h];
      const keep = Math.floor(size / 2 ** h);
      if (level && level.length > keep) level.length = keep;
    }
  }

  /** MTH(D[start:end]). */
  hashRange(start: number, end: number): Uint8Array {
    const n = end - start;
    if (n < 0 || end > this.leaves.length) throw new RangeError(`range ${start}..${end} outside a log of ${this.leaves.length}`);
    if (n === 0) return EMPTY_ROOT;
    if (n === 1) return this.leaves[start] as Uint8Array;
    const isPerfect = (n & (n - 1)) === 0 && start % n === 0;
    if (isPerfect) {
      const h = Math.log2(n);
      const level = (this.levels[h] ??= []);
      const cached = level[start / n];
      if (cached) return cached;
      const half = n / 2;
      const value = nodeHash(this.hashRange(start, start + half), this.hashRange(start + half, end));
      level[start / n] = value;
      return value;
    }
    const k = splitPoint(n);
    return nodeHash(this.hashRange(start, start + k), this.hashRange(start + k, end));
  }

  root(size = this.leaves.length): Uint8Array {
    return this.hashRange(0, size);
  }

  /** PATH(m, D[0:size]) of RFC 6962 §2.1.1, leaf-side first. */
  inclusionProof(index: number, size = this.leaves.length): Uint8Array[] {
    if (!(index >= 0 && index < size && size <= this.leaves.length)) throw new RangeError(`no leaf ${index} in a tree of ${size}`);
    const path: Uint8Array[] = [];
    const walk = (m: number, start: number, end: number) => {
      const n = end - start;
      if (n === 1) return;
      const k = splitPoint(n);
      if (m < k) {
        walk(m, start, start + k);
        path.push(this.hashRange(start + k, end));
      } else {
        walk(m - k, start + k, end);
        path.push(this.hashRange(start, start + k));
      }
    };
    walk(index, 0, size);
    return path;
  }

  /** PROOF(first, D[0:second]) of RFC 6962 §2.1.2. */
  consistencyProof(first: number, second = this.leaves.length): Uint8Array[] {
    if (!(first >= 0 && first <= second && second <= this.leaves.length)) throw new RangeError(`no consistency proof from ${first} to ${second}`);
    const proof: Uint8Array[] = [];
    if (first === 0 || first === second) return proof;
    const sub = (m: number, start: number, end: number, isWholeOld: boolean) => {
      const n = end - start;
      if (m === n) {
        if (!isWholeOld) proof.push(this.hashRange(start, end));
        return;
      }
      const k = splitPoint(n);
      if (m <= k) {
        sub(m, start, start + k, isWholeOld);
        proof.push(this.hashRange(start + k, end));
      } else {
        sub(m - k, start + k, end, false);
        proof.push(this.hashRange(start, start + k));
      }
    };
    sub(first, 0, second, true);
    return proof;
  }
}

/** The root of a list of leaf hashes (convenience for small trees and tests). */
export function rootOf(leafHashes: Uint8Array[]): Uint8Array {
  const log = new MerkleLog();
  for (const h of leafHashes) log.append(h);
  return log.root();
}

/** RFC 9162 §2.1.3.2: the root an audit path leads to, or null when the path is malformed. */
export function rootFromInclusionProof(leaf: Uint8Array, index: number, size: number, path: Uint8Array[]): Uint8Array | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  // Bit operations on numbers are 32-bit; use arithmetic so sizes past 2^31 stay correct.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  const isOdd = (x: number) => x % 2 === 1;
  const half = (x: number) => Math.floor(x / 2);
  for (const p of path) {
    if (sn === 0) return null;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

export function verifyInclusion(leaf: Uint8Array, index: number, size: number, path: Uint8Array[], root: Uint8Array): boolean {
  const computed = rootFromInclusionProof(leaf, index, size, path);
  return computed !== null && equalBytes(computed, root);
}

/** RFC 9162 §2.1.4.2. */
export function verifyConsistency(first: number, second: number, firstRoot: Uint8Array, secondRoot: Uint8Array, proof: Uint8Array[]): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && equalBytes(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0 && equalBytes(firstRoot, EMPTY_ROOT);
  if (proof.length === 0) return false;
  const isOdd = (x: number) => x % 2 === 1;
  const half = (x: number) => Math.floor(x / 2);
  const isPowerOfTwo = Number.isInteger(Math.log2(first));
  const path = isPowerOfTwo ? [firstRoot, ...proof] : proof;
  let fn = first - 1;
  let sn = second - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Uint8Array;
  let sr = path[0] as Uint8Array;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalBytes(fr, firstRoot) && equalBytes(sr, secondRoot);
}

// Function forms over a plain list of leaf hashes, for callers that hold the list themselves.
export function rootFromLeaves(leaves: readonly Uint8Array[], from = 0, to = leaves.length): Uint8Array {
  return rootOf(leaves.slice(from, to));
}

export function inclusionProof(leaves: readonly Uint8Array[], index: number, size = leaves.length): Uint8Array[] {
  return logOf(leaves, size).inclusionProof(index, size);
}

export function consistencyProof(leaves: readonly Uint8Array[], oldSize: number, newSize = leaves.length): Uint8Array[] {
  return logOf(leaves, newSize).consistencyProof(oldSize, newSize);
}

function logOf(leaves: readonly Uint8Array[], size: number): MerkleLog {
  const log = new MerkleLog();
  for (const h of leaves.slice(0, size)) log.append(h);
  return log;
}
