import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { expect as baseExpect, type Page } from '@playwright/test';
import { createEnterprise, field, ok, ownerCredits, person, screenshot, tr, verifyInCentre, type Locale, test } from './support.ts';
import { signRequest, signedHeaders } from '../../core/applications.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
const port = Number(process.env.E2E_PORT ?? 8181);
const baseUrl = `http://127.0.0.1:${port}`;
const workDir = path.join(os.tmpdir(), `provena-e2e-apps-${process.pid}`);
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

type Creds = { application_id: number; key_id: string; secret: string };

/** The real agent, `provena agent --once`, as cron would run it. */
function runAgent(creds: Creds, watch: string, state: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/provena.ts', 'agent', '--app', String(creds.application_id), '--watch', watch, '--state', state, '--once'],
      { env: { ...process.env, PROVENA_URL: baseUrl, PROVENA_APP_KEY_ID: creds.key_id, PROVENA_APP_SECRET: creds.secret } },
      (error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

async function stateBadge(page: Page) {
  return page.getByTestId('application-title').locator('..').getByTestId('application-state');
}

test.describe('external applications', () => {
  test('an administrator creates an application in the UI, the real agent registers a folder, proofs are generated; stopping it turns the state "data interrupted" with an SMS and a signed webhook; it recovers; tampered requests turn it abnormal', async ({ browser }) => {
    test.setTimeout(300_000);
    fs.mkdirSync(path.join(workDir, 'watch', 'run-1'), { recursive: true });
    const locale: Locale = 'zh';
    const owner = await person(browser, locale, '张三');
    await createEnterprise(owner, '应用 E2E');
    await ownerCredits(browser, owner, 1000);
    const page = owner.page;

    // A webhook receiver that checks the signature with the secret shown once.
    let secret = '';
    const hooks: Array<{ type: string; isValid: boolean }> = [];
    const receiver = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const expected = signRequest(secret, { method: 'POST', path: req.url ?? '', timestamp: String(req.headers['x-provena-timestamp']), nonce: String(req.headers['x-provena-nonce']), body: raw });
        hooks.push({ type: (JSON.parse(raw) as { type: string }).type, isValid: expected === req.headers['x-provena-signature'] });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/provena-hook`;
    const alarmPhone = `138${String(Date.now()).slice(-8)}`;

    try {
      await page.goto('/dashboard/application');
      await expect(page.getByTestId('application-empty')).toBeVisible();
      await page.getByTestId('application-create').click();
      const name = `质谱仪 ${Date.now()}`;
      await field(page, tr(locale, 'Application name')).fill(name);
      await page.getByTestId('application-interval-input').fill('5');
      await page.getByTestId('application-grace-input').fill('5');
      await page.getByTestId('application-phones-input').fill(alarmPhone);
      await page.getByTestId('application-phones-input').press('Enter');
      await page.getByTestId('application-webhooks-input').fill(hookUrl);
      await page.getByTestId('application-webhooks-input').press('Enter');
      await page.getByTestId('application-submit').click();
      const modal = page.getByTestId('application-secret');
      await expect(modal).toBeVisible();
      await screenshot(page, 'application-secret-zh-desktop');
      const creds: Creds = {
        application_id: Number(await page.getByTestId('secret-application-id').innerText()),
        key_id: (await page.getByTestId('secret-key-id').innerText()).trim(),
        secret: (await page.getByTestId('secret-value').innerText()).trim(),
      };
      secret = creds.secret;
      expect(creds.key_id).toMatch(/^ak_/);
      expect(creds.secret).toMatch(/^sk_/);
      await page.getByTestId('secret-done').click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/application/detail/${creds.application_id}$`));
      await expect(await stateBadge(page)).toHaveAttribute('data-state', 'not_connected');

      // The same name again: the §8 message on the name field.
      await page.goto('/dashboard/application');
      await page.getByTestId('application-create').click();
      await field(page, tr(locale, 'Application name')).fill(name);
      await page.getByTestId('application-submit').click();
      await expect(page.getByText(tr(locale, 'An application with this name already exists'))).toBeVisible();
      await page.keyboard.press('Escape');

      // The real agent on a folder.
      const watch = path.join(workDir, 'watch');
      const state = path.join(workDir, 'state');
      const files = { 'run-1/result.csv': 'sample,value\nA,1.25\n', 'run-1/spectrum.bin': 'spectrum-bytes', 'notes.txt': 'calibrated\n' };
      for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(watch, rel), text);
      const first = await runAgent(creds, watch, state);
      expect(first.code, first.stderr).toBe(0);
      await page.goto(`/dashboard/application/detail/${creds.application_id}/data`);
      const rows = page.getByTestId('application-file-row');
      await expect(rows).toHaveCount(3);
      await expect(await stateBadge(page)).toHaveAttribute('data-state', 'normal', { timeout: 20_000 });
      // The proof of a file: generated, downloadable, its hash the file's.
      const csvHash = `0x${createHash('sha256').update(files['run-1/result.csv']).digest('hex')}.csv`;
      await page.locator('[data-testid=application-file-row][data-name="result.csv"]').getByRole('link').click();
      await expect(page.getByTestId('application-file')).toBeVisible();
      await expect(page.getByText(csvHash)).toBeVisible();
      await expect(page.getByTestId('application-file-download')).toBeEnabled({ timeout: 60_000 });
      const download = page.waitForEvent('download');
      await page.getByTestId('application-file-download').click();
      const pdf = await download;
      const pdfPath = path.join(workDir, 'proof.pdf');
      await pdf.saveAs(pdfPath);
      expect(fs.readFileSync(pdfPath).subarray(0, 5).toString()).toBe('%PDF-');
      await screenshot(page, 'application-file-zh-desktop');
      // The verification centre accepts the original with its proof.
      const verdict = await verifyInCentre(page, locale, { name: 'result.csv', mimeType: 'text/csv', buffer: Buffer.from(files['run-1/result.csv']) }, { name: 'proof.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(pdfPath) });
      await expect(verdict).toHaveAttribute('data-valid', 'true');

      // The agent stops: after interval + grace (10 s) and the next pass, "data interrupted", one SMS and one signed webhook.
      await page.goto(`/dashboard/application/detail/${creds.application_id}/monitoring`);
      await expect(await stateBadge(page)).toHaveAttribute('data-state', 'interrupted', { timeout: 40_000 });
      await expect(page.locator('[data-testid=application-alarm][data-kind=interrupted]')).toBeVisible({ timeout: 20_000 });
      await expect.poll(async () => ((await (await page.request.get(`/api/dev/sms-outbox?phone=${alarmPhone}`)).json()).data as unknown[]).length, { timeout: 20_000 }).toBe(1);
      await expect.poll(() => hooks.filter((h) => h.type === 'application.interrupted').length, { timeout: 20_000 }).toBe(1);
      expect(hooks.every((h) => h.isValid)).toBe(true);
      await screenshot(page, 'application-monitoring-interrupted-zh-desktop');
      await page.getByTestId('alarm-acknowledge').first().click();
      await expect(page.getByTestId('alarm-acknowledged').first()).toBeVisible();

      // Back: a new file and the agent again → normal, a recovery alarm.
      fs.writeFileSync(path.join(watch, 'run-1/late.csv'), 'late,2\n');
      const again = await runAgent(creds, watch, state);
      expect(again.code, again.stderr).toBe(0);
      await expect(await stateBadge(page)).toHaveAttribute('data-state', 'normal', { timeout: 30_000 });
      await expect(page.locator('[data-testid=application-alarm][data-kind=recovered]')).toBeVisible({ timeout: 20_000 });
      await expect.poll(() => hooks.filter((h) => h.type === 'application.recovered').length, { timeout: 20_000 }).toBe(1);

      // Tampered signatures and a replay are refused (401) and turn the state abnormal.
      const body = JSON.stringify({ file_hash: `0x${'ab'.repeat(32)}.txt`, name: 'forged.txt', size: 1 });
      const headers = signedHeaders(creds.key_id, creds.secret, { method: 'POST', path: '/open-api/v1/files', body });
      // Enough of them that failures are over half of the recent requests (the error-rate rule, not the first miss).
      for (let i = 0; i < 12; i++) {
        const res = await page.request.post('/open-api/v1/files', { headers: { ...headers, 'content-type': 'application/json' }, data: body.replace('forged', `forged${i}`) });
        expect(res.status()).toBe(401);
      }
      const replayOk = await page.request.post('/open-api/v1/heartbeat', { headers: { ...signedHeaders(creds.key_id, creds.secret, { method: 'POST', path: '/open-api/v1/heartbeat', body: '{}', nonce: 'e2e-replay-nonce-0001' }), 'content-type': 'application/json' }, data: '{}' });
      expect(replayOk.status()).toBe(200);
      const replay = await page.request.post('/open-api/v1/heartbeat', { headers: { ...signedHeaders(creds.key_id, creds.secret, { method: 'POST', path: '/open-api/v1/heartbeat', body: '{}', nonce: 'e2e-replay-nonce-0001' }), 'content-type': 'application/json' }, data: '{}' });
      expect(replay.status()).toBe(401);
      // Still alive (valid heartbeats keep "data interrupted" away), yet abnormal.
      const heartbeat = () => page.request.post('/open-api/v1/heartbeat', { headers: { ...signedHeaders(creds.key_id, creds.secret, { method: 'POST', path: '/open-api/v1/heartbeat', body: '{}' }), 'content-type': 'application/json' }, data: '{}' });
      await expect(async () => {
        expect((await heartbeat()).status()).toBe(200);
        await expect(await stateBadge(page)).toHaveAttribute('data-state', 'abnormal', { timeout: 1500 });
      }).toPass({ timeout: 40_000, intervals: [1000, 2000] });
      await screenshot(page, 'application-monitoring-abnormal-zh-desktop');
      // The list shows the badge and the last contact.
      await page.goto('/dashboard/application');
      await expect(page.locator(`[data-testid=application-row][data-id="${creds.application_id}"]`).getByTestId('application-state')).toHaveAttribute('data-state', 'abnormal');
    } finally {
      receiver.close();
    }
  });

  test('the screens in zh, en and ja at desktop, middle and mobile widths', async ({ browser }) => {
    test.setTimeout(480_000);
    const owner = await person(browser, 'zh', '张三');
    await createEnterprise(owner, '应用截图');
    await ownerCredits(browser, owner, 100);
    const creds = (await ok(owner.page.request.post('/api/v1/applications', { data: { name: 'ERP 导出 / ERP export', description: '每晚导出的订单数据', interval_seconds: 3600, grace_seconds: 600, alarm_phones: ['13800000000'] } }), 'create')) as Creds;
    const body = JSON.stringify({ items: [{ file_hash: `0x${createHash('sha256').update('orders-1').digest('hex')}.csv`, name: 'orders-2026-11-27.csv', size: 52_340, metadata: { rows: 812 } }] });
    const res = await owner.page.request.post('/open-api/v1/files/batch', { headers: { ...signedHeaders(creds.key_id, creds.secret, { method: 'POST', path: '/open-api/v1/files/batch', body }), 'content-type': 'application/json' }, data: body });
    expect(res.status()).toBe(200);
    const dna = (await res.json()).data.results[0].file.dip_id as string;
    for (const locale of ['zh', 'en', 'ja'] as const) {
      for (const [width, height, label] of [
        [1440, 900, 'desktop'],
        [900, 900, 'middle'],
        [390, 844, 'mobile'],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height }, storageState: await owner.context.storageState() });
        const page = await context.newPage();
        await page.addInitScript((l) => localStorage.setItem('locale', l), locale);
        await page.goto('/dashboard/application');
        await expect(page.getByTestId('application-row').first()).toBeVisible();
        await expect(page.getByText(tr(locale, 'External applications')).first()).toBeVisible();
        await screenshot(page, `application-list-${locale}-${label}`);
        // Every screen in zh; in en and ja every screen at desktop width and the list, overview and file page narrower (the layout is the same code).
        const tabs = locale === 'zh' || label === 'desktop' ? (['overview', 'monitoring', 'settings'] as const) : (['overview'] as const);
        if (locale !== 'zh' && label === 'middle') {
          await context.close();
          continue;
        }
        for (const tab of tabs) {
          await page.goto(`/dashboard/application/detail/${creds.application_id}${tab === 'overview' ? '' : `/${tab}`}`);
          await expect(page.getByTestId('application-detail')).toBeVisible();
          if (tab === 'overview') await expect(page.getByTestId('application-chart')).toBeVisible();
          await screenshot(page, `application-${tab}-${locale}-${label}`);
        }
        await page.goto(`/dashboard/application/detail/file/${creds.application_id}/${dna}`);
        await expect(page.getByTestId('application-file')).toBeVisible();
        await screenshot(page, `application-file-${locale}-${label}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${locale} ${label}`).toBeLessThanOrEqual(1);
        await context.close();
      }
    }
  });
});
