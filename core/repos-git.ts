/**
 * Computes commit records (core/repos.ts) from a git repository, with isomorphic-git over any
 * file system it accepts: Node's `fs` in the CLI, an in-memory one built from a picked folder
 * in the browser worker (memoryFs below). Pure TypeScript: no Node module is imported here.
 *
 * The format is documented in docs/proof-format.md, "Commit records". Only the `.git`
 * directory is read; the working tree never is, and nothing but hashes and metadata leaves.
 */
import git from 'isomorphic-git';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { createSHA256, type IHasher } from 'hash-wasm';
import { PackReader, type PackObject, type RawObject } from './git-pack.ts';
import { COMMIT_CHANGES_MAX, COMMIT_RECORD_FORMAT, type CommitChange, type CommitChanges, type CommitPerson, type CommitRecord } from './repos.ts';
import { blobLineCounts, isBinary, type LineCounts } from './line-diff.ts';

/** The subset of a promise-based `fs` that isomorphic-git calls. */
export type GitFs = { promises: Record<string, (...args: never[]) => Promise<unknown>> } | Record<string, unknown>;

export type RepoReadReason = 'not_a_repository' | 'object_format_unsupported' | 'cancelled' | 'commit_not_found';

export class RepoReadError extends Error {
  readonly reason: RepoReadReason;
  constructor(message: string, reason: RepoReadReason) {
    super(message);
    this.reason = reason;
  }
}

export type RecordProgress = {
  /** Commits whose record is computed, of those to compute. */
  done: number;
  total: number;
  /** Bytes of blob content hashed so far. */
  bytes: number;
  /** Git objects read so far (commits, trees, blobs). */
  objects: number;
};

export type ReadOptions = {
  fs: GitFs;
  /** The `.git` directory. */
  gitdir: string;
  /** Commits already registered: the walk stops at them (their ancestors are registered too). */
  known?: ReadonlySet<string>;
  onProgress?: (p: RecordProgress) => void;
  signal?: AbortSignal;
  /** Also compute each commit's changed paths with line counts against its first parent. */
  withChanges?: boolean;
};

/** Files larger than this get no line counts (their digest is still listed). */
const LINE_COUNT_MAX_BYTES = 1024 * 1024;
/** Bounds of the reader's caches (the browser worker's memory): subtree listings, and the bytes of recent text blobs. */
const LISTING_CACHE_BYTES = 16 * 2 ** 20;
const TEXT_CACHE_BYTES = 16 * 2 ** 20;
const COUNTS_CACHE_ENTRIES = 16_384;
/** Blobs from this size are digested with WebCrypto, in batches of about WEBCRYPTO_BATCH_BYTES (its per-call cost is paid once per batch). */
const WEBCRYPTO_MIN_BYTES = 8 * 1024;
const WEBCRYPTO_BATCH_BYTES = 8 * 2 ** 20;
/** A change needing more line edits than this gets no line counts (a rewrite: the diff would cost more than it tells). */
const LINE_DIFF_MAX_EDITS = 2000;

const HEX = '0123456789abcdef';
function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
}

/**
 * SHA-256 with hash-wasm (one hasher reused: nothing awaits between its init and its digest),
 * several times faster than the pure-JS one, which stays the fallback where WebAssembly is
 * refused. Large inputs go to WebCrypto.
 */
