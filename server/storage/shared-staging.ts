import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { Db } from '../db/database.ts';
import type { ObjectDriver } from './drivers.ts';
import { CHECKPOINT_BYTES, HashMismatchError, newUploadMeta, type SealedUpload, type UploadMeta } from './file-store.ts';
import { DEFAULT_CHUNK_BYTES, SEALED_TAG_BYTES, encodeHeader, objectKey, openChunk, sealChunk, sealChunkParts } from './sealed.ts';
import { KeptHashes, chunkFeeder, digestOnce, hashParts, type RunningHash } from './running-hash.ts';

/**
 * Resumable uploads that any replica can continue (PROVENA_ROLE=serve, or UPLOAD_STAGING=shared):
 * no staging folder. The upload's state (offset, sealed tail, the list of sealed segments) is a
 * row of `upload_sessions` (migration 0040) and its sealed chunks are objects in the object store
 * under `uploads/<id>/<first chunk>-<writer>`, one object per checkpoint of a request (at most
 * CHECKPOINT_BYTES). Chunks are sealed before they leave the process, as in the staging file:
 * plaintext is never stored; the unfinished last chunk is sealed under the tail key inside the row.
 *
 * One writer at a time across replicas: a PATCH takes a lease on the row (lock_owner, lock_until)
 * and every commit of the offset is fenced by it, so a second PATCH elsewhere is refused with 423
 * (tus clients retry it) and a writer whose lease was taken over cannot move the offset. A
 * replica that did not see the previous request rebuilds the running SHA-256 from the segments
 * once (as the local store does after a restart). When the last byte arrives the header, the
 * segments and the sealed last chunk are streamed into `stored/<identity>`.
 */
type SharedMeta = UploadMeta & { segments: { key: string; chunks: number }[] };

/** How long a PATCH holds the upload without renewing its lease (renewed while bytes arrive). */
export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;

const LOCKED = { status_code: 423, body: 'The upload is being written by another request\n' };

function tailKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, 'provena staging tail v1', 32));
}

/** Reads a stream as fixed-size records (the last may be shorter). */
async function* records(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let have = 0;
  for await (const piece of source as AsyncIterable<Buffer>) {
    pending.push(piece);
    have += piece.length;
    while (have >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      have -= size;
    }
  }
  if (have > 0) yield Buffer.concat(pending);
}

export class SharedStagingStore extends DataStore {
  private readonly db: Db;
  private readonly driver: ObjectDriver;
  private readonly master: Buffer;
  private readonly chunkBytes: number;
  readonly expiryMs: number;
  /** Running hashes of uploads this replica wrote last, with the offset they reached. */
  private readonly hashes = new KeptHashes();

