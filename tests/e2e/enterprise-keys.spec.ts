import { expect as baseExpect, type Browser, type Page } from '@playwright/test';
import { X509Certificate, createHash, createPrivateKey, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import fs from 'node:fs';
import { createCsrPem } from '../../core/crypto/csr.ts';
import { signDigest } from '../../core/crypto/digest-signature.ts';
import { exportEncryptedPkcs8Pem, generateKeyPair, importEncryptedPkcs8Pem, sign } from '../../core/crypto/keys.ts';
import { depositMessage } from '../../core/enterprise-keys.ts';
import { createEnterprise, createOperator, enrollOperatorInPage, field, ok, person, screenshot, tr, useLocale, type Locale, test } from './support.ts';

const PASSPHRASE = 'Provena-Key-2024!x';
// PBKDF2 (100 000 iterations) runs in the page's worker on a shared, busy machine: waits get room.
const expect = baseExpect.configure({ timeout: 20_000 });

async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const pending = page.waitForEvent('download');
  await click();
  const download = await pending;
  return { name: download.suggestedFilename(), bytes: fs.readFileSync((await download.path())!) };
}

function spkiOf(key: ReturnType<typeof createPublicKey>): Buffer {
  return key.export({ type: 'spki', format: 'der' });
}

/** No horizontal overflow; on failure, names the elements that stick out. */
async function noHorizontalOverflow(page: Page): Promise<void> {
  const wide = await page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth + 1) return [];
    return [...document.querySelectorAll('body *')]
      .filter((el) => {
        if (el.getBoundingClientRect().right <= window.innerWidth + 1) return false;
        // Inside a scroller (the phone sidebar, a wide table's container) sticking out is by design.
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return false;
        return true;
      })
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} right=${Math.round(el.getBoundingClientRect().right)}`);
  });
  expect(wide).toEqual([]);
}

test.describe('enterprise key, certificate and custody', () => {
  test('A creates the key, gets the certificate, signs a file (verified with node:crypto), cancels custody; the operator completes it', async ({ browser }) => {
    test.setTimeout(420_000);
    const A = await person(browser, 'zh', '张三');
    const company = await createEnterprise(A, '密钥托管 E2E');
    const L = (s: string) => tr('zh', s);
    const page = A.page;

    // No key yet: the super administrator holds the key ceremony.
    await page.goto('/dashboard/company/identity');
    await expect(page.getByTestId('key-status')).toHaveAttribute('data-status', '0');
    await page.getByTestId('start-key-ceremony').click();
    const dialog = page.getByRole('dialog');
    await expect(page.getByTestId('ceremony-next')).toBeDisabled();
    await page.getByTestId('ceremony-understood').check();
    await page.getByTestId('ceremony-next').click();
    // Passphrase rules: too short, containing the enterprise name, repeated wrongly.
    await page.getByTestId('ceremony-passphrase').fill('short');
    await page.getByTestId('ceremony-confirm').fill('short');
    await page.getByTestId('ceremony-generate').click();
    await expect(dialog.getByText(L('The key passphrase must have at least 12 characters'))).toBeVisible();
    await page.getByTestId('ceremony-passphrase').fill(`${company.name}-Aa1!`);
    await page.getByTestId('ceremony-generate').click();
    await expect(dialog.getByText(L('The key passphrase must not contain the enterprise name, licence number or your phone number'))).toBeVisible();
    await page.getByTestId('ceremony-passphrase').fill(PASSPHRASE);
    await page.getByTestId('ceremony-confirm').fill(`${PASSPHRASE}?`);
    await page.getByTestId('ceremony-generate').click();
    await expect(dialog.getByText(L('The two passwords do not match'))).toBeVisible();
    await page.getByTestId('ceremony-confirm').fill(PASSPHRASE);
    await screenshot(page, 'keys-ceremony-passphrase-zh');
    await page.getByTestId('ceremony-generate').click();

    // The browser offers the encrypted PEM for backup before anything is deposited.
    await expect(page.getByTestId('ceremony-deposit')).toBeDisabled();
    const backup = await downloadOf(page, () => page.getByTestId('ceremony-backup').click());
    const backupPem = backup.bytes.toString('utf8');
    expect(backupPem).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----\n/);
    expect(backupPem.split('\n').slice(1, -3).every((line) => line.length === 64)).toBe(true);
    await expect(page.getByTestId('ceremony-backed-up')).toBeChecked();
    await page.getByTestId('ceremony-deposit').click();
    await expect(dialog.getByTestId('certificate-status')).toHaveAttribute('data-status', 'active');
    await screenshot(page, 'keys-ceremony-done-zh');
    await page.getByTestId('ceremony-done').click();

    // The certificate: subject, DNA on the ledger, details page with the PEM.
    await expect(page.getByTestId('key-status')).toHaveAttribute('data-status', '1');
    await expect(page.getByTestId('certificate-subject')).toContainText(`CN=${company.name}`);
    const dna = (await page.getByTestId('certificate-dna').textContent())!;
    expect(dna).toMatch(/^pv[a-z2-7]{20}$/);
    await page.getByTestId('certificate-detail-link').click();
    await expect(page).toHaveURL(/\/dashboard\/company\/certificate\/\d+\/[0-9a-f]{32}$/);
    const certPem = (await page.getByTestId('certificate-pem').textContent())!;
    const certificate = new X509Certificate(certPem);
    expect(certificate.subject).toContain(company.name);
    expect(certificate.issuer).toContain('Provena Enterprise CA');
    // The backup opens with the passphrase (OpenSSL, through node:crypto) and is the certified key.
    const privateKey = createPrivateKey({ key: backupPem, format: 'pem', passphrase: PASSPHRASE });
    expect(spkiOf(createPublicKey(privateKey)).equals(spkiOf(certificate.publicKey))).toBe(true);
    await screenshot(page, 'keys-certificate-detail-zh');
    // The DNA opens in the block explorer.
    await page.goto(`/explorer/entries/${dna}`);
    await expect(page.getByRole('cell', { name: 'certificate', exact: true })).toBeVisible();

    // Sign a file: the wrong passphrase is refused on the field; the right one gives a .sig.
    await page.goto('/dashboard/company/key');
    const fileBytes = Buffer.concat([Buffer.from('%PDF-1.4 合同\n'), randomBytes(2 * 1024 * 1024)]);
    const digest = createHash('sha256').update(fileBytes).digest('hex');
    await page.getByTestId('sign-form').locator('input[type=file]').setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: fileBytes });
    await page.getByTestId('sign-passphrase').fill('Not-The-Passphrase-1');
    await page.getByTestId('sign-submit').click();
    await expect(page.getByTestId('sign-form').getByText(L('Wrong key passphrase'))).toBeVisible();
    await page.getByTestId('sign-passphrase').fill(PASSPHRASE);
    const sig = await downloadOf(page, () => page.getByTestId('sign-submit').click());
    expect(sig.name).toBe('contract.pdf.sig');
    await expect(page.getByTestId('signed-digest')).toHaveText(digest);
    const signerPem = (await downloadOf(page, () => page.getByTestId('download-signer-certificate').click())).bytes.toString('utf8');
    const signer = new X509Certificate(signerPem);
    expect(signer.fingerprint256).toBe(certificate.fingerprint256);
    expect(verifySignature('sha256', fileBytes, { key: signer.publicKey, dsaEncoding: 'der' }, sig.bytes)).toBe(true);
    const tampered = Buffer.from(fileBytes);
    tampered[20] ^= 1;
    expect(verifySignature('sha256', tampered, { key: signer.publicKey, dsaEncoding: 'der' }, sig.bytes)).toBe(false);
    // Every use is in the history: who, what hash.
    await expect(page.getByTestId('key-log-signed')).toContainText(`0x${digest}.pdf`);
    await expect(page.getByTestId('key-log-key_fetched').first()).toContainText(`0x${digest}.pdf`);
    await expect(page.getByTestId('key-log-key_fetched')).toHaveCount(2);
    await screenshot(page, 'keys-private-key-zh');

    // The local check: the certificate chains to the platform root and is not revoked; the passphrase opens the key, which is the certificate's.
    await page.goto('/dashboard/company/certificate/detail');
    await page.locator('input[type=file]:not([data-testid=nav-search-file-input])').setInputFiles([
      { name: 'enterprise.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(certPem) },
      { name: 'enterprise-key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(backupPem) },
    ]);
    await expect(page.getByTestId('local-chain')).toHaveAttribute('data-ok', 'true');
    await expect(page.getByTestId('local-revocation')).toHaveAttribute('data-revoked', 'false');
    await page.getByTestId('local-passphrase').fill('wrong passphrase');
    await page.getByTestId('local-try-passphrase').click();
    await expect(page.getByTestId('local-passphrase-verdict')).toHaveAttribute('data-opens', 'false');
    await page.getByTestId('local-passphrase').fill(PASSPHRASE);
    await page.getByTestId('local-try-passphrase').click();
    await expect(page.getByTestId('local-passphrase-verdict')).toHaveAttribute('data-opens', 'true');
    await expect(page.getByTestId('local-passphrase-verdict')).toContainText(company.name);
    await screenshot(page, 'keys-local-check-zh');

    // Cancel the custody (§6): status 2, a review request for the platform.
    await page.goto('/dashboard/company/key');
    await page.getByTestId('cancel-custody').click();
    await page.getByTestId('cancel-reason').fill('改用自有证书');
    await page.getByTestId('confirm-cancel-custody').click();
    await expect(page.getByTestId('key-status')).toHaveAttribute('data-status', '2');
    await expect(page.getByTestId('custody-request')).toHaveAttribute('data-status', '1');
    await expect(page.getByTestId('sign-form')).toHaveCount(0);

    // The operator follows up and completes it.
    createOperator('e2e-keys-ops', 'OperatorPass1');
    const opContext = await browser.newContext();
    const op = await opContext.newPage();
    await useLocale(op, 'en');
    await op.goto('/operator');
    await field(op, 'Operator account').fill('e2e-keys-ops');
    await field(op, 'Password').fill('OperatorPass1');
    await op.getByRole('button', { name: 'Log in', exact: true }).click();
    await enrollOperatorInPage(op);
    await op.getByTestId('operator-tab-custody').click();
    const row = op.getByRole('row').filter({ hasText: company.name });
    await expect(row).toContainText('改用自有证书');
    await screenshot(op, 'keys-operator-custody-en');
    await row.getByRole('button', { name: 'Complete' }).click();
    await op.getByTestId('custody-review-reason').fill('Confirmed with the legal representative by phone');
    await op.getByTestId('custody-review-submit').click();
    await expect(row).toHaveCount(0);
    await opContext.close();

    // Status and history show it; the last download window is open; the certificate is revoked.
    await page.reload();
    await expect(page.getByTestId('key-status')).toHaveAttribute('data-status', '3');
    await expect(page.getByTestId('custody-request')).toHaveAttribute('data-status', '2');
    await expect(page.getByTestId('custody-request')).toContainText('Confirmed with the legal representative by phone');
    await expect(page.getByTestId('last-download')).toBeVisible();
    await expect(page.getByTestId('key-log-custody_cancel_completed')).toBeVisible();
    await expect(page.getByTestId('key-log-certificate_revoked')).toBeVisible();
    const last = await downloadOf(page, () => page.getByTestId('download-key').click());
    expect(last.bytes.toString('utf8')).toBe(backupPem);
    await screenshot(page, 'keys-custody-ended-zh');
    await page.goto('/dashboard/company/identity');
    await expect(page.getByTestId('certificate-status')).toHaveAttribute('data-status', 'revoked');
    // The platform's CRL now names the certificate, as the local check shows.
    await page.goto('/dashboard/company/certificate/detail');
    await page.locator('input[type=file]:not([data-testid=nav-search-file-input])').setInputFiles({ name: 'enterprise.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(certPem) });
    await expect(page.getByTestId('local-revocation')).toHaveAttribute('data-revoked', 'true');
    await A.context.close();
  });
});

/** An enterprise whose key was deposited and used once through the API (what the browser does, in Node). */
async function enterpriseWithKey(browser: Browser, locale: Locale, prefix: string) {
  const p = await person(browser, locale, '张三');
  const created = await createEnterprise(p, prefix);
  const request = p.page.request;
  const company = await ok(request.get('/api/v1/enterprises'), 'company');
  const state = await ok(request.get('/api/v1/enterprises/keys'), 'key state');
  const keys = await generateKeyPair();
  const pem = await exportEncryptedPkcs8Pem(keys.privateKey, PASSPHRASE);
  const csr = await createCsrPem(keys, state.subject);
  const proof = await sign(keys.privateKey, depositMessage(company.enterprise_id, createHash('sha256').update(pem).digest()));
  await ok(request.post('/api/v1/enterprises/keys', { data: { encrypted_private_key: pem, csr, deposit_signature: Buffer.from(proof).toString('base64') } }), 'deposit');
  const file = randomBytes(4096);
  const digest = createHash('sha256').update(file).digest();
  const usage = await ok(request.post('/api/v1/enterprises/keys/usages', { data: { file_hash: `0x${digest.toString('hex')}.docx`, file_name: '技术方案 v2.docx', file_size: file.length } }), 'usage');
  const signature = await signDigest(await importEncryptedPkcs8Pem(usage.encrypted_private_key, PASSPHRASE, true), digest);
  await ok(request.put(`/api/v1/enterprises/keys/usages/${usage.usage_id}`, { data: { signature: Buffer.from(signature).toString('base64') } }), 'signature');
  return { p, name: created.name, certificate: usage.certificate as { certificate_id: number; serial_number: string; pem: string } };
}

/** The screens in three languages at desktop (1440), middle (1000) and phone (390) widths, without horizontal overflow. */
test.describe('key and certificate screens in three languages and three widths', () => {
  for (const locale of ['zh', 'en', 'ja'] as const) {
    test(`screens in ${locale}`, async ({ browser }) => {
      test.setTimeout(420_000);
      const L = (s: string) => tr(locale, s);
      // A fresh enterprise: the ceremony's first steps.
      const fresh = await person(browser, locale, '张三');
      await createEnterprise(fresh, `新密钥 ${locale}`);
      const { p, certificate } = await enterpriseWithKey(browser, locale, `证书屏幕 ${locale}`);
      for (const width of [1440, 1000, 390]) {
        for (const who of [fresh, p]) await who.page.setViewportSize({ width, height: 900 });
        await fresh.page.goto('/dashboard/company/identity');
        await expect(fresh.page.getByTestId('key-status')).toHaveAttribute('data-status', '0');
        await screenshot(fresh.page, `keys-identity-none-${locale}-${width}`);
        await noHorizontalOverflow(fresh.page);
        await fresh.page.getByTestId('start-key-ceremony').click();
        await expect(fresh.page.getByRole('dialog').getByText(L('The platform cannot recover the passphrase'), { exact: true })).toBeVisible();
        await screenshot(fresh.page, `keys-ceremony-start-${locale}-${width}`);

        await p.page.goto('/dashboard/company/identity');
        await expect(p.page.getByTestId('certificate-status')).toHaveAttribute('data-status', 'active');
        await screenshot(p.page, `keys-identity-${locale}-${width}`);
        await noHorizontalOverflow(p.page);
        await p.page.goto('/dashboard/company/key');
        await expect(p.page.getByTestId('key-log-signed')).toContainText('技术方案 v2.docx');
        await screenshot(p.page, `keys-private-key-${locale}-${width}`);
        await noHorizontalOverflow(p.page);
        await p.page.goto(`/dashboard/company/certificate/${certificate.certificate_id}/${certificate.serial_number}`);
        await expect(p.page.getByTestId('certificate-pem')).toContainText('BEGIN CERTIFICATE');
        await screenshot(p.page, `keys-certificate-detail-${locale}-${width}`);
        await noHorizontalOverflow(p.page);
        await p.page.goto('/dashboard/company/certificate/detail');
        await p.page.locator('input[type=file]:not([data-testid=nav-search-file-input])').setInputFiles({ name: 'enterprise.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(certificate.pem) });
        await expect(p.page.getByTestId('local-chain')).toHaveAttribute('data-ok', 'true');
        await screenshot(p.page, `keys-local-check-${locale}-${width}`);
        await noHorizontalOverflow(p.page);
      }
      // A certificate of another enterprise, or a wrong serial in the address, is not shown.
      await p.page.goto(`/dashboard/company/certificate/${certificate.certificate_id}/${'0'.repeat(32)}`);
      await expect(p.page.getByText(L('This certificate does not exist.'))).toBeVisible();
      await fresh.context.close();
      await p.context.close();
    });
  }
});

