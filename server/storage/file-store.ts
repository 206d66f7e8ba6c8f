import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { parseFileIdentity } from '../../core/file-identity.ts';
import type { StorageEnv } from '../env.ts';
import { localDriver, s3Driver, type ObjectDriver } from './drivers.ts';
import {
  DEFAULT_CHUNK_BYTES,
  SEALED_HEADER_BYTES,
  SEALED_TAG_BYTES,
  encodeHeader,
  newHeader,
  objectKey,
  openChunk,
  openSealedFile,
  openStream,
  sealChunk,
  sendSealedFile,
  releaseBuffer,
  gcmKey,
  sealChunkAsync,
  type SealedHeader,
} from './sealed.ts';
import { KeptHashes, chunkFeeder, digestOnce, hashParts, type RunningHash } from './running-hash.ts';

/**
 * Large stored files: the tus data store that receives them and the sealed objects they
 * become. While an upload runs its bytes are sealed chunk by chunk into a staging file
 * (DATA_DIR/uploads) and hashed as they arrive (node:crypto, on the hash thread of
 * running-hash.ts). The running SHA-256 of each unfinished upload stays in memory between
 * requests, so an upload resumed after a reload or a dropped network goes on hashing where it
 * stopped and the finished file is never read a second time to check it. Only when the process
 * has restarted meanwhile, or the hash thread stopped (the hash state is gone), is the part
 * already staged decrypted and hashed once, before the upload goes on.
 * node:crypto hashes at ~800 MB/s here against ~230 MB/s for hash-wasm, whose state could
 * have been saved to disk: the common path wins, the rare one pays one pass. The unfinished last chunk
 * (at most one chunk) is kept sealed under a separate key with a fresh nonce. When the
 * last byte arrives the digest is compared with the identity the browser computed; a
 * match moves the sealed object to the storage driver under `stored/<identity>`.
 */
export type UploadMeta = {
  id: string;
  size: number;
  offset: number;
  metadata: Record<string, string | null>;
  creation_date: string;
  chunkBytes: number;
  salt: string;
  /** Sealed full chunks in the staging file. */
  chunks: number;
  isFinished: boolean;
  /** Set once the last chunk is sealed. */
  sha256?: string;
  /**
   * The unfinished last chunk (offset - chunks * chunkBytes bytes), sealed under the tail
   * key: iv, ciphertext, tag in base64. Kept inside the metadata so one atomic rename
   * commits offset and tail together; absent in metadata written before it moved here
   * (the tail is then in <id>.tail).
   */
  tail?: string;
};

/** A new upload's state, with a fresh sealing header: both staging stores start from it. */
export function newUploadMeta(upload: Upload, chunkBytes: number): { meta: UploadMeta; header: SealedHeader } {
  const header = newHeader(chunkBytes);
  const meta: UploadMeta = {
    id: upload.id,
    size: upload.size ?? 0,
    offset: 0,
    metadata: (upload.metadata ?? {}) as Record<string, string | null>,
    creation_date: upload.creation_date ?? new Date().toISOString(),
    chunkBytes: header.chunkBytes,
    salt: header.salt.toString('hex'),
    chunks: 0,
    isFinished: false,
  };
  return { meta, header };
}

/**
 * While a long PATCH runs, the offset reached is committed to disk (data fsynced, then the
 * metadata) at least every this many bytes: a server killed mid-request (SIGKILL, power
 * loss) resumes from the last commit instead of from the offset the request started at.
 */
export const CHECKPOINT_BYTES = 8 * 1024 * 1024;

/** Full chunks being sealed or written while the request's next bytes are received (memory: that many chunks). */
const SEALS_IN_FLIGHT = 1;

/**
 * A sealed chunk reaches the staging file as writes of at most this many bytes, all queued at
 * once. On the 2-core VM we measure on (which hands free memory back to its host), one 1 MiB
 * buffered write cost several times the kernel CPU of smaller ones: 1 GiB written as 1 MiB writes
 * took 0.37-1.10 s of system CPU, as 64-256 KiB writes 0.17-0.22 s. With 128 KiB pieces the
 * 2 GiB upload went from 359-390 to 529-547 MB/s, alternated runs (bench/README). Where writes
 * are cheap the pieces cost a few more calls on the pool: on tmpfs, 64 KiB pieces gave 560-575
 * against 585-638 MB/s (128 KiB pieces were not A/B'd there).
 */