  constructor(opts: { db: Db; driver: ObjectDriver; master: Buffer; chunkBytes?: number; expiryMs?: number }) {
    super();
    this.db = opts.db;
    this.driver = opts.driver;
    this.master = opts.master;
    this.chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.expiryMs = opts.expiryMs ?? 7 * 24 * 60 * 60 * 1000;
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  private static check(id: string): void {
    if (!/^[0-9a-f]{32}$/.test(id)) throw ERRORS.FILE_NOT_FOUND;
  }

  private async row(id: string) {
    SharedStagingStore.check(id);
    return this.db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async readMeta(id: string): Promise<SharedMeta | null> {
    const row = await this.row(id);
    if (!row || row.finished_at !== null) return null;
    return JSON.parse(row.meta) as SharedMeta;
  }

  override async create(upload: Upload): Promise<Upload> {
    SharedStagingStore.check(upload.id);
    const meta: SharedMeta = { ...newUploadMeta(upload, this.chunkBytes).meta, tail: '', segments: [] };
    await this.db
      .insertInto('upload_sessions')
      .values({ id: meta.id, meta: JSON.stringify(meta), upload_offset: 0, size: meta.size, lock_owner: null, lock_until: null, created_at: Date.now(), finished_at: null })
      .execute();
    upload.creation_date = meta.creation_date;
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.finished_at !== null) return new Upload({ id, size: Number(row.size), offset: Number(row.size), metadata: {}, creation_date: new Date(Number(row.finished_at)).toISOString() });
    const meta = JSON.parse(row.meta) as SharedMeta;
    return new Upload({ id, size: meta.size, offset: meta.offset, metadata: meta.metadata, creation_date: meta.creation_date });
  }

  /** Takes the upload's lease: false when another request holds it. */
  private async lock(id: string, owner: string): Promise<boolean> {
    const now = Date.now();
    const res = await this.db
      .updateTable('upload_sessions')
      .set({ lock_owner: owner, lock_until: now + LEASE_MS })
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .where((eb) => eb.or([eb('lock_owner', 'is', null), eb('lock_until', '<', now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Commits the state (and renews or releases the lease), only while `owner` still holds it. */
  private async commit(meta: SharedMeta, owner: string, release: boolean): Promise<void> {
    const res = await this.db
      .updateTable('upload_sessions')
      .set({ meta: JSON.stringify(meta), upload_offset: meta.offset, lock_owner: release ? null : owner, lock_until: release ? null : Date.now() + LEASE_MS })
      .where('id', '=', meta.id)
      .where('lock_owner', '=', owner)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw LOCKED;
  }

  private async unlock(id: string, owner: string): Promise<void> {
    await this.db.updateTable('upload_sessions').set({ lock_owner: null, lock_until: null }).where('id', '=', id).where('lock_owner', '=', owner).execute();
  }

  private readTail(meta: SharedMeta): Buffer {
    const sealed = Buffer.from(meta.tail ?? '', 'base64');
    if (sealed.length === 0) return Buffer.alloc(0);
    const decipher = createDecipheriv('aes-256-gcm', tailKey(this.master, Buffer.from(meta.salt, 'hex')), sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
  }

  private sealTail(meta: SharedMeta, plain: Buffer): string {
    if (plain.length === 0) return '';
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', tailKey(this.master, Buffer.from(meta.salt, 'hex')), iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
  }

  /** The sealed full chunks, in order, from the segment objects. */
  private async *sealedChunks(meta: SharedMeta): AsyncGenerator<Buffer> {
    for (const segment of meta.segments) {
      const source = await this.driver.get(segment.key);
      if (!source) throw new Error(`upload ${meta.id}: segment ${segment.key} is missing`);
      let n = 0;
      for await (const record of records(source, meta.chunkBytes + SEALED_TAG_BYTES)) {
        n += 1;
        yield record;
      }
      if (n !== segment.chunks) throw new Error(`upload ${meta.id}: segment ${segment.key} holds ${n} chunks, expected ${segment.chunks}`);
    }
  }

  /** The running hash at meta.offset: kept from this replica's last request, or rebuilt from the segments. */
  private async hasher(meta: SharedMeta): Promise<RunningHash> {
    return this.hashes.take(meta.id, meta.offset) ?? hashParts(this.stagedPlain(meta));
  }

  /** The plaintext staged so far: the sealed chunks of the segments, then the tail. */
  private async *stagedPlain(meta: SharedMeta): AsyncGenerator<Buffer> {
    const key = objectKey(this.master, Buffer.from(meta.salt, 'hex'));
    let index = 0;
    for await (const sealed of this.sealedChunks(meta)) yield openChunk(key, index++, sealed, false);
    yield this.readTail(meta);
  }

  override async write(stream: AsyncIterable<Buffer>, id: string, offset: number): Promise<number> {
    SharedStagingStore.check(id);
    const owner = randomBytes(8).toString('hex');
    if (!(await this.lock(id, owner))) {
      if (!(await this.row(id))) throw ERRORS.FILE_NOT_FOUND;
      throw LOCKED;
    }
    let meta: SharedMeta;
    let hasher: RunningHash;
    try {
      const read = await this.readMeta(id);
      if (!read) throw ERRORS.FILE_NOT_FOUND;
      meta = read;
      if (meta.isFinished || offset !== meta.offset) throw ERRORS.INVALID_OFFSET;
      hasher = await this.hasher(meta);
    } catch (error) {
      await this.unlock(id, owner);
      throw error;
    }
    // This request owns the running hash now (hasher took it out); it is put back only with the offset it reaches.
    const key = objectKey(this.master, Buffer.from(meta.salt, 'hex'));
    const chunk = Buffer.allocUnsafe(meta.chunkBytes);
    let fill = this.readTail(meta).copy(chunk, 0);
    // The chunk's bytes go to the hash thread when it is sealed and when the request ends.
    const feed = chunkFeeder(hasher, chunk, fill);
    let received = meta.offset;
    let chunks = meta.chunks;
    const segments = [...meta.segments];
    // The segment being written: a stream into the object store, opened at the first sealed chunk.
    let open: { key: string; pass: PassThrough; done: Promise<void>; chunks: number } | null = null;
    let lastRenew = Date.now();
    const closeSegment = async () => {
      if (!open) return;
      const s = open;
      open = null;
      s.pass.end();
      await s.done;
      segments.push({ key: s.key, chunks: s.chunks });
    };
    let streamError: unknown = null;
    try {
      try {
        for await (const piece of stream) {
          if (received + piece.length > meta.size) throw ERRORS.ERR_SIZE_EXCEEDED;
          received += piece.length;
          let at = 0;
          while (at < piece.length) {
            if (fill === meta.chunkBytes) {
              if (!open) {
                const segmentKey = `uploads/${id}/${chunks}-${owner}`;
                const pass = new PassThrough({ highWaterMark: 2 * meta.chunkBytes });
                const done = this.driver.put(segmentKey, pass);
                // A failed put is awaited at the segment's end; until then the stream only stalls.
                done.catch(() => undefined);
                open = { key: segmentKey, pass, done, chunks: 0 };
              }
              await feed.upTo(fill);
              const [body, tag] = sealChunkParts(key, chunks, chunk, false);
              const s: { pass: PassThrough; chunks: number; done: Promise<void> } = open;
              s.pass.write(body);
              if (!s.pass.write(tag)) await Promise.race([new Promise((r) => s.pass.once('drain', r)), s.done]);
              s.chunks += 1;
              chunks += 1;
              fill = 0;
              feed.restart();
              if (s.chunks * meta.chunkBytes >= CHECKPOINT_BYTES) {
                await closeSegment();
                meta = { ...meta, offset: chunks * meta.chunkBytes, chunks, tail: '', segments: [...segments] };
                await this.commit(meta, owner, false);
                lastRenew = Date.now();
              } else if (Date.now() - lastRenew > RENEW_MS) {
                await this.commit(meta, owner, false);
                lastRenew = Date.now();
              }
            }
            const n = Math.min(meta.chunkBytes - fill, piece.length - at);
            piece.copy(chunk, fill, at, at + n);
            fill += n;
            at += n;
          }
        }
      } catch (error) {
        if (error === ERRORS.ERR_SIZE_EXCEEDED || error === LOCKED) throw error;
        // A client that went away keeps what arrived; a failed object write keeps nothing of the open segment.
        streamError = error;
      }
      await feed.upTo(fill);
      await closeSegment();
      const next: SharedMeta = { ...meta, offset: received, chunks, tail: this.sealTail(meta, chunk.subarray(0, fill)), segments };
      await this.commit(next, owner, true);
      this.hashes.keep(id, hasher, received);
    } catch (error) {
      // A request that keeps nothing lets go of the hash.
      hasher.drop();
      const s = open as { key: string; pass: PassThrough } | null;
      if (s) {
        s.pass.destroy();
        await this.driver.remove(s.key).catch(() => undefined);
      }
      // Segments written by this request but not committed are not part of the upload.
      for (const segment of segments.slice(meta.segments.length)) await this.driver.remove(segment.key).catch(() => undefined);
      await this.unlock(id, owner).catch(() => undefined);
      throw error;
    }
    if (streamError) throw streamError;
    return received;
  }

  async seal(id: string, expectedSha256: string): Promise<SealedUpload> {
    const meta = await this.readMeta(id);
    if (!meta || meta.offset !== meta.size) throw ERRORS.FILE_NOT_FOUND;
    const sha256 = await digestOnce(() => this.hasher(meta));
    if (sha256 !== expectedSha256) {
      await this.remove(id);
      throw new HashMismatchError(`upload ${id} hashed to ${sha256}, expected ${expectedSha256}`);
    }
    const key = objectKey(this.master, Buffer.from(meta.salt, 'hex'));
    const header = encodeHeader({ chunkBytes: meta.chunkBytes, salt: Buffer.from(meta.salt, 'hex') });
    const last = sealChunk(key, meta.chunks, this.readTail(meta), true);
    const parts = async function* (this: SharedStagingStore) {
      yield header;
      yield* this.sealedChunks(meta);
      yield last;
    }.bind(this);
    return {
      sha256,
      size: meta.size,
      storeAs: async (objectKeyName) => {
        await this.driver.put(objectKeyName, Readable.from(parts()));
      },
      discard: async () => undefined,
    };
  }

  /** Stored: the segments go; the row stays (finished) until expiry so the upload answers as complete. */
  async finish(id: string, size: number): Promise<void> {
    const meta = await this.readMeta(id);
    await this.db.updateTable('upload_sessions').set({ finished_at: Date.now(), size, upload_offset: size, meta: '{}', lock_owner: null, lock_until: null }).where('id', '=', id).execute();
    this.hashes.drop(id);
    for (const segment of meta?.segments ?? []) await this.driver.remove(segment.key);
  }

  override async remove(id: string): Promise<void> {
    const meta = await this.readMeta(id);
    this.hashes.drop(id);
    await this.db.deleteFrom('upload_sessions').where('id', '=', id).execute();
    for (const segment of meta?.segments ?? []) await this.driver.remove(segment.key);
  }

  override getExpiration(): number {
    return this.expiryMs;
  }

  override async deleteExpired(): Promise<number> {
    const before = Date.now() - this.expiryMs;
    await this.db.deleteFrom('upload_sessions').where('finished_at', '<', before).execute();
    const expired = await this.db.selectFrom('upload_sessions').select('id').where('finished_at', 'is', null).where('created_at', '<', before).execute();
    for (const { id } of expired) await this.remove(id);
    return expired.length;
  }
}
