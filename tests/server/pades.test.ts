import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { decodePackage, verifyCertificate, type Verdict } from '../../core/ledger/package.ts';
import { checkPageSignature } from '../../core/ledger/page-signature.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { renderCertificate } from '../../server/proofs/pdf.ts';
import { loadPlatformSigner } from '../../server/keys/platform-keys.ts';
import { startHarness, type Harness } from './harness.ts';
import { parseDer } from '../../core/crypto/der.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

/**
 * The visible page is signed. Before, the PDF was not: anyone could edit the page (the
 * expiry, the fingerprint) or append to the file, and every verifier still said VALID,
 * because only the package inside was checked. Each attack below leaves the package
 * intact; `page_signature` must catch it, in the core verifier, the verify API and the CLI.
 */
vi.setConfig({ testTimeout: 120_000 });

let h: Harness;
let forger: Harness;
let dir: string;
let pdf: Uint8Array;
let roots: string[];
const content = 'a contract draft, registered';
const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

async function issue(app: Harness, text: string): Promise<Uint8Array> {
  const r = await app.app.registerEntry({ fileHash: `0x${sha(text)}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file' });
  await app.app.ledger.sealNow();
  await app.app.proofs.drain();
  return new Uint8Array((await readProofPdf(app.app.db, app.app.fileStore.driver, r.dna))!);
}

const verify = (bytes: Uint8Array) => verifyCertificate(bytes.slice(), extractPackageNode, { fileSha256: sha(content), now: Date.now(), trustedRootFingerprints: roots });

/** Every check but the page's passed: the package inside is intact. */
function expectOnlyPageFails(v: Verdict, reason: string): void {
  expect(v).toMatchObject({ isValid: false, failedCheck: 'page_signature', message: 'page_signature_invalid' });
  expect(v.checks.filter((c) => !c.isOk).map((c) => c.id)).toEqual(['page_signature']);
  expect(v.checks.find((c) => c.id === 'page_signature')?.facts?.reason).toBe(reason);
}

/** An incremental update, as any PDF editor appends one: a new Info dictionary (a changed title), its xref section and trailer. */
function appendIncrementalUpdate(bytes: Uint8Array): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  const size = Math.max(...[...text.matchAll(/\/Size (\d+)/g)].map((m) => Number(m[1])));
  const rootRef = /\/Root (\d+ \d+ R)/.exec(text)![1];
  const objOffset = bytes.length + 1;
  const obj = `\n${size} 0 obj\n<< /Title (Valid until 2099-12-31) >>\nendobj\n`;
  const xrefOffset = bytes.length + Buffer.byteLength(obj, 'latin1');
  const tail = `xref\n0 1\n0000000000 65535 f \n${size} 1\n${String(objOffset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size + 1} /Root ${rootRef} /Info ${size} 0 R /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([Buffer.from(bytes), Buffer.from(obj + tail, 'latin1')]));
}

/**
 * Edits the CMS inside /Contents (outside the signed byte range, so only the reading of the
 * signature itself can catch it): `edit` gets the DER and the length of the CMS in it.
 */
function editSignature(bytes: Uint8Array, edit: (der: Buffer, cmsLength: number) => void): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
  const [b, c] = [Number(m[2]), Number(m[3])];
  const der = Buffer.from(text.slice(b + 1, c - 1), 'hex');
  edit(der, parseDer(der, 0).end);
  const out = bytes.slice();
  out.set(Buffer.from(der.toString('hex'), 'latin1'), b + 1);
  return out;
}

beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
  forger = await startHarness();
  await forger.app.ledger.stop();
  pdf = await issue(h, content);
  roots = (await h.app.db.selectFrom('platform_roots').select('fingerprint').execute()).map((r) => r.fingerprint);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-pades-'));
});
afterAll(async () => {
  await h?.close();
  await forger?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the certificate page is signed (PAdES B-LT)', () => {
  it('verifies: one signature over the whole file, time-stamped by the platform TSA, under the proof root', async () => {
    const page = await checkPageSignature(pdf);
    expect(page).toMatchObject({ isOk: true, rootFingerprint: roots[0], signer: expect.stringMatching(/^Provena Proof Signing /) });
    const v = await verify(pdf);
    expect(v.isValid, JSON.stringify(v.checks.filter((c) => !c.isOk))).toBe(true);
    const check = v.checks.find((c) => c.id === 'page_signature')!;
    expect(check).toMatchObject({ isOk: true, facts: { signer: expect.any(String), at: expect.any(Number) } });
    // Time-stamped when the certificate was issued.
    const pkg = await decodePackage((await extractPackageNode(pdf.slice()))!);
    expect(Math.abs(Number(check.facts!.at) - pkg.statement.issued_at)).toBeLessThan(1000);
  });

  it('poppler reports it valid and the whole document signed, with the platform root trusted', () => {
    fs.writeFileSync(path.join(dir, 'proof.pdf'), pdf);
    const root = h.app.db.selectFrom('platform_roots').select('certificate').executeTakeFirstOrThrow();
    return root.then((r) => {
      fs.writeFileSync(path.join(dir, 'root.pem'), `-----BEGIN CERTIFICATE-----\n${r.certificate.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`);
      const nss = path.join(dir, 'nss');
      fs.mkdirSync(nss);
      execFileSync('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
      execFileSync('certutil', ['-A', '-d', `sql:${nss}`, '-n', 'provena-root', '-t', 'CT,C,C', '-i', path.join(dir, 'root.pem')]);
      const out = execFileSync('pdfsig', ['-nssdir', `sql:${nss}`, path.join(dir, 'proof.pdf')], { encoding: 'utf8' });
      expect(out).toContain('Signature Type: ETSI.CAdES.detached');
      expect(out).toContain('Total document signed');
      expect(out).toContain('Signature Validation: Signature is Valid.');
      expect(out).toContain('Certificate Validation: Certificate is Trusted.');
      // The appended update: poppler no longer says the whole document is signed.
      fs.writeFileSync(path.join(dir, 'appended.pdf'), appendIncrementalUpdate(pdf));
      const appended = spawnSync('pdfsig', ['-nssdir', `sql:${nss}`, path.join(dir, 'appended.pdf')], { encoding: 'utf8' });
      expect(appended.stdout).not.toContain('Total document signed');
    });
  });

  it('catches an incremental update appended after signing: core, verify API and CLI', async () => {
    const appended = appendIncrementalUpdate(pdf);
    // pdf.js reads the updated file and the package in it is the same.
    expect(await extractPackageNode(appended.slice())).toEqual(await extractPackageNode(pdf.slice()));
    expectOnlyPageFails(await verify(appended), 'altered');

    const boundary = '----provena' + Math.random().toString(16).slice(2);
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="hash"\r\n\r\n${sha(content)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const api = await h.app.inject({ method: 'PUT', url: '/verify-api/v1/public/zkp-proof-verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat([head, Buffer.from(appended), Buffer.from(`\r\n--${boundary}--\r\n`)]) });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toMatchObject({ message: 'page_signature_invalid', failed_check: 'page_signature' });

    fs.writeFileSync(path.join(dir, 'original.txt'), content);
    fs.writeFileSync(path.join(dir, 'appended.pdf'), appended);
    const cli = spawnSync(process.execPath, ['bin/provena.ts', 'verify', path.join(dir, 'original.txt'), path.join(dir, 'appended.pdf'), '--trust-root', roots[0]!], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: dir, PROVENA_TRUST_ROOTS: '' } });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('FAILED at check "page_signature"');
    const intact = spawnSync(process.execPath, ['bin/provena.ts', 'verify', path.join(dir, 'original.txt'), path.join(dir, 'proof.pdf'), '--trust-root', roots[0]!], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: dir, PROVENA_TRUST_ROOTS: '' } });
    expect(intact.status, intact.stderr).toBe(0);
    expect(intact.stdout).toContain('✓ page signature');
  });

  it('catches a page edited and the file rewritten (the expiry painted over), the package untouched', async () => {
    const doc = await PDFDocument.load(pdf);
    const page = doc.getPage(0);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawRectangle({ x: 40, y: 300, width: 300, height: 16, color: rgb(1, 1, 1) });
    page.drawText('Valid until 2099-12-31', { x: 40, y: 304, size: 10, font });
    const edited = await doc.save({ useObjectStreams: false });
    expect(await extractPackageNode(edited.slice())).toEqual(await extractPackageNode(pdf.slice()));
    expectOnlyPageFails(await verify(edited), 'altered');
  });

  it('catches one flipped byte in the signed range', async () => {
    const text = Buffer.from(pdf).toString('latin1');
    const at = text.indexOf('/MediaBox');
    const flipped = pdf.slice();
    flipped[at + 1] = 'm'.charCodeAt(0); // /mediaBox: same length, still a readable PDF
    const v = await verify(flipped);
    expect(v.checks.find((c) => c.id === 'page_signature')).toMatchObject({ isOk: false, message: 'page_signature_invalid' });
  });

  it('reads the signature itself strictly: a byte changed inside /Contents (outside the signed range) fails the page check', async () => {
    const text = Buffer.from(pdf).toString('latin1');
    const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
    const [b, c, d] = [Number(m[2]), Number(m[3]), Number(m[4])];
    const digest = createHash('sha256').update(pdf.subarray(0, b)).update(pdf.subarray(c, c + d)).digest();
    // The signer's certificate comes first (SignedData certificates); the time-stamp token is last (an unsigned attribute).
    const flip = (der: Buffer, what: Buffer | string, isLast = false) => {
      const at = isLast ? der.lastIndexOf(what) : der.indexOf(what);
      expect(at, String(what)).toBeGreaterThan(0);
      der[at + 2] ^= 0x01;
    };
    const cases: [string, (der: Buffer, cmsLength: number) => void, RegExp][] = [
      ['garbage after the CMS in its zero padding', (der, n) => void (der[n] = 1), /unreadable/],
      ['the message digest of the signed bytes', (der) => flip(der, digest), /message digest/],
      ["the signer's certificate", (der) => flip(der, 'Provena Proof Signing'), /signing-certificate-v2|not in the signature|did not issue/],
      ["the time-stamping authority's certificate", (der) => flip(der, 'Provena Time-Stamping Authority', true), /time-stamp/],
      ['the CMS cut short', (der) => void der.fill(0, 40), /unreadable/],
    ];
    for (const [what, edit, detail] of cases) {
      const edited = editSignature(pdf, edit);
      const page = await checkPageSignature(edited);
      expect(page.isOk, what).toBe(false);
      expect(page.detail, what).toMatch(detail);
      expectOnlyPageFails(await verify(edited), 'altered');
    }
    // The untouched file still verifies (no state kept from the failures).
    expect((await checkPageSignature(pdf)).isOk).toBe(true);
  });

  it('refuses a certificate whose page signature was stripped (its statement says the page is signed)', async () => {
    const pkg = await decodePackage((await extractPackageNode(pdf.slice()))!);
    const unsigned = await renderCertificate({ pkg, verifyUrl: 'https://provena.example/verify-file', fontFile: h.app.ledger.config.fontFile, fallbackFontFile: h.app.ledger.config.fallbackFontFile });
    expectOnlyPageFails(await verify(unsigned), 'unsigned');
  });

  it('still verifies a certificate issued before pages were signed (a real v1 vector), its page check skipped with a note', async () => {
    const dir = path.resolve('tests/fixtures/proof-v1-unsigned');
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, 'proof.pdf')));
    const key = JSON.parse(fs.readFileSync(path.join(dir, 'platform-key.json'), 'utf8')) as { key_id: string };
    const pkg = await decodePackage((await extractPackageNode(bytes.slice()))!);
    expect(pkg.statement.page).toBeUndefined();
    expect(await checkPageSignature(bytes.slice())).toMatchObject({ isOk: false, isUnsigned: true });
    const v = await verifyCertificate(bytes.slice(), extractPackageNode, { fileSha256: sha(fs.readFileSync(path.join(dir, 'original.txt'))), now: Date.now(), trustedKeyIds: [key.key_id] });
    expect(v.isValid).toBe(true);
    expect(v.checks.find((c) => c.id === 'page_signature')).toMatchObject({ isOk: true, isSkipped: true, facts: { reason: 'legacy' } });
    // The CLI says so and exits 0.
    const cli = spawnSync(process.execPath, ['bin/provena.ts', 'verify', path.join(dir, 'original.txt'), path.join(dir, 'proof.pdf'), '--trust', key.key_id], { encoding: 'utf8' });
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(/issued before certificate pages were signed/);
  });

  it('a new certificate cannot pass as an old unsigned one: its signed statement says "pades", and dropping that breaks the statement signature', async () => {
    const pkg = await decodePackage((await extractPackageNode(pdf.slice()))!);
    expect(pkg.statement.page).toBe('pades');
    const { page: _dropped, ...rest } = pkg.statement;
    const stripped = await renderCertificate({ pkg: { ...pkg, statement: rest }, verifyUrl: 'https://provena.example/verify-file', fontFile: h.app.ledger.config.fontFile, fallbackFontFile: h.app.ledger.config.fallbackFontFile });
    const v = await verify(stripped);
    expect(v).toMatchObject({ isValid: false, failedCheck: 'statement_signature' });
  });

  it('signs a certificate stored before pages were signed, in place, at the next pass of the proof jobs', async () => {
    const r = await h.app.registerEntry({ fileHash: `0x${sha(content)}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file' });
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    const stored = (await readProofPdf(h.app.db, h.app.fileStore.driver, r.dna))!;
    const pkg = await decodePackage((await extractPackageNode(new Uint8Array(stored)))!);
    const legacy = await renderCertificate({ pkg, verifyUrl: 'https://provena.example/verify-file', fontFile: h.app.ledger.config.fontFile, fallbackFontFile: h.app.ledger.config.fallbackFontFile });
    // A row as written before certificates went to the object store (migration 0036): the bytes in the column.
    await h.app.db.updateTable('proofs').set({ pdf: legacy, page_signed: 0, pdf_key: null, pdf_size: null, pdf_sha256: null }).where('dna', '=', r.dna).execute();
    expectOnlyPageFails(await verify(legacy), 'unsigned');
    await h.app.proofs.drain();
    const now = await h.app.db.selectFrom('proofs').select(['pdf', 'pdf_key', 'page_signed']).where('dna', '=', r.dna).executeTakeFirstOrThrow();
    expect(now.page_signed).toBe(1);
    // The signed copy went to the object store, under a key of its own; the column is empty.
    expect(now).toMatchObject({ pdf: null, pdf_key: `proofs/${r.dna}/1-signed.pdf` });
    const signed = new Uint8Array((await readProofPdf(h.app.db, h.app.fileStore.driver, r.dna))!);
    expect((await verify(signed)).isValid).toBe(true);
    // The same package, the same page.
    expect(await extractPackageNode(signed.slice())).toEqual(await extractPackageNode(legacy.slice()));
  });

  it("refuses this platform's proof inside a page signed by another platform", async () => {
    const pkg = await decodePackage((await extractPackageNode(pdf.slice()))!);
    const signing = { proof: await loadPlatformSigner(forger.app.db, 'proof'), tsa: await loadPlatformSigner(forger.app.db, 'tsa') };
    const resigned = await renderCertificate({ pkg, verifyUrl: 'https://provena.example/verify-file', fontFile: h.app.ledger.config.fontFile, fallbackFontFile: h.app.ledger.config.fallbackFontFile, signing });
    expect((await checkPageSignature(resigned)).isOk).toBe(true);
    expectOnlyPageFails(await verify(resigned), 'other_root');
  });
});