const WRITE_PIECE_BYTES = 128 * 1024;

/**
 * Writes `buffer` at `position` as pieces of at most WRITE_PIECE_BYTES, all queued on the pool at
 * once (positional writes to distinct ranges), resuming any short write. Resolves when every piece
 * is written; rejects with the first error once none is still running.
 */
export async function writeInPieces(handle: fs.promises.FileHandle, buffer: Uint8Array, position: number): Promise<void> {
  const writeRange = async (from: number, to: number) => {
    while (from < to) {
      const { bytesWritten } = await handle.write(buffer, from, to - from, position + from);
      if (bytesWritten === 0) throw new Error(`no progress writing at ${position + from}`);
      from += bytesWritten;
    }
  };
  const pieces: Array<Promise<void>> = [];
  for (let from = 0; from < buffer.length; from += WRITE_PIECE_BYTES) pieces.push(writeRange(from, Math.min(buffer.length, from + WRITE_PIECE_BYTES)));
  const results = await Promise.allSettled(pieces);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

export class HashMismatchError extends Error {}

/** A sealed, checked upload ready to become a stored object. */
export type SealedUpload = {
  sha256: string;
  size: number;
  /** Stores the sealed object under `key` on the file store's driver. */
  storeAs(key: string): Promise<void>;
  /** Drops it (the same bytes are stored already). */
  discard(): Promise<void>;
};

/**
 * The tus data store of uploads: StagingStore (a staging folder, the embedded default) or
 * SharedStagingStore (state in the database, sealed chunks in the object store: any replica
 * continues any upload; server/storage/shared-staging.ts).
 */
export type UploadStaging = DataStore & {
  readMeta(id: string): Promise<UploadMeta | null>;
  seal(id: string, expectedSha256: string): Promise<SealedUpload>;
  finish(id: string, size: number): Promise<void>;
  write(stream: AsyncIterable<Buffer>, id: string, offset: number): Promise<number>;
  remove(id: string): Promise<void>;
  deleteExpired(): Promise<number>;
};
class DiskError extends Error {
  constructor(cause: unknown) {
    super('disk write failed', { cause });
  }
}

export type FileStore = {
  driver: ObjectDriver;
  tus: UploadStaging;
  /** The plaintext of a stored file, streamed and authenticated chunk by chunk; null when not stored. */
  open(identity: string): Promise<Readable | null>;
  /**
   * The same plaintext for a response: `sendTo` writes it to `out` (without ending it) and
   * settles when `out` has taken the last byte, or fails as `open`'s stream does; from the local
   * driver, with no buffer per chunk on this thread (sealed.ts sendSealedFile). `close` lets go
   * of a file that will not be sent. Null when not stored.
   */
  openForSending(identity: string): Promise<{ sendTo(out: Writable): Promise<void>; close(): Promise<void> } | null>;
  isStored(identity: string): Promise<boolean>;
  /** Stores a plaintext stream directly (tests, tools); checks it hashes to the identity. */
  putPlain(identity: string, source: Readable, size: number): Promise<number>;
  remove(identity: string): Promise<void>;
};

export const objectKeyOf = (identity: string) => `stored/${identity}`;

/** The master key: STORAGE_KEY, or DATA_DIR/storage.key created once with mode 0600. */
export function loadMasterKey(dataDir: string, fromEnv: Buffer | undefined): Buffer {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'storage.key');
  try {
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} does not hold 64 hex digits`);
    return Buffer.from(hex, 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32);
    fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  }
}

export function driverFor(storage: StorageEnv): ObjectDriver {
  return storage.kind === 'local' ? localDriver(storage.dir) : s3Driver(storage);
}

function tailKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, 'provena staging tail v1', 32));
}

/** The tus DataStore: creation, creation-with-upload, termination and expiration. */
export class StagingStore extends DataStore {
  readonly dir: string;
  private readonly master: Buffer;
  private readonly chunkBytes: number;
  readonly expiryMs: number;

  private readonly driver: ObjectDriver;

  constructor(opts: { dir: string; master: Buffer; driver: ObjectDriver; chunkBytes?: number; expiryMs?: number }) {
    super();
    this.dir = opts.dir;
    this.driver = opts.driver;
    this.master = opts.master;
    this.chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.expiryMs = opts.expiryMs ?? 7 * 24 * 60 * 60 * 1000;
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
    fs.mkdirSync(this.dir, { recursive: true });
  }

  private file(id: string, ext: 'json' | 'part' | 'tail' | 'done'): string {
    if (!/^[0-9a-f]{32}$/.test(id)) throw ERRORS.FILE_NOT_FOUND;
    return path.join(this.dir, `${id}.${ext}`);
  }

  async readMeta(id: string): Promise<UploadMeta | null> {
    try {
      return JSON.parse(await fs.promises.readFile(this.file(id, 'json'), 'utf8')) as UploadMeta;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Replaces the metadata atomically and durably: temp file fsynced, renamed, folder fsynced. */
  private async writeMeta(meta: UploadMeta): Promise<void> {
    const target = this.file(meta.id, 'json');
    const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await fs.promises.open(temp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(meta));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, target);
    const dir = await fs.promises.open(this.dir, 'r');
    try {
      await dir.sync();
    } catch {
      // Some file systems refuse fsync on a folder; the rename is still atomic.
    } finally {
      await dir.close();
    }
  }

  override async create(upload: Upload): Promise<Upload> {
    const { meta, header } = newUploadMeta(upload, this.chunkBytes);
    await fs.promises.writeFile(this.file(upload.id, 'part'), encodeHeader(header));
    await this.writeMeta(meta);
    upload.creation_date = meta.creation_date;
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const meta = await this.readMeta(id);
    if (!meta) {
      // Stored and cleaned up already: tus's creation-with-upload asks for the upload once more
      // after onUploadFinish (for Upload-Expires), and a 404 there would fail a stored upload.
      const done = await this.readFinished(id);
      if (done) return new Upload({ id, size: done.size, offset: done.size, metadata: {}, creation_date: done.finished_at });
      throw ERRORS.FILE_NOT_FOUND;
    }
    return new Upload({ id, size: meta.size, offset: meta.offset, metadata: meta.metadata, creation_date: meta.creation_date });
  }

  /**
   * The upload is stored: its staging files go, a small marker stays until expiry so that the
   * upload still answers as complete (size = offset) instead of not found.
   */
  async finish(id: string, size: number): Promise<void> {
    await fs.promises.writeFile(this.file(id, 'done'), JSON.stringify({ size, finished_at: new Date().toISOString() }), { mode: 0o600 });
    await this.remove(id);
  }

  private async readFinished(id: string): Promise<{ size: number; finished_at: string } | null> {
    try {
      return JSON.parse(await fs.promises.readFile(this.file(id, 'done'), 'utf8')) as { size: number; finished_at: string };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  override async remove(id: string): Promise<void> {
    this.hashes.drop(id);
    await Promise.all((['json', 'part', 'tail'] as const).map((ext) => fs.promises.rm(this.file(id, ext), { force: true })));
  }

  override getExpiration(): number {
    return this.expiryMs;
  }

  override async deleteExpired(): Promise<number> {
    let removed = 0;
    const now = Date.now();
    for (const name of await fs.promises.readdir(this.dir)) {
      const finished = /^([0-9a-f]{32})\.done$/.exec(name);
      if (finished) {
        const done = await this.readFinished(finished[1]!).catch(() => null);
        if (!done || now - new Date(done.finished_at).getTime() > this.expiryMs) await fs.promises.rm(path.join(this.dir, name), { force: true });
        continue;
      }
      const m = /^([0-9a-f]{32})\.json$/.exec(name);
      if (!m) continue;
      const meta = await this.readMeta(m[1]!).catch(() => null);
      if (meta && now - new Date(meta.creation_date).getTime() > this.expiryMs) {
        await this.remove(meta.id);
        removed += 1;
      }
    }
    return removed;
  }

  private async readTail(meta: UploadMeta): Promise<Buffer> {
    let sealed: Buffer;
    if (meta.tail !== undefined) {
      sealed = Buffer.from(meta.tail, 'base64');
      if (sealed.length === 0) return Buffer.alloc(0);
    } else {
      try {
        sealed = await fs.promises.readFile(this.file(meta.id, 'tail'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
        throw error;
      }
    }
    const key = tailKey(this.master, Buffer.from(meta.salt, 'hex'));
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const plain = Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
    return plain;
  }

  /** The unfinished last chunk sealed for UploadMeta.tail ('' when there is none). */
  private sealTail(meta: UploadMeta, plain: Buffer): string {
    if (plain.length === 0) return '';
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', tailKey(this.master, Buffer.from(meta.salt, 'hex')), iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
  }

  /** Running hashes of unfinished uploads, with the offset they have reached. */
  private readonly hashes = new KeptHashes();

  /** The running hash at meta.offset (the caller owns it): kept from the last request, or rebuilt from the staged bytes. */
  private async hasher(meta: UploadMeta): Promise<RunningHash> {
    return this.hashes.take(meta.id, meta.offset) ?? hashParts(this.stagedPlain(meta));
  }

  /** The plaintext staged so far: the sealed chunks of the staging file, then the tail. */
  private async *stagedPlain(meta: UploadMeta): AsyncGenerator<Buffer> {
    const key = objectKey(this.master, Buffer.from(meta.salt, 'hex'));
    const sealedChunk = meta.chunkBytes + SEALED_TAG_BYTES;
    const handle = await fs.promises.open(this.file(meta.id, 'part'), 'r');
    try {
      const buffer = Buffer.alloc(sealedChunk);
      for (let i = 0; i < meta.chunks; i++) {
        await handle.read(buffer, 0, sealedChunk, SEALED_HEADER_BYTES + i * sealedChunk);
        yield openChunk(key, i, buffer, false);
      }
    } finally {
      await handle.close();
    }
    yield await this.readTail(meta);
  }

  /**
   * Appends what the request brings. A client that goes away mid-request (a reload, a
   * dropped network) ends the stream early: whatever arrived is kept, so the next HEAD
   * tells the client where to resume. A failed disk write keeps nothing of this request.
   */
  override async write(stream: AsyncIterable<Buffer>, id: string, offset: number): Promise<number> {
    const meta = await this.readMeta(id);
    if (!meta) throw ERRORS.FILE_NOT_FOUND;
    if (meta.isFinished || offset !== meta.offset) throw ERRORS.INVALID_OFFSET;
    const key = objectKey(this.master, Buffer.from(meta.salt, 'hex'));
    const sealedChunk = meta.chunkBytes + SEALED_TAG_BYTES;
    const partPath = this.file(id, 'part');
    const handle = await fs.promises.open(partPath, 'r+');
    let position = SEALED_HEADER_BYTES + meta.chunks * sealedChunk;
    // One reused chunk buffer: pieces are copied in once, sealed when full and more follows.
    const chunk = Buffer.allocUnsafe(meta.chunkBytes);
    let fill: number;
    let hasher: RunningHash;
    try {
      // Anything past the last committed chunk is from a request that failed: drop it.
      await handle.truncate(position);
      fill = (await this.readTail(meta)).copy(chunk, 0);
      // This request owns the running hash now; it is put back only with the offset it reaches.
      hasher = await this.hasher(meta);
    } catch (error) {
      await handle.close();
      throw error;
    }
    // The chunk's bytes go to the hash thread when it is sealed and when the request ends.
    const feed = chunkFeeder(hasher, chunk, fill);
    let received = meta.offset;
    let chunks = meta.chunks;
    let committed = meta.offset;
    let streamError: unknown = null;
    let checkpoint: Promise<void> | null = null;
    let checkpointError: unknown = null;
    // Full chunks are sealed on the thread pool while the next bytes arrive;
    // their writes are chained in order, at most SEALS_IN_FLIGHT chunks behind the bytes received.
    const gcm = await gcmKey(key);
    let written = chunks;
    let writes: Promise<void> = Promise.resolve();
    const inFlight: Array<Promise<void>> = [];
    let diskError: unknown = null;
    /** After chunk `index` is written: commit the offset when one is due and none is running. */
    const afterWrite = (index: number) => {
      written = index + 1;
      // A chunk boundary with no tail: commit the offset so a crash resumes here. The commit
      // (data fsynced, then the metadata) runs while the next chunks arrive and are written:
      // every chunk it claims is written already, and one commit runs at a time.
      const boundary = written * meta.chunkBytes;
      if (boundary - committed >= CHECKPOINT_BYTES && !checkpoint && !diskError) {
        const at = { offset: boundary, chunks: written };
        committed = boundary;
        checkpoint = (async () => {
          await handle.datasync();
          await this.writeMeta({ ...meta, ...at, tail: '' });
        })().then(
          () => {
            checkpoint = null;
          },
          (error: unknown) => {
            checkpointError = error;
            checkpoint = null;
          },
        );
      }
    };
    /** Seals the full chunk as not the last and queues its write. */
    const sealFull = async () => {
      await feed.upTo(fill);
      const index = chunks;
      const at = position;
      const sealing = sealChunkAsync(gcm, index, chunk, false);
      position += sealedChunk;
      chunks += 1;
      fill = 0;
      feed.restart();
      writes = Promise.all([writes, sealing]).then(async ([, sealed]) => {
        if (diskError) return;
        try {
          await writeInPieces(handle, sealed, at);
        } catch (error) {
          diskError = error;
          return;
        }
        // Written: its memory goes now, not at the next full collection (sealed.ts releaseBuffer).
        releaseBuffer(sealed);
        afterWrite(index);
      });
      inFlight.push(writes);
      if (inFlight.length > SEALS_IN_FLIGHT) await inFlight.shift();
      if (diskError) throw new DiskError(diskError);
      if (checkpointError) throw new DiskError(checkpointError);
    };
    /** Every queued write done (or failed), and the commit that may be running. */
    const settle = async () => {
      await writes.catch(() => {});
      await checkpoint;
    };
    try {
      try {
        for await (const piece of stream) {
          if (received + piece.length > meta.size) throw ERRORS.ERR_SIZE_EXCEEDED;
          received += piece.length;
          let at = 0;
          while (at < piece.length) {
            // A full chunk (from a resumed tail) with more following is not the last one.
            if (fill === meta.chunkBytes) await sealFull();
            const n = Math.min(meta.chunkBytes - fill, piece.length - at);
            piece.copy(chunk, fill, at, at + n);
            fill += n;
            at += n;
            // Sealed as soon as it is full unless it ends the file (only the final chunk is sealed as
            // last): a request that ends on a chunk boundary leaves no tail to carry to the next.
            if (fill === meta.chunkBytes && (chunks + 1) * meta.chunkBytes < meta.size) await sealFull();
          }
        }
      } catch (error) {
        // A failed disk write or an oversized body keeps nothing of this request; a client
        // that went away (reload, lost network) keeps everything that arrived.
        if (error === ERRORS.ERR_SIZE_EXCEEDED) throw error;
        if (error instanceof DiskError) throw error.cause;
        streamError = error;
      }
      await feed.upTo(fill);
      // The last commit goes after the queued writes and the commit still running, never before.
      await settle();
      if (diskError) throw diskError;
      if (checkpointError) throw checkpointError;
      await handle.datasync();
      await this.writeMeta({ ...meta, offset: received, chunks, tail: this.sealTail(meta, chunk.subarray(0, fill)) });
      // A tail file from metadata written before the tail moved inside it is spent now.
      if (meta.tail === undefined) await fs.promises.rm(this.file(id, 'tail'), { force: true });
      this.hashes.keep(id, hasher, received);
    } catch (error) {
      // A request that keeps nothing (a failed write, an oversized body) lets go of the hash.
      hasher.drop();
      throw error;
    } finally {
      // Writes and a commit still running on a failed request land before the next request reads the metadata.
      await settle();
      await handle.close();
    }
    if (streamError) throw streamError;
    return received;
  }

  /**
   * Seals the last chunk and checks the digest. Returns the staging file (a complete
   * sealed object) and the hex digest; throws HashMismatchError when the bytes are not
   * the file the client named.
   */
  async seal(id: string, expectedSha256: string): Promise<SealedUpload & { partPath: string }> {
    const meta = await this.readMeta(id);
    if (!meta || meta.offset !== meta.size) throw ERRORS.FILE_NOT_FOUND;
    const sha256 = meta.sha256 ?? (await digestOnce(() => this.hasher(meta)));
    if (sha256 !== expectedSha256) {
      await this.remove(id);
      throw new HashMismatchError(`upload ${id} hashed to ${sha256}, expected ${expectedSha256}`);
    }
    const partPath = this.file(id, 'part');
    if (!meta.isFinished) {
      const key = objectKey(this.master, Buffer.from(meta.salt, 'hex'));
      const last = sealChunk(key, meta.chunks, await this.readTail(meta), true);
      const handle = await fs.promises.open(partPath, 'r+');
      try {
        const position = SEALED_HEADER_BYTES + meta.chunks * (meta.chunkBytes + SEALED_TAG_BYTES);
        await handle.truncate(position);
        await handle.write(last, 0, last.length, position);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await this.writeMeta({ ...meta, isFinished: true, sha256, tail: '' });
      await fs.promises.rm(this.file(id, 'tail'), { force: true });
    }
    return {
      partPath,
      sha256,
      size: meta.size,
      storeAs: (key) => this.driver.putFile(key, partPath),
      discard: () => fs.promises.rm(partPath, { force: true }),
    };
  }
}

export function createFileStore(opts: { driver: ObjectDriver; master: Buffer; stagingDir: string; chunkBytes?: number; tus?: UploadStaging }): FileStore {
  const tus = opts.tus ?? new StagingStore({ dir: opts.stagingDir, master: opts.master, driver: opts.driver, chunkBytes: opts.chunkBytes });
  const { driver, master } = opts;
  async function open(identity: string): Promise<Readable | null> {
    if (driver.openFile) {
      const handle = await driver.openFile(objectKeyOf(identity));
      return handle ? openSealedFile(handle, master) : null;
    }
    const source = await driver.get(objectKeyOf(identity));
    if (!source) return null;
    const plain = openStream(master);
    source.on('error', (error) => plain.destroy(error));
    return source.pipe(plain);
  }
  return {
    driver,
    tus,
    open,
    async openForSending(identity) {
      if (driver.openFile) {
        const handle = await driver.openFile(objectKeyOf(identity));
        if (!handle) return null;
        let isSent = false;
        return {
          sendTo: (out) => {
            isSent = true;
            return sendSealedFile(handle, master, out);
          },
          close: async () => {
            if (!isSent) await handle.close();
          },
        };
      }
      const plain = await open(identity);
      if (!plain) return null;
      return { sendTo: (out) => pipeline(plain, out, { end: false }), close: async () => void plain.destroy() };
    },
    async isStored(identity) {
      return (await driver.size(objectKeyOf(identity))) !== null;
    },
    async putPlain(identity, source, size) {
      const parsed = parseFileIdentity(identity);
      if (!parsed) throw new Error(`not a file identity: ${identity}`);
      const id = randomBytes(16).toString('hex');
      await tus.create(new Upload({ id, size, offset: 0, metadata: {} }));
      try {
        const written = await tus.write(source, id, 0);
        if (written !== size) throw new Error(`expected ${size} bytes, got ${written}`);
        const sealed = await tus.seal(id, parsed.sha256);
        await sealed.storeAs(objectKeyOf(identity));
      } finally {
        await tus.remove(id);
      }
      return size;
    },
    async remove(identity) {
      await driver.remove(objectKeyOf(identity));
    },
  };
}
