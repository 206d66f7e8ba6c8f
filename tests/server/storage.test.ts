import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDriver, s3Driver, type ObjectDriver } from '../../server/storage/drivers.ts';
import { DEFAULT_CHUNK_BYTES, SEALED_HEADER_BYTES, SEALED_TAG_BYTES, gcmKey, objectKey, openChunk, openChunkAsync, openSealedFile, openStream, sealChunk, sealChunkAsync, sealStream, sealedSize, sendSealedFile, releaseBuffer } from '../../server/storage/sealed.ts';
import { createFileStore, loadMasterKey, objectKeyOf, writeInPieces } from '../../server/storage/file-store.ts';
import { stopHashThread } from '../../server/storage/running-hash.ts';
import { readEnv, type StorageEnv } from '../../server/env.ts';
import { Upload } from '@tus/utils';
import { startHarness, type Harness } from './harness.ts';
import { identityOf, ownerWithEnterprise, memberOf } from './enterprise-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { listen, loopbackAgent, startS3, tusUpload } from './storage-helpers.ts';

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}
const master = randomBytes(32);
const seal = (plain: Buffer, chunk = 4096) => collect(Readable.from([plain]).pipe(sealStream(master, chunk)));
const open = (sealed: Buffer) => collect(Readable.from([sealed]).pipe(openStream(master)));

