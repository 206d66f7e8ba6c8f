import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import * as tus from 'tus-js-client';
import { afterAll, describe, expect, it } from 'vitest';
import { startHarness } from './harness.ts';
import { identityOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { readEnv } from '../../server/env.ts';
import { createFileStore, driverFor, loadMasterKey } from '../../server/storage/file-store.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { freePort } from '../../scripts/local-servers.ts';

/**
 * A resumable upload survives the server being killed (SIGKILL, no chance to clean up)
 * in the middle of one long PATCH: the real server runs as a child process, tus-js-client
 * (the browser's upload library) sends a 200 MB file in one request, the server is killed
 * midway and started again on the same DATA_DIR, the client resumes from the offset the
 * server reports, and the stored file hashes to the original.
 */

const SIZE = 200 * 1024 * 1024;
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-crash-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});


/** The real server (server/server.ts) on DATA_DIR, ready when it answers /config.json. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/server.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', APP_DIR: path.join(dataDir, 'no-app'), SCORE_RECOMPUTE_MINUTES: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/config.json`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

function upload(base: string, cookie: string, bytes: Buffer, identity: string, opts: { uploadUrl?: string; onProgress?: (sent: number, upload: tus.Upload) => void }) {
  return new Promise<{ url: string | null; error: Error | null }>((resolve) => {
    const u: tus.Upload = new tus.Upload(bytes, {
      endpoint: `${base}/api/v1/storage/uploads`,
      uploadUrl: opts.uploadUrl ?? null,
      headers: { cookie },
      metadata: { identity, filename: 'big.dat' },
      // One request for the whole file, as the browser client sends it.
      retryDelays: [],
      onProgress: (sent) => opts.onProgress?.(sent, u),
      onSuccess: () => resolve({ url: u.url, error: null }),
      onError: (error) => resolve({ url: u.url, error }),
    });
    u.start();
  });
}

describe('resumable uploads across a crash', () => {
  it('SIGKILL in the middle of a 200 MB PATCH: restarted on the same DATA_DIR, resumed past the start, stored bytes hash to the original', { timeout: 180_000 }, async () => {
    // Accounts, enterprise and the ledger registration, made in-process on the same DATA_DIR (SQLite there).
    const env = readEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_DIR: path.join(dataDir, 'no-app') });
    const h = await startHarness({}, { ...env, databaseUrl: undefined });
    const bytes = randomBytes(SIZE);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const identity = identityOf(bytes, 'dat');
    const owner = await ownerWithEnterprise(h, '断点续传有限公司');
    // Registered the only way there is: as a digital asset of the owner's enterprise, paid.
    await creditsForAssets(h, owner, owner, 1);
    await registerAsset(h, owner, identity, 'upload.dat');
    await h.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startServer(port);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    let killedAt = 0;
    const cut = await upload(base, owner.cookie, bytes, identity, {
      onProgress(sent) {
        if (killedAt === 0 && sent >= SIZE / 2) {
          killedAt = sent;
          first.kill('SIGKILL');
        }
      },
    });
    await exited;
    expect(first.signalCode).toBe('SIGKILL');
    expect(cut.error).toBeTruthy();
    expect(cut.url).toBeTruthy();

    await startServer(port);
    const head = await fetch(new URL(cut.url!, base), { method: 'HEAD', headers: { cookie: owner.cookie, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    // The offset committed during the killed request survives: well past the start, not past what was sent.
    expect(offset).toBeGreaterThanOrEqual(SIZE / 4);
    expect(offset).toBeLessThanOrEqual(killedAt);

    let resumedFrom = -1;
    const done = await upload(base, owner.cookie, bytes, identity, {
      uploadUrl: cut.url!,
      onProgress(sent) {
        if (resumedFrom < 0) resumedFrom = sent;
      },
    });
    expect(done.error).toBeNull();
    expect(resumedFrom).toBeGreaterThanOrEqual(offset);

    // The stored object, opened with the deployment's key, is the original file.
    const state = await fetch(`${base}/api/v1/storage/files/${identity}`, { headers: { cookie: owner.cookie } });
    expect((await state.json()).data).toMatchObject({ is_stored: true, size: SIZE });
    const store = createFileStore({ driver: driverFor(env.storage), master: loadMasterKey(dataDir, undefined), stagingDir: path.join(dataDir, 'uploads') });
    const stream = (await store.open(identity)) as Readable;
    const hash = createHash('sha256');
    for await (const piece of stream as AsyncIterable<Buffer>) hash.update(piece);
    expect(hash.digest('hex')).toBe(sha256);
  });
});
