import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { identityOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { listen, startS3, tusUpload } from './storage-helpers.ts';
import type { StorageEnv } from '../../server/env.ts';
import { CHECKPOINT_BYTES } from '../../server/storage/file-store.ts';
import { stopHashThread } from '../../server/storage/running-hash.ts';
import { KEK_FILE, ROOT_PASSPHRASE_FILE } from '../../server/keys/keyring.ts';

/**
 * Resumable uploads across API replicas with no shared staging folder (UPLOAD_STAGING=shared):
 * two apps on one database (SQLite file, or PostgreSQL with TEST_DATABASE_URL) and one object
 * store (a shared local folder, or s3rver). An upload begun on A goes on and ends on B.
 */
vi.setConfig({ testTimeout: 120_000 });

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

type Case = { name: string; setup(): Promise<{ storage: StorageEnv; close(): Promise<void> }> };
const cases: Case[] = [
  {
    name: 'shared local folder',
    async setup() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-replica-objects-'));
      return { storage: { kind: 'local', dir }, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  { name: 's3 (s3rver)', setup: () => startS3() },
];

const tusHeaders = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, 'tus-resumable': '1.0.0', ...extra });
const headOffset = async (base: string, url: string, cookie: string) => {
  const r = await fetch(`${base}${url}`, { method: 'HEAD', headers: tusHeaders(cookie) });
  return { status: r.status, offset: Number(r.headers.get('upload-offset')) };
};
const patch = async (base: string, url: string, cookie: string, offset: number, body: Buffer) => {
  const r = await fetch(`${base}${url}`, { method: 'PATCH', headers: tusHeaders(cookie, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }), body: new Uint8Array(body) });
  return { status: r.status, offset: Number(r.headers.get('upload-offset')), body: await r.text() };
};

/** A tus creation request for `identity`: the upload's path. */
const createUpload = async (base: string, cookie: string, length: number, identity: string) => {
  const created = await fetch(`${base}/api/v1/storage/uploads`, {
    method: 'POST',
    headers: tusHeaders(cookie, { 'upload-length': String(length), 'upload-metadata': `identity ${Buffer.from(identity).toString('base64')}` }),
  });
  expect(created.status).toBe(201);
  return new URL(created.headers.get('location')!, base).pathname;
};

