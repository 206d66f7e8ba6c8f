import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type http from 'node:http';
import type { S3Client } from '@aws-sdk/client-s3';

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
  /** The object as an open local file (the local driver only), or null when there is none: read in place by downloads. */
  openFile?(key: string): Promise<fs.promises.FileHandle | null>;
  /** The object's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** Every stored key (under the configured prefix, which is not part of the key), in no promised order; backups walk it. */
  list(): AsyncIterable<string>;
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
    async openFile(key) {
      try {
        return await fs.promises.open(pathOf(key), 'r');
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
    async *list() {
      // Temp files of writes in progress (`<key>.<hex>.tmp`) are not objects yet.
      async function* walk(folder: string, prefix: string): AsyncGenerator<string> {
        let entries: fs.Dirent[];
        try {
          entries = await fs.promises.readdir(folder, { withFileTypes: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
        for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
          if (entry.isDirectory()) yield* walk(path.join(folder, entry.name), `${prefix}${entry.name}/`);
          else if (entry.isFile() && !entry.name.endsWith('.tmp') && SAFE_KEY.test(`${prefix}${entry.name}`)) yield `${prefix}${entry.name}`;
        }
      }
      yield* walk(dir, '');
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
  /** HTTP agent for the SDK (tests use one whose DNS lookup sends *.localhost names to loopback). */
  httpAgent?: http.Agent;
};

type SdkError = Error & { name: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (error: unknown) => (error as SdkError).$metadata?.httpStatusCode;
const isMissing = (error: unknown) => statusOf(error) === 404 || ['NoSuchKey', 'NotFound'].includes((error as SdkError).name);

/**
 * S3-compatible object storage through the maintained AWS SDK (`@aws-sdk/client-s3`), with
 * streaming puts through `@aws-sdk/lib-storage`'s Upload (one part in memory per queue slot;
 * multipart only when the object is larger than one part). Path style (`S3_FORCE_PATH_STYLE=true`,
 * MinIO, s3rver) or virtual-host style (`bucket.endpoint-host`, AWS).
 *
 * The SDK is loaded at the driver's first call, not when the server starts: a server on the local
 * driver never loads it, and its ~6 MB of modules stay out of the API's heap (which every full
 * garbage collection walks; an upload or a download runs dozens of them).
 */
export function s3Driver(opts: S3Options): ObjectDriver {
  let sdk: Promise<{ s3: typeof import('@aws-sdk/client-s3'); Upload: typeof import('@aws-sdk/lib-storage').Upload; client: S3Client }> | null = null;
  const load = () =>
    (sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, storage]) => ({ s3, Upload: storage.Upload, client: newClient(s3) })));
  const newClient = (s3: typeof import('@aws-sdk/client-s3')) => new s3.S3Client({
    endpoint: opts.endpoint,
    region: opts.region,
    forcePathStyle: opts.isPathStyle,
    credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
    maxAttempts: 3,
    // The SDK's defaults (since 3.729) add CRC32 checksums to every request and validate them
    // on every response; s3rver and older MinIO/Ceph releases reject or do not return them. Only
    // where an operation requires one (none of ours do) is it computed.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(opts.httpAgent ? { requestHandler: { httpAgent: opts.httpAgent } } : {}),
  });
  const partBytes = opts.partBytes ?? 8 * 1024 * 1024;
  const keyOf = (key: string) => {
    checkKey(key);
    return `${opts.prefix}${key}`;
  };
  const Bucket = opts.bucket;

  const driver: ObjectDriver = {
    kind: 's3',
    async put(key, source) {
      // Upload sends one PutObject when the stream fits one part, otherwise a multipart upload
      // that is never completed on failure, so a failed write leaves no object. We abort the
      // multipart upload ourselves (leavePartsOnError: true stops lib-storage doing it) because
      // lib-storage throws the abort's error instead of the cause when the abort fails too
      // (s3rver answers AbortMultipartUpload with MethodNotAllowed); the cause is what matters.
      const { s3, Upload, client } = await load();
      const upload = new Upload({ client, params: { Bucket, Key: keyOf(key), Body: source }, partSize: partBytes, queueSize: 2, leavePartsOnError: true });
      try {
        await upload.done();
      } catch (error) {
        if (upload.uploadId) await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: keyOf(key), UploadId: upload.uploadId })).catch(() => undefined);
        throw error;
      }
    },
    async create(key, bytes) {
      // A conditional write (If-None-Match: *): AWS S3 (since 2024-08) and MinIO answer 412
      // when the key exists or appears concurrently. s3rver ignores the header and would
      // replace the object, so we look first: on such servers write-once holds for one writer
      // (the sealer is a single leader) but is not atomic against a racing second writer.
      if ((await driver.size(key)) !== null) return false;
      const { s3, client } = await load();
      try {
        await client.send(new s3.PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, IfNoneMatch: '*' }));
        return true;
      } catch (error) {
        if (statusOf(error) === 412 || (error as SdkError).name === 'PreconditionFailed') return false;
        throw error;
      }
    },
    async putFile(key, sourcePath) {
      await driver.put(key, fs.createReadStream(sourcePath, { highWaterMark: 1024 * 1024 }));
      await fs.promises.rm(sourcePath, { force: true });
    },
    async get(key) {
      const { s3, client } = await load();
      try {
        const res = await client.send(new s3.GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return res.Body instanceof Readable ? res.Body : Readable.fromWeb((res.Body as { transformToWebStream(): import('node:stream/web').ReadableStream }).transformToWebStream());
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async size(key) {
      const { s3, client } = await load();
      try {
        const res = await client.send(new s3.HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return res.ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const { s3, client } = await load();
      try {
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    async *list() {
      const { s3, client } = await load();
      let token: string | undefined;
      do {
        const res = await client.send(new s3.ListObjectsV2Command({ Bucket, Prefix: opts.prefix || undefined, ContinuationToken: token }));
        for (const object of res.Contents ?? []) {
          const key = object.Key?.slice(opts.prefix.length);
          if (key && object.Key!.startsWith(opts.prefix) && SAFE_KEY.test(key)) yield key;
        }
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
    },
  };
  return driver;
}
