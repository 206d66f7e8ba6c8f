import { createHash } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { PDFDocument, PDFName } from 'pdf-lib';
import { createEnterprise, ok, ownerCredits, person, registerAsset, screenshot, tr, verifyInCentre as verify, type Locale, type Person, type Upload, test } from './support.ts';

/**
 * The verification centre in the browser: a file registered through the service API gets its certificate,
 * which the verification centre (no login) accepts with the original and refuses, with the
 * §8 message, for a changed original, a PDF without its package, a corrupted package,
 * another file's package and an expired proof; a valid proof still verifies offline.
 */
const text = (name: string, content: string): Upload => ({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
const pdf = (name: string, bytes: Uint8Array): Upload => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });

/** Registers the original as a digital asset of the owner's enterprise; its certificate PDF, and the DNA. */
async function certify(owner: Person, original: Upload): Promise<{ pdf: Uint8Array; dna: string }> {
  const hash = createHash('sha256').update(original.buffer).digest('hex');
  const dna = await registerAsset(owner, `0x${hash}.txt`, original.name);
  return { pdf: await certificateOf(owner.page.request, dna), dna };
}

/** A new certificate for the same entry valid for one second (status 6, regenerated): expired by the time it is checked. */
async function expiringCertificate(request: APIRequestContext, dna: string): Promise<Uint8Array> {
  await ok(request.post(`/api/v1/ledger/entries/${dna}/proof`, { data: { valid_seconds: 1 } }), 'regenerate');
  for (let i = 0; i < 150; i++) {
    const status = await ok(request.get(`/api/v1/ledger/entries/${dna}/proof`), 'proof status');
    if (status.proof_status === 6 && status.is_generated) return certificateOf(request, dna);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no regenerated certificate for ${dna}`);
}

async function certificateOf(request: APIRequestContext, dna: string): Promise<Uint8Array> {
  // Asynchronous certificates (§9): the PDF exists once the entry's block is sealed.
  for (let i = 0; i < 150; i++) {
    const cert = await request.get(`/verify-api/v1/public/zkp-proof-request?zkp_register_dna=${dna}`);
    if (cert.status() === 200) return new Uint8Array(await cert.body());
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no certificate for ${dna}`);
}

/** Switches the language as a returning visitor would have it: the stored choice (§1). */
async function setLocale(page: Page, locale: Locale) {
  if (page.url() === 'about:blank') await page.goto('/verify-file');
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
}


const FAILURES: Array<{ case: string; key: string; message: string }> = [
  { case: 'changed original', key: 'hash_mismatch', message: 'The original file and the proof file do not match' },
  { case: 'package removed', key: 'no_proof_package', message: 'The proof file is missing or invalid' },
  { case: 'corrupted package', key: 'gzip_invalid_header', message: 'The proof file format is wrong' },
  { case: "another file's package", key: 'hash_mismatch', message: 'The original file and the proof file do not match' },
  { case: 'expired', key: 'expiration_time_verification_failed', message: 'The digital property proof file has expired, please regenerate it' },
];

test('the verification centre accepts a real certificate and names each failure (§8), also offline', async ({ browser }) => {
  const owner = await person(browser, 'zh', '张三');
  await createEnterprise(owner, '西安测试科技有限公司');
  await ownerCredits(browser, owner, 10_000);
  const phone = owner.phone;

  const original = text('work.txt', `my original work ${phone}\n`);
  const changed = text('work.txt', `my original work ${phone}!\n`);
  const first = await certify(owner, original);
  const certificate = first.pdf;
  const otherCertificate = (await certify(owner, text('other.txt', `another work ${phone}\n`))).pdf;
  const expiredCertificate = await expiringCertificate(owner.page.request, first.dna);

  const withoutPackage = await PDFDocument.load(certificate);
  withoutPackage.catalog.delete(PDFName.of('Names'));
  const corrupted = await PDFDocument.create();
  for (const p of await corrupted.copyPages(await PDFDocument.load(certificate), [0])) corrupted.addPage(p);
  await corrupted.attach(new TextEncoder().encode('this is not gzip at all'), 'provena-proof.json.gz', { mimeType: 'application/gzip' });
  const proofs: Record<string, Upload> = {
    'changed original': pdf('proof.pdf', certificate),
    'package removed': pdf('proof.pdf', await withoutPackage.save()),
    'corrupted package': pdf('proof.pdf', await corrupted.save()),
    "another file's package": pdf('proof.pdf', otherCertificate),
    expired: pdf('proof.pdf', expiredCertificate),
  };

  // The verification centre needs no login: a fresh context, in each language in turn.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  const locales: Locale[] = ['zh', 'en', 'ja'];
  for (const [i, failure] of FAILURES.entries()) {
    const locale = locales[i % locales.length]!;
    await setLocale(visitor, locale);
    const result = await verify(visitor, locale, failure.case === 'changed original' ? changed : original, proofs[failure.case]!);
    await expect(result).toHaveAttribute('data-valid', 'false');
    await expect(result).toHaveAttribute('data-message', failure.key);
    await expect(visitor.getByTestId('verify-failure')).toContainText(tr(locale, failure.message));
    // The failed check says what to do next, in the page's language.
    await expect(result.getByTestId('check-next-step').first()).toBeVisible();
    if (locale !== 'en') await expect(result.getByTestId('check-next-step').first()).not.toContainText(/\b(the|file|choose|certificate)\b/i);
    if (failure.case === 'expired') await screenshot(visitor, `verify-expired-${locale}`);
  }

  await setLocale(visitor, 'zh');
  const valid = await verify(visitor, 'zh', original, pdf('proof.pdf', certificate));
  await expect(valid).toHaveAttribute('data-valid', 'true');
  // Every detail line is in the page's language: no English sentence among them (hashes, DNAs and numbers aside).
  for (const line of await valid.getByTestId('check-detail').allTextContents()) {
    expect(line, line).not.toMatch(/\b(the|is|of|by|signed|block|leaf|root|valid|until|bytes|read|key)\b/i);
  }
  await screenshot(visitor, 'verify-valid-zh');

  // Loaded once, then the network goes: the package carries all a verification needs.
  await context.setOffline(true);
  const [c1] = await Promise.all([visitor.waitForEvent('filechooser'), visitor.getByTestId('verify-original').click()]);
  await c1.setFiles(original);
  const [c2] = await Promise.all([visitor.waitForEvent('filechooser'), visitor.getByTestId('verify-proof').click()]);
  await c2.setFiles(pdf('proof.pdf', certificate));
  await visitor.getByRole('button', { name: tr('zh', 'Verify'), exact: true }).click();
  await expect(visitor.getByTestId('verify-result')).toHaveAttribute('data-valid', 'true', { timeout: 20_000 });
  await context.setOffline(false);
  await context.close();
});
