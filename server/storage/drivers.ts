import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsClient } from 'aws4fetch';

/**
 * Where stored objects live (architecture: STORAGE_URL). Objects are opaque bytes
 * (already sealed by the caller); keys are short, URL-safe names.
 */
export type ObjectDriver = {
  readonly kind: 'local' | 's3';
  /** Stores a stream under `key` (replacing any object there); a failed write leaves nothing behind. */
  put(key: string, source: Readable): Promise<void>;
  /**
   * Stores small bytes under `key` only if nothing is there, atomically: false when an object
   * exists (it is left as it is). Write-once records (checkpoints) use it.
   */
  create(key: string, bytes: Uint8Array): Promise<boolean>;
  /** Moves a finished local file into storage (a rename when it can be; the source is gone afterwards). */
  putFile(key: string, sourcePath: string): Promise<void>;
  /** A stream of the object, or null when there is none. */
  get(key: string): Promise<Readable | null>;
  /** The object's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
};

const SAFE_KEY = /^[a-z0-9][a-z0-9._/-]{0,200}$/;
function checkKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`not a storage key: ${key}`);
}

/** Local files under `dir` (the default: DATA_DIR/blobs/objects). Writes go to a temp file and are renamed. */
export function localDriver(dir: string): ObjectDriver {
  fs.mkdirSync(dir, { recursive: true });
  const pathOf = (key: string) => {
    checkKey(key);
    return path.join(dir, key);
  };
  const temp = (target: string) => `${target}.${randomBytes(6).toString('hex')}.tmp`;
  return {
    kind: 'local',
    async put(key, source) {
      const target = pathOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const t = temp(target);
      try {
        await pipeline(source, fs.createWriteStream(t));
        await fs.promises.rename(t, target);
      } catch (error) {
        await fs.promises.rm(t, { force: true });
        throw error;
      }
    },
    async create(key, bytes) {
      const target = pathOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const t = temp(target);
      try {
        await fs.promises.writeFile(t, bytes, { mode: 0o600 });
        // link() fails with EEXIST instead of replacing: an atomic write-once.
        await fs.promises.link(t, target);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        await fs.promises.rm(t, { force: true });
      }
    },
    async putFile(key, sourcePath) {
      const target = pathOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      try {
        await fs.promises.rename(sourcePath, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await this.put(key, fs.createReadStream(sourcePath));
        await fs.promises.rm(sourcePath, { force: true });
      }
    },
    async get(key) {
      const file = pathOf(key);
      try {
        const handle = await fs.promises.open(file, 'r');
        return handle.createReadStream({ highWaterMark: 1024 * 1024 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async size(key) {
      try {
        return (await fs.promises.stat(pathOf(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },
  };
}

export type S3Options = {
  bucket: string;
  /** Key prefix inside the bucket (from s3://bucket/prefix). */
  prefix: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (MinIO, s3rver, most self-hosted servers) rather than in the host name. */
  isPathStyle: boolean;
  /** Multipart part size; S3 needs at least 5 MiB for every part but the last. */
  partBytes?: number;
};

/** Reads a stream in parts of exactly `size` bytes (the last may be shorter); memory is one part. */
async function* parts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    held.push(chunk);
    heldBytes += chunk.length;
    while (heldBytes >= size) {
      const all = Buffer.concat(held);
      yield all.subarray(0, size);
      held = [all.subarray(size)];
      heldBytes = all.length - size;
    }
  }
  if (heldBytes > 0 || held.length === 0) yield Buffer.concat(held);
}

const xmlText = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];

/**
 * S3-compatible object storage over plain HTTP with SigV4 (aws4fetch): single PUT for
 * small objects, multipart upload (one part in memory at a time) for large ones.
 */
export function s3Driver(opts: S3Options): ObjectDriver {
  const client = new AwsClient({ accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, service: 's3', region: opts.region, retries: 2 });
  const partBytes = opts.partBytes ?? 8 * 1024 * 1024;
  const base = new URL(opts.endpoint);
  const urlOf = (key: string, query = '') => {
    checkKey(key);
    const objectPath = `${opts.prefix}${key}`.split('/').map(encodeURIComponent).join('/');
    const u = new URL(base);
    if (opts.isPathStyle) u.pathname = `${base.pathname.replace(/\/$/, '')}/${opts.bucket}/${objectPath}`;
    else {
      u.hostname = `${opts.bucket}.${base.hostname}`;
      u.pathname = `/${objectPath}`;
    }
    return `${u.toString()}${query}`;
  };
  const send = async (url: string, init: RequestInit, expected: number[] = [200]) => {
    const res = await client.fetch(url, init);
    if (!expected.includes(res.status)) {
      const text = await res.text().catch(() => '');
      throw new Error(`S3 ${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${xmlText(text, 'Code') ?? text.slice(0, 200)}`);
    }
    return res;
  };

  const driver: ObjectDriver = {
    kind: 's3',
    async put(key, source) {
      const iterator = parts(source, partBytes);
      const first = await iterator.next();
      const firstPart = first.done ? Buffer.alloc(0) : first.value;
      const second = first.done ? { done: true as const, value: undefined } : await iterator.next();
      if (second.done) {
        await send(urlOf(key), { method: 'PUT', body: new Uint8Array(firstPart.buffer, firstPart.byteOffset, firstPart.length) as Uint8Array<ArrayBuffer> });
        return;
      }
      const created = await send(urlOf(key, '?uploads'), { method: 'POST' });
      const uploadId = xmlText(await created.text(), 'UploadId');
      if (!uploadId) throw new Error('S3 did not return an UploadId');
      const etags: string[] = [];
      const uploadPart = async (part: Buffer) => {
        const n = etags.length + 1;
        const res = await send(urlOf(key, `?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`), { method: 'PUT', body: new Uint8Array(part.buffer, part.byteOffset, part.length) as Uint8Array<ArrayBuffer> });
        etags.push(res.headers.get('etag') ?? '');
      };
      try {
        await uploadPart(firstPart);
        await uploadPart(second.value);
        for await (const part of { [Symbol.asyncIterator]: () => iterator }) await uploadPart(part);
        const body = `<CompleteMultipartUpload>${etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
        const done = await send(urlOf(key, `?uploadId=${encodeURIComponent(uploadId)}`), { method: 'POST', body, headers: { 'content-type': 'application/xml' } });
        // S3 may answer 200 with an error document when completion fails late.
        const text = await done.text();
        if (text.includes('<Error>')) throw new Error(`S3 multipart completion failed: ${xmlText(text, 'Code') ?? text.slice(0, 200)}`);
      } catch (error) {
        await client.fetch(urlOf(key, `?uploadId=${encodeURIComponent(uploadId)}`), { method: 'DELETE' }).catch(() => undefined);
        throw error;
      }
    },
    async create(key, bytes) {
      // Look first, then a conditional write (If-None-Match: *): AWS S3 and MinIO answer 412
      // when the key appeared in between; servers that ignore the header (s3rver) still get
      // the look-first check.
      if ((await driver.size(key)) !== null) return false;
      const res = await send(urlOf(key), { method: 'PUT', body: bytes as Uint8Array<ArrayBuffer>, headers: { 'if-none-match': '*' } }, [200, 412]);
      return res.status === 200;
    },
    async putFile(key, sourcePath) {
      await driver.put(key, fs.createReadStream(sourcePath, { highWaterMark: 1024 * 1024 }));
      await fs.promises.rm(sourcePath, { force: true });
    },
    async get(key) {
      const res = await send(urlOf(key), { method: 'GET' }, [200, 404]);
      if (res.status === 404 || !res.body) {
        await res.body?.cancel();
        return null;
      }
      return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
    },
    async size(key) {
      const res = await send(urlOf(key), { method: 'HEAD' }, [200, 404]);
      if (res.status === 404) return null;
      return Number(res.headers.get('content-length'));
    },
    async remove(key) {
      await send(urlOf(key), { method: 'DELETE' }, [200, 204, 404]);
    },
  };
  return driver;
}