let wasmHasher: Promise<IHasher | null> | null = null;
async function sha256(bytes: Uint8Array): Promise<string> {
  if (bytes.length >= 1024 * 1024) return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
  const hasher = await (wasmHasher ??= createSHA256().catch(() => null));
  if (!hasher) return hex(nobleSha256(bytes));
  hasher.init();
  hasher.update(bytes);
  return hasher.digest('hex');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Compares byte strings (UTF-8 path order). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Compares paths in the order of their UTF-8 bytes without encoding them (TextEncoder makes an
 * ArrayBuffer per call, which in a browser worker costs microseconds): UTF-8 byte order is code
 * point order, and UTF-16 code unit order differs from it only where a surrogate (U+10000 and
 * up) meets a unit in U+E000–U+FFFF.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Finds the end of the header (the first "\n\n") in a commit object's content. */
function headerEnd(content: Uint8Array): number {
  for (let i = 0; i + 1 < content.length; i++) if (content[i] === 10 && content[i + 1] === 10) return i;
  return content.length;
}

const emailDigests = new Map<string, string>();

/** "Name <email> seconds +zone"; a line git would not write gives the whole line as the name. */
function personOf(line: string): CommitPerson {
  const m = /^(.*?) ?<([^>]*)> (-?\d+) ([+-]\d{4})$/.exec(line);
  if (!m) return { name: line, email_sha256: hex(nobleSha256(new Uint8Array())), time: 0, tz: '+0000' };
  let email = emailDigests.get(m[2]!);
  if (email === undefined) {
    email = hex(nobleSha256(encoder.encode(m[2]!)));
    // The same few authors write most commits: each e-mail is hashed once (bounded, for a huge history).
    if (emailDigests.size > 10_000) emailDigests.clear();
    emailDigests.set(m[2]!, email);
  }
  return { name: m[1]!, email_sha256: email, time: Number(m[3]), tz: m[4]! };
}

/**
 * The repository is only read while a recorder runs, so directory listings and stats are read
 * once; a loose object missing from its directory's listing is answered "not found" without a
 * system call. isomorphic-git looks every object up loose first and lists objects/pack on every
 * read: on a packed history that was most of the time spent (a CPU profile of the fixture: stat,
 * readdir, open and the ENOENT errors, ahead of inflating).
 */
const LOOSE_MISSING = Object.assign(new Error('ENOENT: no such loose object'), { code: 'ENOENT' });
const NO_PATH = Object.assign(new Error('EINVAL: readFile without a path'), { code: 'EINVAL' });

function readOnlyCachedFs(fs: GitFs): GitFs {
  type P = Record<string, (...args: unknown[]) => Promise<unknown>>;
  const inner = ((fs as { promises?: P }).promises ?? fs) as P;
  const listings = new Map<string, Promise<string[]>>();
  const looseNames = new Map<string, Promise<Set<string>>>();
  const stats = new Map<string, Promise<unknown>>();
  const readdir = (path: string): Promise<string[]> => {
    let p = listings.get(path);
    if (!p) {
      p = inner.readdir!(path) as Promise<string[]>;
      listings.set(path, p);
    }
    return p;
  };
  const LOOSE = /^(.*\/objects\/[0-9a-f]{2})\/([0-9a-f]{38}|[0-9a-f]{62})$/;
  const promises: P = {
    ...Object.fromEntries(Object.entries(inner).filter(([, v]) => typeof v === 'function').map(([k, v]) => [k, (...args: unknown[]) => (v as (...a: unknown[]) => Promise<unknown>).apply(inner, args)])),
    readdir: (path: unknown) => readdir(String(path)),
    async readFile(path: unknown, options?: unknown) {
      // isomorphic-git calls readFile() with no path on every API call, to see whether it
      // answers a promise: Node builds a full error (with its stack) for that each time.
      if (typeof path !== 'string') throw NO_PATH;
      const m = LOOSE.exec(String(path));
      if (m) {
        let names = looseNames.get(m[1]!);
        if (!names) {
          names = readdir(m[1]!).then((list) => new Set(list), () => new Set<string>());
          looseNames.set(m[1]!, names);
        }
        // One shared error: isomorphic-git reads only its code, and a stack per miss was a visible cost.
        if (!(await names).has(m[2]!)) throw LOOSE_MISSING;
      }
      return inner.readFile!(path, options);
    },
    stat(path: unknown) {
      let p = stats.get(String(path));
      if (!p) {
        p = inner.stat!(path);
        stats.set(String(path), p);
      }
      return p;
    },
  };
  return { promises };
}

type TreeEntry = { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' };

const TREE_MODES: Record<string, { mode: string; type: TreeEntry['type'] }> = {
  '40000': { mode: '040000', type: 'tree' },
  '100644': { mode: '100644', type: 'blob' },
  '100755': { mode: '100755', type: 'blob' },
  '120000': { mode: '120000', type: 'blob' },
  '160000': { mode: '160000', type: 'commit' },
};
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A name isomorphic-git's tree parser might refuse (its assertSafeEntryPath: ".git" and its
 * NTFS/HFS aliases, separators, dot-and-space names) or spell differently: such a tree is
 * left to isomorphic-git, so that what it answers stays exactly what it answered before.
 */
function unusualName(name: string): boolean {
  if (/[\\/:\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/.test(name) || /^[. ]*$/.test(name)) return true;
  const lower = name.toLowerCase().replace(/[. ]+$/, '');
  return lower === '.git' || /^\.?git~[1-9]$/.test(lower);
}

/**
 * Parses a tree object as isomorphic-git's readTree does (mode "40000" spelt "040000"), or
 * null for anything unusual (a mode it normalizes or refuses, a name that is not UTF-8 or
 * that it checks), which the caller then reads with isomorphic-git itself.
 */
function parseTree(content: Uint8Array): TreeEntry[] | undefined {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(32, at);
    const nul = content.indexOf(0, at);
    if (space < 0 || nul < 0 || space > nul || nul + 21 > content.length) return undefined;
    const kind = TREE_MODES[decoder.decode(content.subarray(at, space))];
    if (!kind) return undefined;
    let path: string;
    try {
      path = strictDecoder.decode(content.subarray(space + 1, nul));
    } catch {
      return undefined;
    }
    if (unusualName(path)) return undefined;
    entries.push({ mode: kind.mode, path, oid: hex(content.subarray(nul + 1, nul + 21)), type: kind.type });
    at = nul + 21;
  }
  return entries;
}

/** The header fields of a commit or tag object that the recorder reads. */
function headerFields(content: Uint8Array): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of decoder.decode(content.subarray(0, headerEnd(content))).split('\n')) {
    if (line.startsWith(' ')) continue; // a continuation line (gpgsig, mergetag)
    const space = line.indexOf(' ');
    out.push([line.slice(0, space), line.slice(space + 1)]);
  }
  return out;
}

