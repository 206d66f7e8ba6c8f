/**
 * A direct reader of a repository's pack files (index v2, SHA-1 object ids), for the commit
 * recorder (core/repos-git.ts). isomorphic-git reads a packed object by inflating it with pako
 * and, for a delta, inflating its whole base chain again on most reads: on the Underscore.js
 * fixture that was about half of the 20–30 s the recorder took. Here each object is inflated
 * once with fflate into a buffer of the size its header gives, and resolved objects are kept
 * in a cache bounded in bytes, so a delta chain walks only up to its nearest cached base.
 *
 * Pure TypeScript (the browser worker and the CLI). What it cannot answer (a loose object, an
 * object outside every pack, a pack it does not understand) it answers null, and the caller
 * asks isomorphic-git: the reader only ever makes reads faster, never different.
 */
import { unzlibSync } from 'fflate';
import { toHex } from './ledger/bytes.ts';

export type RawObject = { type: 'commit' | 'tree' | 'blob' | 'tag'; content: Uint8Array };
/** An object read from a pack: `at` is where its content lies in the reader's ring (see ByteRing), -1 when it has its own buffer. */
export type PackObject = RawObject & { at: number };

const TYPES = [null, 'commit', 'tree', 'blob', 'tag'] as const;
const OFS_DELTA = 6;
const REF_DELTA = 7;

type PromisesFs = { readdir(path: string): Promise<unknown>; readFile(path: string): Promise<unknown> };

class Pack {
  readonly data: Uint8Array;
  private readonly idx: Uint8Array;
  private readonly view: DataView;
  private readonly count: number;
  private readonly names: number;
  private readonly offsets32: number;
  private readonly offsets64: number;
  /** Every entry's offset, sorted: where an entry's compressed data ends (made on first use). */
  private sorted: Float64Array | null = null;

  /** Nothing is indexed up front: an id is found by binary search in the index, as git does. */
  constructor(idx: Uint8Array, data: Uint8Array) {
    this.data = data;
    this.idx = idx;
    this.view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
    if (this.view.getUint32(0) !== 0xff744f63 || this.view.getUint32(4) !== 2) throw new Error('pack index: not version 2');
    this.count = this.view.getUint32(8 + 255 * 4);
    this.names = 8 + 256 * 4;
    this.offsets32 = this.names + this.count * 20 + this.count * 4;
    this.offsets64 = this.offsets32 + this.count * 4;
  }

  private offsetAt(i: number): number {
    const offset = this.view.getUint32(this.offsets32 + i * 4);
    if (!(offset & 0x80000000)) return offset;
    const at = this.offsets64 + (offset & 0x7fffffff) * 8;
    return this.view.getUint32(at) * 2 ** 32 + this.view.getUint32(at + 4);
  }

