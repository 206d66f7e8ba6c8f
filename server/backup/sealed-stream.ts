import fs from 'node:fs';
import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * The encrypted envelope of a backup archive (docs/deploy.md, Backup and restore):
 *
 *   "PRVNBAK1" | u32 header length | header (JSON, in the clear, authenticated) | records…
 *
 * The key comes from the passphrase with scrypt (parameters and salt in the header). The
 * payload (a tar archive) is cut into chunks of `chunk_bytes` and each is sealed with
 * AES-256-GCM: record = u32 ciphertext length | u8 flags (1 = last) | ciphertext | 16-byte tag,
 * nonce = 4 zero bytes | u64 record number, associated data = sha256(header) | flags. So the
 * header cannot be edited, records cannot be reordered, dropped or cut off at the end, and
 * nothing is ever held in memory but one chunk.
 */

export const MAGIC = Buffer.from('PRVNBAK1', 'ascii');
export const FORMAT_VERSION = 1;
const TAG = 16;
const MAX_HEADER = 64 * 1024;

export type KdfParams = { name: 'scrypt'; n: number; r: number; p: number; salt: string };

export type EnvelopeHeader = {
  format: 'provena-backup';
  format_version: number;
  created_at: string;
  dialect: 'sqlite' | 'postgres';
  cipher: 'aes-256-gcm';
  chunk_bytes: number;
  kdf: KdfParams;
  /** sha256 of a key derived beside the encryption key: tells a wrong passphrase from a damaged archive. */
  key_check: string;
};

/** A clear error for the operator (bad passphrase, damaged archive): the command prints its message. */
export class BackupError extends Error {}