/**
 * A reader over one repository: caches parsed trees and blob digests across commits, so a
 * whole history hashes each blob once.
 */
export class CommitRecorder {
  private readonly fs: GitFs;
  private readonly gitdir: string;
  private readonly cache = {};
  private readonly trees = new Map<string, TreeEntry[]>();
  private readonly blobs = new Map<string, string>();
  private readonly treeDigests = new Map<string, { sha256: string; count: number }>();
  /** Trees whose blobs were all digested (digestNewBlobs). */
  private readonly walkedTrees = new Set<string>();
  /** Listings of subtrees (bytes and line count), most recently used last, bounded in bytes. */
  private readonly lineCache = new Map<string, { text: string; count: number }>();
  /** Each tree's entries in listing order (a directory's name with its "/"), by tree id. */
  private readonly listingOrder = new Map<string, TreeEntry[]>();
  /** Where a whole listing is encoded to be hashed (grown as needed, never given away). */
  private listingBytes = new Uint8Array(64 * 1024);
  private lineCacheBytes = 0;
  /** Recent blobs' bytes for the line counts (null: binary or too large), most recently used last, bounded in bytes. */
  private readonly textCache = new Map<string, { content: Uint8Array; at: number } | null>();
  private textBytes = 0;
  /** Line counts by (old blob, new blob), oldest first. */
  private readonly countsCache = new Map<string, LineCounts>();
  private packs: Promise<PackReader> | null = null;
  /** Set when changes are computed: a blob's lines are kept as it is first hashed (no second read). */
  withLines = false;
  bytes = 0;
  objects = 0;

  constructor(fs: GitFs, gitdir: string) {
    this.fs = readOnlyCachedFs(fs);
    this.gitdir = gitdir;
  }

  private get args() {
    return { fs: this.fs as never, gitdir: this.gitdir, cache: this.cache };
  }

  /**
   * An object's type and content: straight from the pack files, else (a loose object) from
   * isomorphic-git. A packed object's content lives in the pack reader's ring: it is used at
   * once, or kept with its `at` and checked (valid()) before it is used again.
   */
  private async raw(oid: string): Promise<PackObject> {
    const packs = await (this.packs ??= PackReader.open((this.fs as { promises: never }).promises, this.gitdir));
    const hit = packs.read(oid);
    if (hit) return hit;
    const { type, object } = await git.readObject({ ...this.args, oid, format: 'content' });
    return { type: type as RawObject['type'], content: object as Uint8Array, at: -1 };
  }

  /** Whether content raw() answered is still there (see PackReader.isValid). */
  private async valid(object: { at: number }): Promise<boolean> {
    return object.at < 0 || (await this.packs!).isValid(object);
  }

  /** Refuses what isomorphic-git cannot read (SHA-256 object format) instead of computing a wrong record. */
  async checkFormat(): Promise<void> {
    let format: unknown;
    try {
      const promises = (this.fs as { promises?: { readFile(path: string): Promise<unknown> } }).promises;
      if (promises) await promises.readFile(`${this.gitdir}/HEAD`);
      format = await git.getConfig({ ...this.args, path: 'extensions.objectformat' });
    } catch (error) {
      throw new RepoReadError(`not a git repository: ${error instanceof Error ? error.message : String(error)}`, 'not_a_repository');
    }
    if (typeof format === 'string' && format.toLowerCase() !== 'sha1') {
      throw new RepoReadError(`object format ${format} is not supported (isomorphic-git reads SHA-1 repositories only)`, 'object_format_unsupported');
    }
  }

