import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { MIB, identityOfGenerated, writeGenerated } from './generated-file.ts';
import { createEnterprise, person, registerAsset, test } from './support.ts';

/**
 * A stored-file upload from the browser survives the server being killed with SIGKILL: the
 * server keeps its upload state on disk, comes back on the same data folder, and the page's
 * tus client resumes from the offset the server kept (not from zero); the server accepts the
 * file only when its SHA-256 equals the registered identity.
 */
const FILE_MIB = 160;

test('SIGKILL in the middle of a browser upload: restarted on the same data, the page resumes and the stored bytes hash to the original', async ({ browser }) => {
  test.setTimeout(300_000);
  const port = Number(process.env.E2E_PORT ?? 8181) + 1200;
  const baseURL = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-upload-crash-e2e-'));
  const dataDir = path.join(dir, 'data');
  const configFile = path.join(dir, 'provena.json');
  // Registration free here: the test is about the upload, not about credits.
  fs.writeFileSync(configFile, JSON.stringify({ integralRequired: false }));
  const start = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['scripts/e2e-server.ts'], {
      env: { ...process.env, E2E_PORT: String(port), E2E_NO_BUILD: '1', E2E_DEMO_ENTERPRISES: '0', E2E_DATA_DIR: dataDir, PROVENA_CONFIG: configFile },
      stdio: 'ignore',
    });
    await expect.poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
    return child;
  };
  let server = await start();
  try {
    const owner = await person(browser, 'en', '张三', baseURL);
    await createEnterprise(owner, '断点续传 E2E');
    const seed = 20261125;
    const identity = identityOfGenerated('PVN-CRASH-', FILE_MIB, seed, '.bin');
    const generated = path.join(dir, 'crash-archive.bin');
    writeGenerated(generated, 'PVN-CRASH-', FILE_MIB, seed);
    await registerAsset(owner, identity, 'crash-archive.bin');

    const page = owner.page;
    // Upload at 16 MB/s so that the kill lands in the middle whatever the machine.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 16 * 1024 * 1024 });
    // The offsets the server answers to the client's HEAD requests (where a tus upload resumes from).
    const offsets: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'HEAD' && r.headers()['upload-offset'] !== undefined) offsets.push(Number(r.headers()['upload-offset']));
    });
    await page.goto('/dashboard/disclosures');
    await page.getByTestId('store-file').locator('input[type=file]').setInputFiles(generated);
    const store = page.getByTestId('store-file');
    await expect(store).toHaveAttribute('data-phase', 'uploading', { timeout: 120_000 });
    await expect.poll(async () => Number(await store.getAttribute('data-bytes')), { timeout: 120_000, intervals: [100] }).toBeGreaterThan(FILE_MIB * MIB * 0.3);
    expect(await store.getAttribute('data-phase')).toBe('uploading');

    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    server = await start();

    // The page's client retries on its own and finishes; the server compared the SHA-256 with the identity.
    await expect(page.getByTestId('store-done')).toBeVisible({ timeout: 180_000 });
    expect(Number(await store.getAttribute('data-retries'))).toBeGreaterThan(0);
    // It went on from what the restarted server kept, not from zero.
    expect(Math.max(...offsets, 0)).toBeGreaterThan(FILE_MIB * MIB * 0.2);
    // And the restarted server holds it as stored.
    const state = await (await page.request.get(`/api/v1/storage/files/${encodeURIComponent(identity)}`)).json();
    expect(state.data).toMatchObject({ is_stored: true, size: FILE_MIB * MIB });
    await owner.context.close();
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