function scrypt(passphrase: string, salt: Buffer, params: { n: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: params.n, r: params.r, p: params.p, maxmem: 256 * 128 * params.n * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(passphrase.normalize('NFC'), salt, 64, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export type ArchiveKey = { key: Buffer; check: string };

async function deriveKey(passphrase: string, kdf: KdfParams): Promise<ArchiveKey> {
  if (kdf.name !== 'scrypt' || ![2 ** 14, 2 ** 15, 2 ** 16, 2 ** 17, 2 ** 18, 2 ** 19, 2 ** 20].includes(kdf.n) || kdf.r < 1 || kdf.r > 32 || kdf.p < 1 || kdf.p > 16) throw new BackupError('the archive names key-derivation parameters this version does not accept');
  const raw = await scrypt(passphrase, Buffer.from(kdf.salt, 'base64'), kdf);
  return { key: raw.subarray(0, 32), check: createHash('sha256').update(raw.subarray(32)).digest('hex') };
}

/** A new header and its key for an archive being written. */
export async function newEnvelope(passphrase: string, meta: { dialect: 'sqlite' | 'postgres'; createdAt: Date; chunkBytes?: number }): Promise<{ header: EnvelopeHeader; key: ArchiveKey }> {
  const kdf: KdfParams = { name: 'scrypt', n: 2 ** 17, r: 8, p: 1, salt: randomBytes(16).toString('base64') };
  const key = await deriveKey(passphrase, kdf);
  const header: EnvelopeHeader = {
    format: 'provena-backup',
    format_version: FORMAT_VERSION,
    created_at: meta.createdAt.toISOString(),
    dialect: meta.dialect,
    cipher: 'aes-256-gcm',
    chunk_bytes: meta.chunkBytes ?? 1024 * 1024,
    kdf,
    key_check: key.check,
  };
  return { header, key };
}

export function encodeHeader(header: EnvelopeHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([MAGIC, length, json]);
}

/** Reads and checks the clear header at the start of an archive file; `offset` is where the records begin. */
export async function readHeader(file: string): Promise<{ header: EnvelopeHeader; headerBytes: Buffer; offset: number }> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const start = Buffer.alloc(12);
    const { bytesRead } = await handle.read(start, 0, 12, 0);
    if (bytesRead < 12 || !start.subarray(0, 8).equals(MAGIC)) throw new BackupError(`${file} is not a provena backup archive`);
    const length = start.readUInt32BE(8);
    if (length > MAX_HEADER) throw new BackupError(`${file}: the archive header is damaged`);
    const json = Buffer.alloc(length);
    const read = await handle.read(json, 0, length, 12);
    if (read.bytesRead < length) throw new BackupError(`${file}: the archive is cut short`);
    let header: EnvelopeHeader;
    try {
      header = JSON.parse(json.toString('utf8')) as EnvelopeHeader;
    } catch {
      throw new BackupError(`${file}: the archive header is damaged`);
    }
    if (header.format !== 'provena-backup') throw new BackupError(`${file} is not a provena backup archive`);
    if (header.format_version !== FORMAT_VERSION) throw new BackupError(`${file} has backup format version ${String(header.format_version)}; this provena reads version ${FORMAT_VERSION}`);
    if (header.cipher !== 'aes-256-gcm' || !Number.isInteger(header.chunk_bytes) || header.chunk_bytes < 1024 || header.chunk_bytes > 64 * 1024 * 1024) throw new BackupError(`${file}: the archive header is damaged`);
    return { header, headerBytes: Buffer.concat([start, json]), offset: 12 + length };
  } finally {
    await handle.close();
  }
}

/** The key for an archive being read; a wrong passphrase is told apart from a damaged archive here. */
export async function openKey(passphrase: string, header: EnvelopeHeader): Promise<ArchiveKey> {
  const key = await deriveKey(passphrase, header.kdf);
  const a = Buffer.from(key.check, 'hex');
  const b = Buffer.from(String(header.key_check), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new BackupError('wrong passphrase: the archive does not open with it');
  return key;
}

function nonceOf(counter: bigint): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(counter, 4);
  return nonce;
}

function aadOf(headerHash: Buffer, flags: number): Buffer {
  return Buffer.concat([headerHash, Buffer.from([flags])]);
}

/** Plaintext in, sealed records out (after the header, which it writes first). */
export class Encryptor extends Transform {
  private readonly key: Buffer;
  private readonly headerHash: Buffer;
  private readonly chunkBytes: number;
  private readonly headerBytes: Buffer;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private counter = 0n;
  private isHeaderOut = false;

  constructor(header: EnvelopeHeader, key: ArchiveKey) {
    super();
    this.key = key.key;
    this.headerBytes = encodeHeader(header);
    this.headerHash = createHash('sha256').update(this.headerBytes).digest();
    this.chunkBytes = header.chunk_bytes;
  }

  private seal(plain: Buffer, isLast: boolean): Buffer {
    const flags = isLast ? 1 : 0;
    const cipher = createCipheriv('aes-256-gcm', this.key, nonceOf(this.counter++));
    cipher.setAAD(aadOf(this.headerHash, flags));
    const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(ct.length);
    prefix[4] = flags;
    return Buffer.concat([prefix, ct, cipher.getAuthTag()]);
  }

  private headerOnce(): void {
    if (this.isHeaderOut) return;
    this.isHeaderOut = true;
    this.push(this.headerBytes);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.headerOnce();
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // A chunk goes out only when more bytes follow it: the last one is sealed as last in _flush.
    while (this.pendingBytes > this.chunkBytes) {
      const all = Buffer.concat(this.pending);
      this.push(this.seal(all.subarray(0, this.chunkBytes), false));
      const rest = all.subarray(this.chunkBytes);
      this.pending = [rest];
      this.pendingBytes = rest.length;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.headerOnce();
    this.push(this.seal(Buffer.concat(this.pending), true));
    this.pending = [];
    callback();
  }
}

/** Sealed records in (the bytes after the header), authenticated plaintext out; any damage is an error. */
export class Decryptor extends Transform {
  private readonly key: Buffer;
  private readonly headerHash: Buffer;
  private readonly chunkBytes: number;
  private buffer: Buffer = Buffer.alloc(0);
  private counter = 0n;
  private isDone = false;

  constructor(headerBytes: Buffer, header: EnvelopeHeader, key: ArchiveKey) {
    super();
    this.key = key.key;
    this.headerHash = createHash('sha256').update(headerBytes).digest();
    this.chunkBytes = header.chunk_bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    try {
      for (;;) {
        if (this.buffer.length === 0) break;
        if (this.isDone) throw new BackupError('the archive is damaged: bytes follow its last record');
        if (this.buffer.length < 5) break;
        const length = this.buffer.readUInt32BE(0);
        const flags = this.buffer[4]!;
        if (length > this.chunkBytes || flags > 1) throw new BackupError(`the archive is damaged (record ${this.counter})`);
        if (this.buffer.length < 5 + length + TAG) break;
        const ct = this.buffer.subarray(5, 5 + length);
        const tag = this.buffer.subarray(5 + length, 5 + length + TAG);
        const decipher = createDecipheriv('aes-256-gcm', this.key, nonceOf(this.counter));
        decipher.setAAD(aadOf(this.headerHash, flags));
        decipher.setAuthTag(tag);
        let plain: Buffer;
        try {
          plain = Buffer.concat([decipher.update(ct), decipher.final()]);
        } catch {
          throw new BackupError(`the archive is damaged or was altered (record ${this.counter} does not authenticate)`);
        }
        this.counter++;
        this.buffer = this.buffer.subarray(5 + length + TAG);
        if (flags === 1) this.isDone = true;
        if (plain.length) this.push(plain);
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (!this.isDone || this.buffer.length) callback(new BackupError('the archive is cut short: its last record is missing'));
    else callback();
  }
}