  /** Every tip: branches, remote branches and tags (annotated tags peeled to their commit), HEAD. */
  async tips(): Promise<Array<{ ref: string; commit: string }>> {
    const out: Array<{ ref: string; commit: string }> = [];
    for (const prefix of ['refs/heads', 'refs/remotes', 'refs/tags']) {
      const names = await git.listRefs({ ...this.args, filepath: prefix }).catch(() => [] as string[]);
      for (const name of names.sort()) {
        const ref = `${prefix}/${name}`;
        let oid: string;
        try {
          oid = await git.resolveRef({ ...this.args, ref });
        } catch {
          continue; // a symbolic ref (origin/HEAD) to nothing
        }
        const commit = await this.peel(oid);
        if (commit) out.push({ ref, commit });
      }
    }
    try {
      const head = await this.peel(await git.resolveRef({ ...this.args, ref: 'HEAD' }));
      if (head) out.push({ ref: 'HEAD', commit: head });
    } catch {
      /* an empty repository: HEAD names a branch with no commit */
    }
    return out;
  }

  private async peel(oid: string): Promise<string | null> {
    for (let depth = 0; depth < 16; depth++) {
      const { type, content } = await this.raw(oid);
      this.objects++;
      if (type === 'commit') return oid;
      if (type !== 'tag') return null;
      const object = headerFields(content).find(([k]) => k === 'object')?.[1];
      if (!object) return null;
      oid = object;
    }
    return null;
  }

  private async tree(oid: string): Promise<TreeEntry[]> {
    let entries = this.trees.get(oid);
    if (!entries) {
      const { type, content } = await this.raw(oid);
      entries = type === 'tree' ? parseTree(content) : undefined;
      if (!entries) {
        const { tree } = await git.readTree({ ...this.args, oid });
        entries = tree.map((e) => ({ mode: e.mode, path: e.path, oid: e.oid, type: e.type }));
      }
      this.objects++;
      this.trees.set(oid, entries);
    }
    return entries;
  }

  private async blobDigest(oid: string): Promise<string> {
    let digest = this.blobs.get(oid);
    if (digest === undefined) {
      const blob = await this.blob(oid);
      this.objects++;
      this.bytes += blob.content.length;
      digest = await sha256(blob.content);
      if (this.withLines) this.keepText(oid, blob);
      this.blobs.set(oid, digest);
    }
    return digest;
  }

  private async blob(oid: string): Promise<{ content: Uint8Array; at: number }> {
    const read = await this.raw(oid);
    if (read.type === 'blob') return read;
    return { content: (await git.readBlob({ ...this.args, oid })).blob, at: -1 }; // what isomorphic-git says of a blob id that is not a blob
  }