  /** The offset of the object `oid` (40 hex digits) in this pack, or undefined. */
  find(oid: string): number | undefined {
    if (oid.length !== 40) return undefined;
    const key = new Uint8Array(20);
    for (let i = 0; i < 20; i++) {
      const byte = parseInt(oid.slice(2 * i, 2 * i + 2), 16);
      if (Number.isNaN(byte)) return undefined;
      key[i] = byte;
    }
    let lo = key[0] === 0 ? 0 : this.view.getUint32(8 + (key[0]! - 1) * 4);
    let hi = this.view.getUint32(8 + key[0]! * 4);
    const idx = this.idx;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.names + mid * 20;
      let cmp = 0;
      for (let k = 0; k < 20 && cmp === 0; k++) cmp = idx[at + k]! - key[k]!;
      if (cmp === 0) return this.offsetAt(mid);
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  private endOf(offset: number): number | undefined {
    if (!this.sorted) {
      this.sorted = new Float64Array(this.count);
      for (let i = 0; i < this.count; i++) this.sorted[i] = this.offsetAt(i);
      this.sorted.sort();
    }
    const s = this.sorted;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    if (s[lo] !== offset) return undefined;
    return lo + 1 < s.length ? s[lo + 1]! : this.data.length - 20;
  }

  /** The entry at `offset`: its type number, inflated size, where its zlib data starts and ends, and a delta's base. */
  entry(offset: number): { type: number; size: number; start: number; end: number; baseOffset?: number; baseOid?: string } {
    const d = this.data;
    let p = offset;
    let c = d[p++]!;
    const type = (c >> 4) & 7;
    let size = c & 15;
    let shift = 4;
    while (c & 0x80) {
      c = d[p++]!;
      size += (c & 0x7f) * 2 ** shift;
      shift += 7;
    }
    let baseOffset: number | undefined;
    let baseOid: string | undefined;
    if (type === OFS_DELTA) {
      c = d[p++]!;
      let back = c & 0x7f;
      while (c & 0x80) {
        c = d[p++]!;
        back = (back + 1) * 128 + (c & 0x7f);
      }
      baseOffset = offset - back;
    } else if (type === REF_DELTA) {
      baseOid = toHex(d.subarray(p, p + 20));
      p += 20;
    }
    const end = this.endOf(offset);
    if (end === undefined) throw new Error(`pack: no entry at ${offset}`);
    return { type, size, start: p, end, baseOffset, baseOid };
  }

  /** Inflates the entry's data into `into` (exactly its inflated size). */
  inflate(start: number, end: number, into: Uint8Array): Uint8Array {
    const size = into.length;
    const out = unzlibSync(this.data.subarray(start, end), { out: into });
    if (out.length !== size) throw new Error(`pack: an object inflated to ${out.length} bytes, its header says ${size}`);
    return out;
  }
}

/** Reads a delta's base-relative size varint at `at`. */
function deltaSize(delta: Uint8Array, at: { p: number }): number {
  let size = 0;
  let shift = 0;
  let c: number;
  do {
    c = delta[at.p++]!;
    size += (c & 0x7f) * 2 ** shift;
    shift += 7;
  } while (c & 0x80);
  return size;
}

/** The size of a delta's result, from its header. */
export function deltaResultSize(delta: Uint8Array): number {
  const at = { p: 0 };
  deltaSize(delta, at);
  return deltaSize(delta, at);
}

/** git's delta format: copy ranges of the base and insert literal bytes (into `into` when given: exactly the result's size). */
export function applyDelta(delta: Uint8Array, base: Uint8Array, into?: Uint8Array): Uint8Array {
  const at = { p: 0 };
  const baseSize = deltaSize(delta, at);
  if (baseSize !== base.length) throw new Error(`delta: base is ${base.length} bytes, the delta expects ${baseSize}`);
  const size = deltaSize(delta, at);
  if (into && into.length !== size) throw new Error(`delta: the result is ${size} bytes, not ${into.length}`);
  const out = into ?? new Uint8Array(size);
  let o = 0;
  let p = at.p;
  while (p < delta.length) {
    const op = delta[p++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      if (op & 0x01) offset = delta[p++]!;
      if (op & 0x02) offset |= delta[p++]! << 8;
      if (op & 0x04) offset |= delta[p++]! << 16;
      if (op & 0x08) offset += delta[p++]! * 2 ** 24;
      if (op & 0x10) size = delta[p++]!;
      if (op & 0x20) size |= delta[p++]! << 8;
      if (op & 0x40) size |= delta[p++]! << 16;
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || o + size > out.length) throw new Error('delta: copy out of range');
      // A subarray per copy costs more than the copy itself for the short ones, which most are.
      if (size < 64) for (let k = 0; k < size; k++) out[o + k] = base[offset + k]!;
      else out.set(base.subarray(offset, offset + size), o);
      o += size;
    } else if (op) {
      if (o + op > out.length || p + op > delta.length) throw new Error('delta: insert out of range');
      for (let k = 0; k < op; k++) out[o + k] = delta[p + k]!;
      o += op;
      p += op;
    } else {
      throw new Error('delta: reserved opcode 0');
    }
  }
  if (o !== out.length) throw new Error(`delta: wrote ${o} bytes of ${out.length}`);
  return out;
}

