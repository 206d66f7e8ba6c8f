import fs from 'node:fs';
import { expect } from '@playwright/test';
import { screenshot, tr, verifyInCentre, type Locale, test } from './support.ts';

/**
 * The verification centre pins the roots of the platform serving it. A proof a forger made
 * on their own copy of the ledger (its own "Provena Platform Root CA"; tests/fixtures/forged,
 * scripts/make-forged-proof.ts) passes every check but trust: the page says "issued by
 * another platform: untrusted", in each language, never success.
 */
const FIX = 'tests/fixtures/forged';
const original = { name: 'original.txt', mimeType: 'text/plain', buffer: fs.readFileSync(`${FIX}/original.txt`) };
const proof = { name: 'proof.pdf', mimeType: 'application/pdf', buffer: fs.readFileSync(`${FIX}/proof.pdf`) };
const forgedRoot = (JSON.parse(fs.readFileSync(`${FIX}/root.json`, 'utf8')) as { fingerprint: string }).fingerprint;

test("a proof under another platform's root is untrusted, not verified, at 1440, 900 and 390 wide", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const served = await (await page.request.get('/api/v1/ledger/platform-roots')).json();
  expect(served.data.map((r: { fingerprint: string }) => r.fingerprint)).not.toContain(forgedRoot);

  const cases: Array<[Locale, number]> = [
    ['zh', 1440],
    ['en', 900],
    ['ja', 390],
  ];
  for (const [locale, width] of cases) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/verify-file');
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    const result = await verifyInCentre(page, locale, original, proof);
    await expect(result).toHaveAttribute('data-valid', 'false');
    await expect(result).toHaveAttribute('data-untrusted', 'true');
    await expect(result).toHaveAttribute('data-message', 'proof_signer_untrusted');
    await expect(page.getByTestId('verify-untrusted')).toContainText(tr(locale, 'Issued by another platform: untrusted'));
    await expect(page.getByTestId('verify-untrusted-root')).toContainText(forgedRoot);
    await expect(page.getByText(tr(locale, 'Verification passed'))).toHaveCount(0);
    // Every other check passed: the only one not passed is the root's trust.
    await expect(result.locator('[data-check][data-ok="false"]')).toHaveCount(1);
    await expect(result.locator('[data-check="platform_certificate"]')).toHaveAttribute('data-ok', 'false');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, `verify-untrusted-${locale}-${width}`);
  }
  await context.close();
});