  /**
   * Digests the blobs of a tree not digested yet before its listing is made: the larger ones
   * with WebCrypto, many at once (it copies each input when called, so the pack reader's ring
   * may be reused at once; native SHA-256 runs beside this thread), the small ones with
   * hash-wasm. Subtrees already walked are skipped.
   */
  private async digestNewBlobs(treeOid: string): Promise<void> {
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) return; // listingLines digests each blob as it meets it
    const pending: Array<{ oid: string; digest: Promise<ArrayBuffer> }> = [];
    let pendingBytes = 0;
    const flush = async () => {
      const digests = await Promise.all(pending.map((p) => p.digest));
      pending.forEach((p, i) => this.blobs.set(p.oid, hex(new Uint8Array(digests[i]!))));
      pending.length = 0;
      pendingBytes = 0;
    };
    const walked: string[] = [];
    const started = new Set<string>();
    const walk = async (oid: string) => {
      if (this.walkedTrees.has(oid)) return;
      for (const e of await this.tree(oid)) {
        if (e.type === 'tree') await walk(e.oid);
        else if (e.type === 'blob' && !this.blobs.has(e.oid) && !started.has(e.oid)) {
          const blob = await this.blob(e.oid);
          if (blob.content.length < WEBCRYPTO_MIN_BYTES) continue; // hash-wasm, when the listing meets it
          started.add(e.oid);
          this.objects++;
          this.bytes += blob.content.length;
          pending.push({ oid: e.oid, digest: subtle.digest('SHA-256', blob.content as Uint8Array<ArrayBuffer>) });
          pendingBytes += blob.content.length;
          if (this.withLines) this.keepText(e.oid, blob);
          if (pendingBytes > WEBCRYPTO_BATCH_BYTES) await flush();
        }
      }
      walked.push(oid);
    };
    await walk(treeOid);
    await flush();
    for (const oid of walked) this.walkedTrees.add(oid);
  }

  /** The tree listing (one line per file, link or submodule, in path byte order) and its SHA-256. */
  async treeListing(treeOid: string): Promise<Array<{ mode: string; sha256: string; path: string }>> {
    const out: Array<{ mode: string; sha256: string; path: string; bytes: Uint8Array }> = [];
    const walk = async (oid: string, prefix: string) => {
      for (const e of await this.tree(oid)) {
        const path = prefix + e.path;
        if (e.type === 'tree') await walk(e.oid, `${path}/`);
        // A submodule (gitlink) has no blob here: its line carries the commit id it points to.
        else out.push({ mode: e.mode, sha256: e.type === 'commit' ? e.oid : await this.blobDigest(e.oid), path, bytes: encoder.encode(path) });
      }
    };
    await walk(treeOid, '');
    out.sort((a, b) => compareBytes(a.bytes, b.bytes));
    return out.map(({ mode, sha256: digest, path }) => ({ mode, sha256: digest, path }));
  }

  /**
   * The encoded listing lines of a tree at a path prefix, in path byte order. Cached by tree id
   * and prefix: a subtree unchanged since an earlier commit is not walked again, and its lines
   * are reused as they are. Ordering the children by name, with "/" after a directory's name,
   * is the byte order of the full paths (a name holds no "/").
   */
  private async listingLines(treeOid: string, prefix: string): Promise<{ text: string; count: number }> {
    const key = `${treeOid}\0${prefix}`;
    let listing = this.lineCache.get(key);
    if (listing) {
      this.lineCache.delete(key); // most recently used last
      this.lineCache.set(key, listing);
      return listing;
    }
    let children = this.listingOrder.get(treeOid);
    if (!children) {
      children = [...(await this.tree(treeOid))].sort((a, b) => comparePaths(a.type === 'tree' ? `${a.path}/` : a.path, b.type === 'tree' ? `${b.path}/` : b.path));
      this.listingOrder.set(treeOid, children);
    }
    // Text, not bytes: strings cost the garbage collector little, where one small buffer per
    // line (TextEncoder) was most of the listing time in the browser worker. The whole listing
    // is encoded once, to be hashed (treeDigest).
    const parts: string[] = [];
    let count = 0;
    for (const e of children) {
      const path = prefix + e.path;
      if (e.type === 'tree') {
        const sub = await this.listingLines(e.oid, `${path}/`);
        parts.push(sub.text);
        count += sub.count;
      } else {
        // A submodule (gitlink) has no blob here: its line carries the commit id it points to.
        parts.push(`${e.mode} ${e.type === 'commit' ? e.oid : await this.blobDigest(e.oid)} ${path}\0`);
        count++;
      }
    }
    listing = { text: parts.join(''), count };
    // A whole tree's listing (prefix "") is digested once by tree id (treeDigests): only subtrees are worth keeping.
    const size = listing.text.length;
    if (prefix !== '' && size <= LISTING_CACHE_BYTES / 8) {
      this.lineCache.set(key, listing);
      this.lineCacheBytes += size;
      while (this.lineCacheBytes > LISTING_CACHE_BYTES) {
        const [k, v] = this.lineCache.entries().next().value!;
        this.lineCache.delete(k);
        this.lineCacheBytes -= v.text.length;
      }
    }
    return listing;
  }

  async treeDigest(treeOid: string): Promise<{ sha256: string; count: number }> {
    let d = this.treeDigests.get(treeOid);
    if (!d) {
      const { text, count } = await this.listingLines(treeOid, '');
      if (this.listingBytes.length < text.length * 3) this.listingBytes = new Uint8Array(text.length * 3);
      const { written } = encoder.encodeInto(text, this.listingBytes);
      d = { sha256: await sha256(this.listingBytes.subarray(0, written)), count };
      this.treeDigests.set(treeOid, d);
    }
    return d;
  }

  /** The record of one commit. */
  async record(commitOid: string): Promise<CommitRecord> {
    let content: Uint8Array;
    try {
      const read = await this.raw(commitOid);
      if (read.type !== 'commit') throw new Error(`${commitOid} is a ${read.type}`);
      content = read.content;
    } catch (error) {
      throw new RepoReadError(`commit ${commitOid} not found: ${error instanceof Error ? error.message : String(error)}`, 'commit_not_found');
    }
    this.objects++;
    const end = headerEnd(content);
    const header = decoder.decode(content.subarray(0, end));
    const message = content.subarray(Math.min(end + 2, content.length));
    let tree = '';
    const parents: string[] = [];
    let author = '';
    let committer = '';
    for (const line of header.split('\n')) {
      if (line.startsWith(' ')) continue; // a continuation line (gpgsig, mergetag)
      const space = line.indexOf(' ');
      const key = line.slice(0, space);
      const value = line.slice(space + 1);
      if (key === 'tree') tree = value;
      else if (key === 'parent') parents.push(value);
      else if (key === 'author' && !author) author = value;
      else if (key === 'committer' && !committer) committer = value;
    }
    // Hashed before the tree is read: the content lives in the pack reader's ring, which the tree's objects may reuse.
    const messageSha256 = await sha256(message);
    const commitSha256 = await sha256(content);
    if (!this.treeDigests.has(tree)) await this.digestNewBlobs(tree);
    const digest = await this.treeDigest(tree);
    return {
      v: 1,
      format: COMMIT_RECORD_FORMAT,
      object_format: commitOid.length === 64 ? 'sha256' : 'sha1',
      commit: commitOid,
      tree,
      parents,
      author: personOf(author),
      committer: personOf(committer),
      message_sha256: messageSha256,
      commit_sha256: commitSha256,
      tree_sha256: digest.sha256,
      file_count: digest.count,
    };
  }

  /**
   * A text blob's bytes (null: binary or too large), kept for a while: the new version of a
   * file in one commit is the old one in the next. Its lines are only hashed where the two
   * versions differ (blobLineCounts).
   */
  private keepText(oid: string, blob: { content: Uint8Array; at: number }): { content: Uint8Array; at: number } | null {
    const text = blob.content.length > LINE_COUNT_MAX_BYTES || isBinary(blob.content) ? null : blob;
    const own = (v: { content: Uint8Array; at: number } | null | undefined) => (v && v.at < 0 ? v.content.length : 0);
    this.textBytes -= own(this.textCache.get(oid));
    this.textCache.delete(oid);
    this.textCache.set(oid, text);
    this.textBytes += own(text);
    // Bytes in the pack reader's ring cost nothing more here; a loose object's own buffer does.
    while (this.textCache.size > 4096 || this.textBytes > TEXT_CACHE_BYTES) {
      const [k, v] = this.textCache.entries().next().value!;
      this.textCache.delete(k);
      this.textBytes -= own(v);
    }
    return text;
  }

  private async blobText(oid: string): Promise<{ content: Uint8Array; at: number } | null> {
    const hit = this.textCache.get(oid);
    if (hit === null) return null;
    if (hit && (await this.valid(hit))) {
      this.textCache.delete(oid); // most recently used last
      this.textCache.set(oid, hit);
      return hit;
    }
    const blob = await this.blob(oid);
    this.objects++;
    return this.keepText(oid, blob);
  }

  /**
   * The paths that differ between two trees (null: the empty tree), walking only subtrees whose
   * ids differ: an unchanged directory is one comparison, however large.
   */
  private async diffTrees(oldOid: string | null, newOid: string | null, prefix: string, out: Array<{ path: string; old: TreeEntry | null; next: TreeEntry | null }>): Promise<void> {
    if (oldOid === newOid) return;
    const before = new Map((oldOid ? await this.tree(oldOid) : []).map((e) => [e.path, e]));
    const after = new Map((newOid ? await this.tree(newOid) : []).map((e) => [e.path, e]));
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const o = before.get(name) ?? null;
      const n = after.get(name) ?? null;
      if (o && n && o.oid === n.oid && o.mode === n.mode) continue;
      const path = prefix + name;
      const oTree = o?.type === 'tree' ? o : null;
      const nTree = n?.type === 'tree' ? n : null;
      if (oTree || nTree) await this.diffTrees(oTree?.oid ?? null, nTree?.oid ?? null, `${path}/`, out);
      const oFile = o && o.type !== 'tree' ? o : null;
      const nFile = n && n.type !== 'tree' ? n : null;
      if (oFile || nFile) out.push({ path, old: oFile, next: nFile });
    }
  }

  /** A file entry's line in the tree listing: the blob's SHA-256, or a submodule's commit id (not a digest: no line counts). */
  private async entryDigest(e: TreeEntry | null): Promise<string | null> {
    if (!e || e.type === 'commit') return null;
    return this.blobDigest(e.oid);
  }

  /** The commit's changed paths against its first parent (every path for a root commit), with line counts. */
  async changes(record: CommitRecord): Promise<CommitChanges> {
    let parentTree: string | null = null;
    const first = record.parents[0];
    if (first) {
      try {
        const { type, content } = await this.raw(first);
        if (type !== 'commit') throw new Error(`${first} is a ${type}`);
        parentTree = headerFields(content).find(([k]) => k === 'tree')?.[1] ?? null;
      } catch {
        parentTree = null; // a shallow boundary: the parent is not here; every path counts as added
      }
    }
    const diff: Array<{ path: string; old: TreeEntry | null; next: TreeEntry | null }> = [];
    await this.diffTrees(parentTree, record.tree, '', diff);
    diff.sort((a, b) => comparePaths(a.path, b.path));
    let added = 0;
    let removed = 0;
    const paths: CommitChange[] = [];
    for (const d of diff) {
      const status: CommitChange['status'] = !d.old ? 'A' : !d.next ? 'D' : 'M';
      const [sha, oldSha] = [await this.entryDigest(d.next), await this.entryDigest(d.old)];
      let counts: { added: number; removed: number } | null = null;
      const isBlob = (e: TreeEntry | null) => !e || e.type === 'blob';
      if (isBlob(d.old) && isBlob(d.next)) {
        // The same change is often met again (each side of a merge, a cherry-pick, a revert).
        const key = `${d.old?.oid ?? ''}>${d.next?.oid ?? ''}`;
        const known = this.countsCache.get(key);
        if (known !== undefined) counts = known;
        else {
          let before = d.old ? await this.blobText(d.old.oid) : undefined;
          const after = d.next ? await this.blobText(d.next.oid) : undefined;
          // Reading the new version may have reused the old one's place in the ring: read again, it goes after the new one.
          if (before && d.old && !(await this.valid(before))) before = await this.blobText(d.old.oid);
          if ((before && !(await this.valid(before))) || (after && !(await this.valid(after)))) throw new Error('repos: a blob was overwritten while its lines were counted');
          if (before !== null && after !== null) counts = blobLineCounts(before?.content ?? null, after?.content ?? null, LINE_DIFF_MAX_EDITS);
          this.countsCache.set(key, counts);
          if (this.countsCache.size > COUNTS_CACHE_ENTRIES) this.countsCache.delete(this.countsCache.keys().next().value!);
        }
      }
      added += counts?.added ?? 0;
      removed += counts?.removed ?? 0;
      if (paths.length < COMMIT_CHANGES_MAX) paths.push({ path: d.path, status, sha256: sha, old_sha256: oldSha, added: counts?.added ?? null, removed: counts?.removed ?? null });
    }
    return { files: diff.length, added, removed, paths, truncated: diff.length > paths.length };
  }

  /** The commits reachable from `tips` and not in `known`, parents before children (oldest first). */
  async unknownCommits(tips: string[], known: ReadonlySet<string>, signal?: AbortSignal): Promise<string[]> {
    const order: string[] = [];
    const seen = new Set<string>();
    const parentsOf = new Map<string, string[]>();
    for (const tip of tips) {
      if (known.has(tip) || seen.has(tip)) continue;
      // Iterative post-order: a commit is emitted after all its (unknown) parents.
      const stack: Array<{ oid: string; expanded: boolean }> = [{ oid: tip, expanded: false }];
      while (stack.length) {
        if (signal?.aborted) throw new RepoReadError('cancelled', 'cancelled');
        const top = stack[stack.length - 1]!;
        if (top.expanded) {
          stack.pop();
          if (!seen.has(top.oid)) {
            seen.add(top.oid);
            order.push(top.oid);
          }
          continue;
        }
        top.expanded = true;
        if (seen.has(top.oid)) continue;
        let parents = parentsOf.get(top.oid);
        if (!parents) {
          try {
            const { type, content } = await this.raw(top.oid);
            if (type !== 'commit') await git.readCommit({ ...this.args, oid: top.oid }); // throws what isomorphic-git says
            parents = headerFields(content)
              .filter(([k]) => k === 'parent')
              .map(([, v]) => v);
          } catch (error) {
            // A shallow clone's boundary (CI checkouts): the parent is not here. It is skipped,
            // never guessed; push from a full clone (fetch-depth: 0) to register it.
            if ((error as { code?: string }).code === 'NotFoundError' && top.oid !== tip) {
              top.expanded = true;
              seen.add(top.oid);
              stack.pop();
              continue;
            }
            throw error;
          }
          this.objects++;
          parentsOf.set(top.oid, parents!);
        }
        for (let i = parents.length - 1; i >= 0; i--) {
          const p = parents[i]!;
          if (!known.has(p) && !seen.has(p)) stack.push({ oid: p, expanded: false });
        }
      }
    }
    return order;
  }
}