/**
 * One buffer handed out in turn, region after region, wrapping around: a region stays valid
 * until `size` more bytes have been handed out after it (valid() tells). Resolved objects live
 * here instead of in a buffer each: a browser worker pays microseconds for every ArrayBuffer
 * it makes and for every fresh page it touches, and a history is hundreds of megabytes of
 * objects, most needed only for a moment. Reused memory costs nothing of the sort.
 */
export class ByteRing {
  readonly size: number;
  private buffer: Uint8Array | null = null;
  /** Bytes handed out so far (skipped ends of the buffer included): the next region's position. */
  private head = 0;

  constructor(size: number) {
    this.size = size;
  }

  /** A region of n bytes (at most size / 4) and its position, or null for a larger one (the caller gives it its own buffer). */
  alloc(n: number): { at: number; bytes: Uint8Array } | null {
    if (n > this.size / 4) return null;
    this.buffer ??= new Uint8Array(this.size);
    let offset = this.head % this.size;
    if (offset + n > this.size) {
      this.head += this.size - offset;
      offset = 0;
    }
    const at = this.head;
    this.head += n;
    return { at, bytes: this.buffer.subarray(offset, offset + n) };
  }

  /** Whether the region handed out at `at` still holds what was written there. */
  valid(at: number): boolean {
    return at >= 0 && this.head - at <= this.size;
  }

  /** Bytes handed out since the region at `at`. */
  age(at: number): number {
    return this.head - at;
  }

  /** Whether the region at `at` would still be valid after `n` more bytes are handed out. */
  survives(at: number, n: number): boolean {
    return this.head + 2 * n - at <= this.size; // n for the region, at most n more for a skipped end
  }
}

/** A buffer reused for short-lived data, grown as needed. */
class Scratch {
  private buffer = new Uint8Array(0);
  private used = 0;
  reset() {
    this.used = 0;
  }
  /** n bytes after those taken since the last reset (a larger buffer when they do not fit: the earlier ones stay where they are). */
  take(n: number): Uint8Array {
    if (this.used + n > this.buffer.length) {
      this.buffer = new Uint8Array(Math.max(n, 2 * this.buffer.length, 64 * 1024));
      this.used = 0;
    }
    const out = this.buffer.subarray(this.used, this.used + n);
    this.used += n;
    return out;
  }
}

type Resolved = { type: number; content: Uint8Array; at: number };

/**
 * Every pack of a repository, and a cache of resolved objects (delta bases, mostly) in a ring
 * of `cacheBytes`.
 *
 * What read() answers lives in the ring: it stays valid until about `cacheBytes` more bytes of
 * objects have been read (isValid() tells, by its `at`). A caller that keeps an object across
 * other reads checks it, or copies it.
 */
export class PackReader {
  private readonly cache = new Map<string, { type: number; content: Uint8Array; at: number }>();
  private readonly packs: Pack[];
  private readonly ring: ByteRing;
  /** Where a chain's deltas are inflated (they are used once), and a cached base copied when the ring is about to reuse its place. */
  private readonly deltas = new Scratch();
  private readonly bases = new Scratch();

  private constructor(packs: Pack[], cacheBytes: number) {
    this.packs = packs;
    this.ring = new ByteRing(cacheBytes);
  }

  /** Opens the packs under `<gitdir>/objects/pack`; a pack it cannot read is left to isomorphic-git. */
  static async open(fs: PromisesFs, gitdir: string, cacheBytes = 40 * 2 ** 20): Promise<PackReader> {
    const dir = `${gitdir}/objects/pack`;
    let names: string[] = [];
    try {
      names = (await fs.readdir(dir)) as string[];
    } catch {
      /* no packs */
    }
    const packs: Pack[] = [];
    for (const name of names.filter((n) => n.endsWith('.idx')).sort()) {
      try {
        const idx = (await fs.readFile(`${dir}/${name}`)) as Uint8Array;
        const data = (await fs.readFile(`${dir}/${name.slice(0, -4)}.pack`)) as Uint8Array;
        packs.push(new Pack(idx, data));
      } catch {
        /* an index without its pack, or a format this reader does not know */
      }
    }
    return new PackReader(packs, cacheBytes);
  }