describe('sealed objects (AES-256-GCM in chunks)', () => {
  it('round-trips at every chunk boundary, and pieces give the same plaintext as one go', async () => {
    for (const size of [0, 1, 4095, 4096, 4097, 3 * 4096, 3 * 4096 + 17]) {
      const plain = randomBytes(size);
      const sealed = await seal(plain);
      expect(sealed.length).toBe(sealedSize(size, 4096));
      expect((await open(sealed)).equals(plain)).toBe(true);
      // Fed in odd-sized pieces, the decryptor gives the same bytes.
      const pieces: Buffer[] = [];
      for (let i = 0; i < sealed.length; i += 1000) pieces.push(sealed.subarray(i, i + 1000));
      expect((await collect(Readable.from(pieces).pipe(openStream(master)))).equals(plain)).toBe(true);
    }
  });

  it('refuses a flipped byte, a dropped last chunk, swapped chunks and the wrong key', async () => {
    const plain = randomBytes(3 * 4096 + 5);
    const sealed = await seal(plain);
    const flipped = Buffer.from(sealed);
    flipped[SEALED_HEADER_BYTES + 10]! ^= 1;
    await expect(open(flipped)).rejects.toThrow(/authentication/);
    const sealedChunk = 4096 + SEALED_TAG_BYTES;
    await expect(open(sealed.subarray(0, SEALED_HEADER_BYTES + 3 * sealedChunk))).rejects.toThrow(/authentication/);
    const swapped = Buffer.concat([
      sealed.subarray(0, SEALED_HEADER_BYTES),
      sealed.subarray(SEALED_HEADER_BYTES + sealedChunk, SEALED_HEADER_BYTES + 2 * sealedChunk),
      sealed.subarray(SEALED_HEADER_BYTES, SEALED_HEADER_BYTES + sealedChunk),
      sealed.subarray(SEALED_HEADER_BYTES + 2 * sealedChunk),
    ]);
    await expect(open(swapped)).rejects.toThrow(/authentication/);
    await expect(collect(Readable.from([sealed]).pipe(openStream(randomBytes(32))))).rejects.toThrow(/authentication/);
  });

  it('chunks sealed and opened on the thread pool (WebCrypto) are the same bytes as in line, and refused the same way', async () => {
    const key = objectKey(master, randomBytes(16));
    const gcm = await gcmKey(key);
    for (const [index, isLast] of [[0, false], [7, false], [9, true]] as const) {
      const plain = randomBytes(4096 + index);
      const buffer = Buffer.from(plain);
      const sealing = sealChunkAsync(gcm, index, buffer, isLast);
      // The input is copied when called: the upload refills its chunk buffer at once.
      buffer.fill(0);
      const sealed = await sealing;
      expect(sealed.equals(sealChunk(key, index, plain, isLast))).toBe(true);
      expect((await openChunkAsync(gcm, index, sealed, isLast)).equals(plain)).toBe(true);
      expect(openChunk(key, index, sealed, isLast).equals(plain)).toBe(true);
      // Another index, the other last-chunk flag or a flipped byte: refused.
      await expect(openChunkAsync(gcm, index + 1, sealed, isLast)).rejects.toThrow(/authentication/);
      await expect(openChunkAsync(gcm, index, sealed, !isLast)).rejects.toThrow(/authentication/);
      const flipped = Buffer.from(sealed);
      flipped[3]! ^= 1;
      await expect(openChunkAsync(gcm, index, flipped, isLast)).rejects.toThrow(/authentication/);
    }
  });

  it('a sealed file read in place (downloads from the local driver) gives the same plaintext and refuses the same damage', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-sealed-file-'));
    const openFile = async (bytes: Buffer, key = master) => {
      const file = path.join(dir, randomBytes(4).toString('hex'));
      fs.writeFileSync(file, bytes);
      return collect(openSealedFile(await fs.promises.open(file, 'r'), key));
    };
    try {
      for (const size of [0, 1, 4095, 4096, 4097, 9 * 4096, 9 * 4096 + 17]) {
        const plain = randomBytes(size);
        expect((await openFile(await seal(plain))).equals(plain), String(size)).toBe(true);
      }
      const sealed = await seal(randomBytes(9 * 4096 + 5));
      const flipped = Buffer.from(sealed);
      flipped[SEALED_HEADER_BYTES + 6 * (4096 + SEALED_TAG_BYTES) + 3]! ^= 1;
      await expect(openFile(flipped)).rejects.toThrow(/authentication/);
      // The last chunk dropped (the one before it was not sealed as last), or cut short.
      await expect(openFile(sealed.subarray(0, SEALED_HEADER_BYTES + 9 * (4096 + SEALED_TAG_BYTES)))).rejects.toThrow(/authentication/);
      await expect(openFile(sealed.subarray(0, sealed.length - 3))).rejects.toThrow(/authentication|truncated/);
      await expect(openFile(randomBytes(100))).rejects.toThrow(/sealed object/);
      await expect(openFile(sealed, randomBytes(32))).rejects.toThrow(/authentication/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sealed file sent from the download thread (sendSealedFile) gives the same plaintext, refuses the same damage and stops with its receiver', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-sealed-send-'));
    /**
     * A receiver like a socket: it holds each piece until its write completes (a turn later) and
     * only then reads it, so a slot refilled before its write callback would show here.
     */
    const receiver = (stopAfter = Infinity) => {
      const parts: Buffer[] = [];
      const out = new Writable({
        write(chunk: Buffer, _encoding, done) {
          setImmediate(() => {
            parts.push(Buffer.from(chunk));
            if (parts.length >= stopAfter) out.destroy();
            else done();
          });
        },
      });
      return { out, bytes: () => Buffer.concat(parts) };
    };
    const send = async (bytes: Buffer, key = master, stopAfter = Infinity) => {
      const file = path.join(dir, randomBytes(4).toString('hex'));
      fs.writeFileSync(file, bytes);
      const handle = await fs.promises.open(file, 'r');
      const r = receiver(stopAfter);
      try {
        await sendSealedFile(handle, key, r.out);
      } finally {
        // Closed whichever way it ended.
        expect(handle.fd).toBe(-1);
      }
      return r.bytes();
    };
    try {
      for (const size of [0, 1, 4095, 4096, 4097, 9 * 4096, 9 * 4096 + 17]) {
        const plain = randomBytes(size);
        expect((await send(await seal(plain))).equals(plain), String(size)).toBe(true);
      }
      // Several at once through the one thread.
      const plains = [randomBytes(7 * 4096 + 1), randomBytes(4096), randomBytes(12 * 4096 + 9)];
      const sent = await Promise.all(plains.map(async (p) => send(await seal(p))));
      sent.forEach((bytes, i) => expect(bytes.equals(plains[i]!)).toBe(true));
      const sealed = await seal(randomBytes(9 * 4096 + 5));
      const flipped = Buffer.from(sealed);
      flipped[SEALED_HEADER_BYTES + 6 * (4096 + SEALED_TAG_BYTES) + 3]! ^= 1;
      await expect(send(flipped)).rejects.toThrow(/authentication/);
      await expect(send(sealed.subarray(0, SEALED_HEADER_BYTES + 9 * (4096 + SEALED_TAG_BYTES)))).rejects.toThrow(/authentication/);
      await expect(send(sealed.subarray(0, sealed.length - 3))).rejects.toThrow(/authentication|truncated/);
      await expect(send(randomBytes(100))).rejects.toThrow(/sealed object/);
      await expect(send(sealed, randomBytes(32))).rejects.toThrow(/authentication/);
      // The receiver goes away after two chunks: the send fails instead of waiting for it.
      await expect(send(sealed, master, 2)).rejects.toThrow();
      // And the thread still serves the next download.
      const after = randomBytes(5 * 4096 + 3);
      expect((await send(await seal(after))).equals(after)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('releaseBuffer frees a buffer that owns its memory and leaves views of shared memory alone', () => {
    const own = Buffer.from(randomBytes(64 * 1024));
    releaseBuffer(own);
    expect(own.length).toBe(0);
    // A small buffer from Node's pool, a slice of a larger one and shared memory keep their bytes.
    const pooled = Buffer.from('abc');
    const larger = randomBytes(8192);
    const slice = larger.subarray(100, 200);
    const shared = Buffer.from(new SharedArrayBuffer(4096));
    for (const b of [pooled, slice, shared]) releaseBuffer(b);
    expect(pooled.toString()).toBe('abc');
    expect(slice.length).toBe(100);
    expect(larger.length).toBe(8192);
    expect(shared.length).toBe(4096);
  });

  it('writeInPieces puts a sealed chunk in place as pieces and reports a failed write once all have ended', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-pieces-'));
    try {
      const file = path.join(dir, 'part');
      fs.writeFileSync(file, Buffer.alloc(32, 7));
      const chunk = randomBytes(DEFAULT_CHUNK_BYTES + SEALED_TAG_BYTES);
      const handle = await fs.promises.open(file, 'r+');
      await writeInPieces(handle, chunk, 32);
      await writeInPieces(handle, chunk.subarray(0, 5), 32 + chunk.length);
      await handle.close();
      const back = fs.readFileSync(file);
      expect(back.length).toBe(32 + chunk.length + 5);
      expect(back.subarray(0, 32).equals(Buffer.alloc(32, 7))).toBe(true);
      expect(back.subarray(32, 32 + chunk.length).equals(chunk)).toBe(true);
      expect(back.subarray(32 + chunk.length).equals(chunk.subarray(0, 5))).toBe(true);
      // A handle that cannot write: rejected with the system's error, not left hanging.
      const readOnly = await fs.promises.open(file, 'r');
      await expect(writeInPieces(readOnly, chunk, 0)).rejects.toMatchObject({ code: 'EBADF' });
      await readOnly.close();
      expect(fs.readFileSync(file).equals(back)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never holds the plaintext in the sealed bytes', async () => {
    const marker = Buffer.from('PROVENA-PLAINTEXT-MARKER-'.repeat(400));
    const sealed = await seal(marker);
    expect(sealed.includes(Buffer.from('PROVENA-PLAINTEXT-MARKER'))).toBe(false);
  });
});

describe('STORAGE_URL', () => {
  it('defaults to local files under DATA_DIR/blobs/objects and validates s3:// settings', () => {
    expect(readEnv({ DATA_DIR: '/srv/p' }).storage).toEqual({ kind: 'local', dir: '/srv/p/blobs/objects' });
    expect(readEnv({ STORAGE_URL: 'file:///srv/objects' }).storage).toEqual({ kind: 'local', dir: '/srv/objects' });
    expect(() => readEnv({ STORAGE_URL: 'file://relative' })).toThrow(/absolute folder/);
    expect(() => readEnv({ STORAGE_URL: 's3://bucket' })).toThrow(/S3_ENDPOINT must be/);
    expect(() => readEnv({ STORAGE_URL: 's3://bucket', S3_ENDPOINT: 'http://h:9000' })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => readEnv({ STORAGE_URL: 's3://B_ad' })).toThrow(/s3:\/\/bucket/);
    expect(() => readEnv({ STORAGE_URL: 'ftp://x' })).toThrow(/STORAGE_URL must start/);
    expect(() => readEnv({ STORAGE_KEY: 'abc' })).toThrow(/STORAGE_KEY must be 64 hex/);
    const s3 = readEnv({ STORAGE_URL: 's3://provena-files/prod', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }).storage;
    expect(s3).toMatchObject({ kind: 's3', bucket: 'provena-files', prefix: 'prod/', region: 'us-east-1', isPathStyle: true });
  });
});

describe('master key', () => {
  it('STORAGE_KEY wins; otherwise DATA_DIR/storage.key is created once (mode 0600) and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-key-'));
    const given = randomBytes(32);
    expect(loadMasterKey(dir, given).equals(given)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'storage.key'))).toBe(false);
    const created = loadMasterKey(dir, undefined);
    expect(created.length).toBe(32);
    expect(fs.statSync(path.join(dir, 'storage.key')).mode & 0o777).toBe(0o600);
    expect(loadMasterKey(dir, undefined).equals(created)).toBe(true);
    fs.writeFileSync(path.join(dir, 'storage.key'), 'not hex');
    expect(() => loadMasterKey(dir, undefined)).toThrow(/64 hex digits/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

type DriverCase = { name: string; withApp?: false; setup(): Promise<{ driver: ObjectDriver; storage: StorageEnv; close(): Promise<void> }> };

const cases: DriverCase[] = [
  {
    name: 'local',
    async setup() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-local-'));
      return { driver: localDriver(dir), storage: { kind: 'local', dir }, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 's3 (s3rver)',
    async setup() {
      const s3 = await startS3();
      if (s3.storage.kind !== 's3') throw new Error('unreachable');
      return { driver: s3Driver({ ...s3.storage, partBytes: 5 * 1024 * 1024 }), storage: s3.storage, close: s3.close };
    },
  },
  {
    name: 's3 virtual-host style (s3rver)',
    // The app builds its driver from STORAGE_URL with the system resolver, which does not know
    // provena.s3.localhost; the driver-level cases above cover the SDK in this style.
    withApp: false,
    async setup() {
      const s3 = await startS3();
      if (s3.storage.kind !== 's3') throw new Error('unreachable');
      const storage = { ...s3.storage, endpoint: s3.vhostEndpoint, isPathStyle: false };
      const agent = loopbackAgent();
      // A vhost-only driver: requests go to http://provena.s3.localhost:port/test/<key>.
      return { driver: s3Driver({ ...storage, partBytes: 5 * 1024 * 1024, httpAgent: agent }), storage, close: async () => { agent.destroy(); await s3.close(); } };
    },
  },
];

describe.each(cases)('storage driver: $name', ({ setup, withApp }) => {
  let driver: ObjectDriver;
  let storage: StorageEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ driver, storage, close } = await setup());
  });
  afterAll(async () => close());

  it('puts, reads, sizes and removes objects; a missing one is null', async () => {
    const small = randomBytes(1000);
    await driver.put('stored/small', Readable.from([small]));
    expect(await driver.size('stored/small')).toBe(1000);
    expect((await collect((await driver.get('stored/small'))!)).equals(small)).toBe(true);
    expect(await driver.get('stored/none')).toBeNull();
    expect(await driver.size('stored/none')).toBeNull();
    await driver.remove('stored/small');
    expect(await driver.size('stored/small')).toBeNull();
    await driver.remove('stored/small');
    await expect(driver.put('../escape', Readable.from([small]))).rejects.toThrow(/not a storage key/);
  });

  it('creates a write-once object: a second create of the same key leaves the first in place', async () => {
    const key = `checkpoints/once-${randomBytes(4).toString('hex')}`;
    expect(await driver.create(key, Buffer.from('first\n'))).toBe(true);
    expect(await driver.create(key, Buffer.from('second\n'))).toBe(false);
    expect((await collect((await driver.get(key))!)).toString()).toBe('first\n');
  });

  it('streams a multi-part object (12 MiB in parts of 5 MiB) and moves a finished file in', async () => {
    const big = randomBytes(12 * 1024 * 1024 + 3);
    const pieces: Buffer[] = [];
    for (let i = 0; i < big.length; i += 256 * 1024) pieces.push(big.subarray(i, i + 256 * 1024));
    await driver.put('stored/big', Readable.from(pieces));
    expect(await driver.size('stored/big')).toBe(big.length);
    expect((await collect((await driver.get('stored/big'))!)).equals(big)).toBe(true);
    const file = path.join(os.tmpdir(), `provena-putfile-${process.pid}`);
    fs.writeFileSync(file, big.subarray(0, 7000));
    await driver.putFile('stored/moved', file);
    expect(fs.existsSync(file)).toBe(false);
    expect(await driver.size('stored/moved')).toBe(7000);
  });

  it('a stream that fails midway (after one full part) leaves no object behind', async () => {
    const part = randomBytes(6 * 1024 * 1024);
    async function* failing() {
      yield part;
      yield part.subarray(0, 1024);
      throw new Error('client went away');
    }
    await expect(driver.put('stored/broken', Readable.from(failing()))).rejects.toThrow(/client went away/);
    expect(await driver.size('stored/broken')).toBeNull();
  });

  it('file store: a plaintext stream is sealed, checked against its identity, and read back', async () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-staging-'));
    const store = createFileStore({ driver, master, stagingDir: staging, chunkBytes: 64 * 1024 });
    const plain = randomBytes(300 * 1024 + 11);
    const identity = identityOf(plain, 'bin');
    await store.putPlain(identity, Readable.from([plain]), plain.length);
    expect(await store.isStored(identity)).toBe(true);
    expect((await collect((await store.open(identity))!)).equals(plain)).toBe(true);
    const raw = await collect((await driver.get(objectKeyOf(identity)))!);
    expect(raw.includes(plain.subarray(0, 64))).toBe(false);
    await expect(store.putPlain(identityOf(randomBytes(8), 'bin'), Readable.from([plain]), plain.length)).rejects.toThrow(/hashed to/);
    expect(fs.readdirSync(staging)).toEqual([]);
    expect(storage.kind).toBeTruthy();
  });

  it('staging: an upload resumed by a restarted process (no hash in memory) rebuilds the hash from the sealed staging file', async () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-staging-'));
    const plain = randomBytes(5 * 64 * 1024 + 999);
    const identity = identityOf(plain, 'bin');
    const first = createFileStore({ driver, master, stagingDir: staging, chunkBytes: 64 * 1024 });
    const id = randomBytes(16).toString('hex');
    await first.tus.create(new Upload({ id, size: plain.length, offset: 0, metadata: {} }));
    // The client goes away after 2.5 chunks: the stream just ends.
    expect(await first.tus.write(Readable.from([plain.subarray(0, 160 * 1024)]), id, 0)).toBe(160 * 1024);
    const restarted = createFileStore({ driver, master, stagingDir: staging, chunkBytes: 64 * 1024 });
    expect((await restarted.tus.getUpload(id)).offset).toBe(160 * 1024);
    await restarted.tus.write(Readable.from([plain.subarray(160 * 1024)]), id, 160 * 1024);
    const sealed = await restarted.tus.seal(id, identity.slice(2, 66));
    await sealed.storeAs(objectKeyOf(identity));
    await restarted.tus.remove(id);
    expect((await collect((await restarted.open(identity))!)).equals(plain)).toBe(true);
    fs.rmSync(staging, { recursive: true, force: true });
  });

  it('staging: a hash lost with its thread, in the middle of a request and between requests, is rebuilt from the staging file', async () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-staging-'));
    const plain = randomBytes(7 * 64 * 1024 + 333);
    const identity = identityOf(plain, 'bin');
    const store = createFileStore({ driver, master, stagingDir: staging, chunkBytes: 64 * 1024 });
    const id = randomBytes(16).toString('hex');
    await store.tus.create(new Upload({ id, size: plain.length, offset: 0, metadata: {} }));
    // The thread stops while the request is half-way: the request goes on and keeps every byte.
    async function* stoppedMidway() {
      yield plain.subarray(0, 100 * 1024);
      await stopHashThread();
      yield plain.subarray(100 * 1024, 300 * 1024);
    }
    expect(await store.tus.write(stoppedMidway(), id, 0)).toBe(300 * 1024);
    expect(await store.tus.write(Readable.from([plain.subarray(300 * 1024, 400 * 1024)]), id, 300 * 1024)).toBe(400 * 1024);
    // And once more between the last request and the seal.
    await store.tus.write(Readable.from([plain.subarray(400 * 1024)]), id, 400 * 1024);
    await stopHashThread();
    const sealed = await store.tus.seal(id, identity.slice(2, 66));
    await sealed.storeAs(objectKeyOf(identity));
    await store.tus.remove(id);
    expect((await collect((await store.open(identity))!)).equals(plain)).toBe(true);
    // The wrong bytes still fail after a rebuild.
    const other = randomBytes(3 * 64 * 1024);
    const otherId = randomBytes(16).toString('hex');
    await store.tus.create(new Upload({ id: otherId, size: other.length, offset: 0, metadata: {} }));
    await store.tus.write(Readable.from([other]), otherId, 0);
    await stopHashThread();
    await expect(store.tus.seal(otherId, identity.slice(2, 66))).rejects.toThrow(/hashed to/);
    fs.rmSync(staging, { recursive: true, force: true });
  });

  it.skipIf(withApp === false)('tus: upload through the app, cut off midway, resumed, hashed as it streamed, stored sealed', async () => {
    const h: Harness = await startHarness({}, { storage });
    try {
      const base = await listen(h);
      const owner = await ownerWithEnterprise(h, `存储测试${storage.kind}有限公司`);
      const bytes = randomBytes(DEFAULT_CHUNK_BYTES * 3 + 12345);
      const identity = identityOf(bytes, 'dat');
      // Not registered yet: refused.
      const early = await tusUpload(base, owner.cookie, bytes, identity);
      expect(early.error?.originalResponse?.getStatus()).toBe(400);
      expect(JSON.parse(early.error!.originalResponse!.getBody())).toEqual({ message: 'proof_record_not_found', field_name: 'file' });
      // Malformed Upload-Metadata (read by @tus/utils, as the tus server reads it): a field error, nothing staged.
      for (const metadata of ['identity !!!!', `identity ${Buffer.from(identity).toString('base64')},identity ${Buffer.from(identity).toString('base64')}`, 'bad key x']) {
        const r = await fetch(`${base}/api/v1/storage/uploads`, { method: 'POST', headers: { cookie: owner.cookie, 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': metadata } });
        expect(r.status, metadata).toBe(400);
        expect(await r.json()).toEqual({ message: 'invalid_param', field_name: 'file' });
      }
      await creditsForAssets(h, owner, owner, 4);
      await registerAsset(h, owner, identity);

      const first = await tusUpload(base, owner.cookie, bytes, identity, { abortAfterBytes: DEFAULT_CHUNK_BYTES + 1000, chunkSize: 700 * 1024 });
      expect(first.url).toBeTruthy();
      const uploadPath = new URL(first.url!, base).pathname;
      const head = await fetch(`${base}${uploadPath}`, { method: 'HEAD', headers: { cookie: owner.cookie, 'tus-resumable': '1.0.0' } });
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThan(DEFAULT_CHUNK_BYTES);
      expect(offset).toBeLessThan(bytes.length);
      // Another user cannot see or continue it.
      const other = await memberOf(h, owner, 0);
      const stranger = await fetch(`${base}${uploadPath}`, { method: 'HEAD', headers: { cookie: other.cookie, 'tus-resumable': '1.0.0' } });
      expect(stranger.status).toBe(404);
      // Nothing readable in the staging area while it waits.
      const stagingDir = path.join(h.app.env.dataDir, 'uploads');
      for (const f of fs.readdirSync(stagingDir).filter((n) => !n.endsWith('.json'))) {
        expect(fs.readFileSync(path.join(stagingDir, f)).includes(bytes.subarray(100, 164))).toBe(false);
      }

      const resumed = await tusUpload(base, owner.cookie, bytes, identity, { uploadUrl: first.url!, chunkSize: 700 * 1024 });
      expect(resumed.error).toBeNull();
      const state = await h.request({ method: 'GET', url: `/api/v1/storage/files/${identity}`, cookie: owner.cookie });
      expect(state.json().data).toMatchObject({ is_stored: true, is_registered: true, size: bytes.length });
      expect((await collect((await h.app.fileStore.open(identity))!)).equals(bytes)).toBe(true);
      const list = await h.request({ method: 'GET', url: '/api/v1/storage/files', cookie: owner.cookie });
      expect(list.json().data.map((f: { hash: string }) => f.hash)).toEqual([identity]);
      expect(list.json().data[0]).toEqual({ hash: identity, name: expect.any(String), size: bytes.length, stored_at: expect.any(Number) });
      // A plain member who did not register it does not get it offered.
      const memberList = await h.request({ method: 'GET', url: '/api/v1/storage/files', cookie: other.cookie });
      expect(memberList.json().data).toEqual([]);

      // Bytes that are not the named file: refused at the end, nothing stored.
      const liar = randomBytes(5000);
      const claimed = identityOf(randomBytes(5000), 'dat');
      await registerAsset(h, owner, claimed);
      const lie = await tusUpload(base, owner.cookie, liar, claimed);
      expect(lie.error?.originalResponse?.getStatus()).toBe(400);
      expect(JSON.parse(lie.error!.originalResponse!.getBody())).toEqual({ message: 'hash_mismatch', field_name: 'file' });
      expect(await h.app.fileStore.isStored(claimed)).toBe(false);
      // Nothing staged is left: only the markers of finished uploads (a size and a date).
      expect(fs.readdirSync(stagingDir).filter((name) => !name.endsWith('.done'))).toEqual([]);

      // The whole file in the creation request (tus creation-with-upload, one round trip for a
      // small file): stored and answered 201 with the full offset, not 404 after storing.
      const whole = randomBytes(300 * 1024);
      const wholeIdentity = identityOf(whole, 'bin');
      await registerAsset(h, owner, wholeIdentity);
      const created = await fetch(`${base}/api/v1/storage/uploads`, {
        method: 'POST',
        headers: { cookie: owner.cookie, 'tus-resumable': '1.0.0', 'upload-length': String(whole.length), 'upload-metadata': `identity ${Buffer.from(wholeIdentity).toString('base64')}`, 'content-type': 'application/offset+octet-stream' },
        body: whole,
      });
      expect(created.status, await created.clone().text()).toBe(201);
      expect(Number(created.headers.get('upload-offset'))).toBe(whole.length);
      expect((await collect((await h.app.fileStore.open(wholeIdentity))!)).equals(whole)).toBe(true);
      // tus-js-client does the same when asked to send data with the creation request.
      const again = randomBytes(200 * 1024);
      const againIdentity = identityOf(again, 'bin');
      await registerAsset(h, owner, againIdentity);
      expect((await tusUpload(base, owner.cookie, again, againIdentity, { uploadDataDuringCreation: true })).error).toBeNull();
      expect(await h.app.fileStore.isStored(againIdentity)).toBe(true);

      // No session: no upload.
      const anonymous = await tusUpload(base, '', bytes, identity);
      expect(anonymous.error?.originalResponse?.getStatus()).toBe(400);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('tus PATCH answered by the storage routes (the Node request read directly)', () => {
  it('keeps the tus answers (412, 403, 409, 413), leaves no tail after a chunk boundary, and refuses bytes that are not the named file', async () => {
    const h: Harness = await startHarness({});
    try {
      const base = await listen(h);
      const owner = await ownerWithEnterprise(h, '协议测试有限公司');
      await creditsForAssets(h, owner, owner, 2);
      const named = randomBytes(DEFAULT_CHUNK_BYTES * 2 + 777);
      const identity = identityOf(named, 'bin');
      await registerAsset(h, owner, identity);
      const created = await fetch(`${base}/api/v1/storage/uploads`, {
        method: 'POST',
        headers: { cookie: owner.cookie, 'tus-resumable': '1.0.0', 'upload-length': String(named.length), 'upload-metadata': `identity ${Buffer.from(identity).toString('base64')}` },
      });
      expect(created.status).toBe(201);
      const url = `${base}${new URL(created.headers.get('location')!, base).pathname}`;
      const patch = (headers: Record<string, string>, body: Buffer) =>
        fetch(url, { method: 'PATCH', headers: { cookie: owner.cookie, 'content-type': 'application/offset+octet-stream', ...headers }, body: new Uint8Array(body) });
      const tus = { 'tus-resumable': '1.0.0' };

      expect((await patch({ 'upload-offset': '0' }, named.subarray(0, 10))).status).toBe(412);
      const noOffset = await patch(tus, named.subarray(0, 10));
      expect([noOffset.status, await noOffset.text()]).toEqual([403, 'Upload-Offset header required\n']);
      expect((await patch({ ...tus, 'upload-offset': '-1' }, named.subarray(0, 10))).status).toBe(400);
      expect((await patch({ ...tus, 'upload-offset': '5' }, named.subarray(0, 10))).status).toBe(409);
      expect((await patch({ ...tus, 'upload-offset': '0' }, Buffer.concat([named, Buffer.alloc(1)]))).status).toBe(413);

      // Exactly one chunk: sealed at once (more of the file follows), so nothing waits in the metadata.
      const first = await patch({ ...tus, 'upload-offset': '0' }, named.subarray(0, DEFAULT_CHUNK_BYTES));
      expect(first.status).toBe(204);
      expect(first.headers.get('upload-offset')).toBe(String(DEFAULT_CHUNK_BYTES));
      expect(first.headers.get('tus-resumable')).toBe('1.0.0');
      expect(first.headers.get('upload-expires')).toBeTruthy();
      const stagingDir = path.join(h.app.env.dataDir, 'uploads');
      const metaFile = fs.readdirSync(stagingDir).find((n) => n.endsWith('.json'))!;
      const meta = JSON.parse(fs.readFileSync(path.join(stagingDir, metaFile), 'utf8'));
      expect(meta).toMatchObject({ offset: DEFAULT_CHUNK_BYTES, chunks: 1, tail: '' });
      expect(fs.statSync(path.join(stagingDir, metaFile)).mode & 0o777).toBe(0o600);

      // The rest with one byte changed: the digest checked at the end refuses it, nothing is stored.
      const rest = Buffer.from(named.subarray(DEFAULT_CHUNK_BYTES));
      rest[rest.length - 1]! ^= 1;
      const last = await patch({ ...tus, 'upload-offset': String(DEFAULT_CHUNK_BYTES) }, rest);
      expect(last.status).toBe(400);
      expect(await last.json()).toEqual({ message: 'hash_mismatch', field_name: 'file' });
      expect(await h.app.fileStore.isStored(identity)).toBe(false);
      expect(fs.readdirSync(stagingDir).filter((name) => !name.endsWith('.done'))).toEqual([]);
      const row = await h.app.db.selectFrom('stored_files').selectAll().where('id', '=', identity).executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});