/** Every not-yet-known commit of the repository, with its record, oldest first. */
export async function readCommitRecords(
  opts: ReadOptions,
): Promise<{ records: CommitRecord[]; tips: Array<{ ref: string; commit: string }>; changes: Map<string, CommitChanges> }> {
  const recorder = new CommitRecorder(opts.fs, opts.gitdir);
  recorder.withLines = opts.withChanges === true;
  await recorder.checkFormat();
  const tips = await recorder.tips();
  const todo = await recorder.unknownCommits(
    tips.map((t) => t.commit),
    opts.known ?? new Set(),
    opts.signal,
  );
  const records: CommitRecord[] = [];
  const changes = new Map<string, CommitChanges>();
  for (const oid of todo) {
    if (opts.signal?.aborted) throw new RepoReadError('cancelled', 'cancelled');
    const record = await recorder.record(oid);
    records.push(record);
    if (opts.withChanges) changes.set(oid, await recorder.changes(record));
    opts.onProgress?.({ done: records.length, total: todo.length, bytes: recorder.bytes, objects: recorder.objects });
  }
  return { records, tips, changes };
}

/** One commit's record (verify-commit), or commit_not_found. */
export async function readCommitRecord(fs: GitFs, gitdir: string, commit: string): Promise<CommitRecord> {
  const recorder = new CommitRecorder(fs, gitdir);
  await recorder.checkFormat();
  let oid = commit;
  if (!/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(commit)) {
    try {
      oid = /^[0-9a-f]{4,39}$/.test(commit) ? await git.expandOid({ fs: fs as never, gitdir, oid: commit }) : await git.resolveRef({ fs: fs as never, gitdir, ref: commit });
    } catch (error) {
      throw new RepoReadError(`commit ${commit} not found: ${error instanceof Error ? error.message : String(error)}`, 'commit_not_found');
    }
  }
  return recorder.record(oid);
}