  /** Whether an object read() answered still holds its content (one outside the ring always does). */
  isValid(object: { at: number }): boolean {
    return object.at < 0 || this.ring.valid(object.at);
  }

  /** The object's type and content, or null when no pack holds it (or it is one this reader cannot resolve). */
  read(oid: string): PackObject | null {
    for (const pack of this.packs) {
      const offset = pack.find(oid);
      if (offset === undefined) continue;
      try {
        const r = this.resolve(pack, offset);
        if (!r) return null;
        const type = TYPES[r.type];
        return type ? { type, content: r.content, at: r.at } : null;
      } catch {
        return null; // isomorphic-git reads it, or reports what is wrong in its own words
      }
    }
    return null;
  }

  /** A buffer of n bytes for an object: in the ring, or its own when too large for it. */
  private place(n: number): { at: number; bytes: Uint8Array } {
    return this.ring.alloc(n) ?? { at: -1, bytes: new Uint8Array(n) };
  }

  private remember(key: string, value: Resolved) {
    if (value.at < 0) return; // too large for the ring
    this.cache.delete(key);
    this.cache.set(key, value);
    // Entries are in the order they were placed (a hit is placed again): the oldest go first.
    for (const [k, v] of this.cache) {
      if (this.ring.valid(v.at)) break;
      this.cache.delete(k);
    }
  }

  /** Resolves the entry at `offset`, walking its delta chain down to a whole object or a cached one, then back up. */
  private resolve(pack: Pack, offset: number): Resolved | null {
    const packIndex = this.packs.indexOf(pack);
    const chain: Array<{ offset: number; delta: Uint8Array }> = [];
    let base: Resolved | null = null;
    this.deltas.reset();
    this.bases.reset();
    let at = offset;
    for (let depth = 0; depth < 10_000; depth++) {
      const key = `${packIndex}:${at}`;
      const hit = this.cache.get(key);
      if (hit && this.ring.valid(hit.at)) {
        base = hit;
        break;
      }
      const e = pack.entry(at);
      if (e.type === OFS_DELTA || e.type === REF_DELTA) {
        chain.push({ offset: at, delta: pack.inflate(e.start, e.end, this.deltas.take(e.size)) });
        if (e.type === OFS_DELTA) at = e.baseOffset!;
        else {
          const next = pack.find(e.baseOid!);
          if (next === undefined) return null; // a base in another pack or loose: left to isomorphic-git
          at = next;
        }
      } else {
        const place = this.place(e.size);
        base = { type: e.type, content: pack.inflate(e.start, e.end, place.bytes), at: place.at };
        this.remember(key, base);
        break;
      }
    }
    if (!base) return null;
    if (!chain.length) {
      // A hit asked for again: placed anew when the ring is about to reuse its place (most recently used last).
      if (base.at >= 0 && this.ring.age(base.at) > this.ring.size / 2) {
        let from = base.content;
        if (!this.ring.survives(base.at, from.length)) {
          from = this.bases.take(from.length);
          from.set(base.content);
        }
        const place = this.place(from.length);
        place.bytes.set(from);
        base = { type: base.type, content: place.bytes, at: place.at };
        this.remember(`${packIndex}:${offset}`, base);
      }
      return base;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const delta = chain[i]!.delta;
      const size = deltaResultSize(delta);
      // The base must outlive the placing of the result: copied aside when the ring would reuse its place.
      let from: Uint8Array = base.content;
      if (base.at >= 0 && !this.ring.survives(base.at, size)) {
        from = this.bases.take(from.length);
        from.set(base.content);
      }
      const place = this.place(size);
      base = { type: base.type, content: applyDelta(delta, from, place.bytes), at: place.at };
      // Every object of a chain is the base of the one above it, and often of others; the result is often read again.
      this.remember(`${packIndex}:${chain[i]!.offset}`, base);
    }
    return base;
  }
}