describe.each(cases)('uploads across replicas: $name', ({ setup }) => {
  let a: Harness;
  let b: Harness;
  let baseA: string;
  let baseB: string;
  let closeStorage: () => Promise<void>;
  let owner: { cookie: string; phone: string };

  beforeAll(async () => {
    const s = await setup();
    closeStorage = s.close;
    const storageKey = randomBytes(32);
    a = await startHarness({}, { storage: s.storage, storageKey, uploadStaging: 'shared' });
    // Replica B: the same database (the SQLite file in A's data folder, or A's PostgreSQL schema)
    // and object store; no folder of A's is used for uploads.
    // On PostgreSQL B has a data folder of its own and reads A's platform key material (as replicas share it).
    const shared =
      a.dialect === 'postgres'
        ? { databaseUrl: a.app.env.databaseUrl, keys: { ...a.app.env.keys, kekFile: path.join(a.app.env.dataDir, KEK_FILE), rootPassphraseFile: path.join(a.app.env.dataDir, ROOT_PASSPHRASE_FILE) } }
        : { dataDir: a.app.env.dataDir };
    b = await startHarness({}, { storage: s.storage, storageKey, uploadStaging: 'shared', ...shared });
    await a.app.ledger.stop();
    await b.app.ledger.stop();
    baseA = await listen(a);
    baseB = await listen(b);
    owner = await ownerWithEnterprise(a, `副本上传测试${randomBytes(3).toString('hex')}有限公司`);
    await creditsForAssets(a, owner, owner, 4);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await closeStorage?.();
  });

  it('begun on A, PATCHed onward and finished on B: HEAD on B reports A offset, the stored file is byte-identical, no staging folder is used', async () => {
    const bytes = randomBytes(CHECKPOINT_BYTES + 3 * 1024 * 1024 + 4321);
    const identity = identityOf(bytes, 'bin');
    await registerAsset(a, owner, identity);
    const first = await tusUpload(baseA, owner.cookie, bytes, identity, { abortAfterBytes: CHECKPOINT_BYTES + 1024 * 1024 + 10, chunkSize: 1024 * 1024 + 333 });
    expect(first.url).toBeTruthy();
    const url = new URL(first.url!, baseA).pathname;
    const onA = await headOffset(baseA, url, owner.cookie);
    const onB = await headOffset(baseB, url, owner.cookie);
    expect(onB).toEqual(onA);
    expect(onA.offset).toBeGreaterThan(CHECKPOINT_BYTES);
    // One more piece on B, then the rest on A, then the end on B.
    const step = await patch(baseB, url, owner.cookie, onB.offset, bytes.subarray(onB.offset, onB.offset + 777_777));
    expect(step.status).toBe(204);
    expect((await headOffset(baseA, url, owner.cookie)).offset).toBe(onB.offset + 777_777);
    const done = await tusUpload(baseB, owner.cookie, bytes, identity, { uploadUrl: first.url!, chunkSize: 2 * 1024 * 1024 });
    expect(done.error).toBeNull();
    for (const h of [a, b]) {
      const state = await h.request({ method: 'GET', url: `/api/v1/storage/files/${identity}`, cookie: owner.cookie });
      expect(state.json().data).toMatchObject({ is_stored: true, size: bytes.length });
      expect((await collect((await h.app.fileStore.open(identity))!)).equals(bytes)).toBe(true);
    }
    // Nothing staged on disk by either replica, and the segments are gone from the object store.
    for (const h of [a, b]) expect(fs.existsSync(path.join(h.app.env.dataDir, 'uploads')) ? fs.readdirSync(path.join(h.app.env.dataDir, 'uploads')) : []).toEqual([]);
    const left: string[] = [];
    for await (const key of a.app.fileStore.driver.list()) if (key.startsWith('uploads/')) left.push(key);
    expect(left).toEqual([]);
  });

  it('a PATCH on B while one runs on A is refused with 423 (never both); the upload stays whole and finishes', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 99);
    const identity = identityOf(bytes, 'bin');
    await registerAsset(a, owner, identity);
    const url = await createUpload(baseA, owner.cookie, bytes.length, identity);
    // A slow PATCH on A: the first 1.5 MiB, then it waits.
    const slow = http.request(`${baseA}${url}`, { method: 'PATCH', headers: tusHeaders(owner.cookie, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(bytes.length) }) });
    const slowDone = new Promise<number>((resolve) => {
      slow.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      slow.on('error', () => resolve(-1));
    });
    slow.write(bytes.subarray(0, 1536 * 1024));
    await new Promise((r) => setTimeout(r, 500));
    const refused = await patch(baseB, url, owner.cookie, 0, bytes);
    expect(refused.status).toBe(423);
    // A finishes its request: the whole file, stored once.
    slow.end(bytes.subarray(1536 * 1024));
    expect(await slowDone).toBe(204);
    const state = await b.request({ method: 'GET', url: `/api/v1/storage/files/${identity}`, cookie: owner.cookie });
    expect(state.json().data).toMatchObject({ is_stored: true, size: bytes.length });
    expect((await collect((await b.app.fileStore.open(identity))!)).equals(bytes)).toBe(true);
    // A PATCH at a stale offset after the end is refused cleanly too.
    const late = await patch(baseB, url, owner.cookie, 0, bytes.subarray(0, 10));
    expect([409, 404]).toContain(late.status);
  });

  it('a running hash lost with its thread between two PATCHes on the same replica is rebuilt from the segments', async () => {
    const bytes = randomBytes(CHECKPOINT_BYTES + 2 * 1024 * 1024 + 55);
    const identity = identityOf(bytes, 'bin');
    await registerAsset(a, owner, identity);
    const url = await createUpload(baseA, owner.cookie, bytes.length, identity);
    const half = CHECKPOINT_BYTES + 1024 * 1024 + 7;
    expect((await patch(baseA, url, owner.cookie, 0, bytes.subarray(0, half))).status).toBe(204);
    await stopHashThread();
    const rest = await patch(baseA, url, owner.cookie, half, bytes.subarray(half));
    expect(rest.status).toBe(204);
    expect((await collect((await a.app.fileStore.open(identity))!)).equals(bytes)).toBe(true);
  });
});