// ---- an in-memory, read-only file system over picked files (the browser) ----------------

type Entry = { file?: { size: number; read(): Promise<Uint8Array> }; dir?: Set<string> };

function fsError(code: string, path: string): Error {
  const e = new Error(`${code}: ${path}`) as Error & { code: string };
  e.code = code;
  return e;
}

/**
 * A file system isomorphic-git can read, from files given by path (a picked folder's
 * `.git/…` files). Writes are kept in memory (isomorphic-git writes nothing when reading).
 */
export function memoryFs(files: Iterable<{ path: string; size: number; read(): Promise<Uint8Array> }>): GitFs {
  const entries = new Map<string, Entry>([['/', { dir: new Set() }]]);
  const norm = (p: string) => `/${p.split('/').filter((s) => s && s !== '.').join('/')}`;
  const ensureDir = (p: string) => {
    if (p === '/') return;
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    ensureDir(parent);
    if (!entries.has(p)) entries.set(p, { dir: new Set() });
    entries.get(parent)!.dir!.add(p.slice(p.lastIndexOf('/') + 1));
  };
  for (const f of files) {
    const p = norm(f.path);
    ensureDir(p.slice(0, p.lastIndexOf('/')) || '/');
    entries.set(p, { file: f });
    entries.get(p.slice(0, p.lastIndexOf('/')) || '/')!.dir!.add(p.slice(p.lastIndexOf('/') + 1));
  }
  const stat = async (path: string) => {
    const e = entries.get(norm(path));
    if (!e) throw fsError('ENOENT', path);
    const isDir = !!e.dir;
    const size = e.file?.size ?? 0;
    return { type: isDir ? 'dir' : 'file', mode: isDir ? 0o40755 : 0o100644, size, ino: 0, mtimeMs: 0, ctimeMs: 0, uid: 0, gid: 0, dev: 0, isFile: () => !isDir, isDirectory: () => isDir, isSymbolicLink: () => false };
  };
  const promises = {
    async readFile(path: string, options?: { encoding?: string } | string) {
      const e = entries.get(norm(path));
      if (!e?.file) throw fsError('ENOENT', path);
      const bytes = await e.file.read();
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding ? decoder.decode(bytes) : bytes;
    },
    async writeFile(path: string, data: Uint8Array | string) {
      const bytes = typeof data === 'string' ? encoder.encode(data) : data;
      const p = norm(path);
      ensureDir(p.slice(0, p.lastIndexOf('/')) || '/');
      entries.set(p, { file: { size: bytes.length, read: async () => bytes } });
      entries.get(p.slice(0, p.lastIndexOf('/')) || '/')!.dir!.add(p.slice(p.lastIndexOf('/') + 1));
    },
    async unlink(path: string) {
      entries.delete(norm(path));
    },
    async readdir(path: string) {
      const e = entries.get(norm(path));
      if (!e?.dir) throw fsError('ENOTDIR', path);
      return [...e.dir];
    },
    async mkdir(path: string) {
      ensureDir(norm(path));
    },
    async rmdir(path: string) {
      entries.delete(norm(path));
    },
    stat,
    lstat: stat,
    async readlink(path: string): Promise<string> {
      throw fsError('ENOENT', path);
    },
    async symlink(): Promise<void> {
      throw fsError('EPERM', 'symlink');
    },
    async chmod(): Promise<void> {},
  };
  return { promises };
}
