import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { creditsForAssets } from './credit-helpers.ts';
import { requestLocale } from '../../server/locale.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

/**
 * The certificate a customer hands to a court or a partner: it names the asset, is written
 * in the registrant's language with the other two beside it, and sends the reader to the
 * verification page by its address and QR code (read back with poppler's pdftotext).
 */
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-certificate-'));
});
afterAll(async () => {
  await h?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function certificateText(language: string, name: string, size: number): Promise<string> {
  const owner = await ownerWithEnterprise(h, `证书公司 ${language} ${Date.now()}`);
  await creditsForAssets(h, owner, owner, 1);
  const fileHash = `0x${createHash('sha256').update(`${language}-${Date.now()}-${Math.random()}`).digest('hex')}.pdf`;
  const res = await h.request({ method: 'POST', url: '/api/v1/assets', cookie: owner.cookie, headers: { 'accept-language': language }, body: { name, type: 2, file_hash: fileHash, size } });
  expect(res.statusCode, res.body).toBe(200);
  const dna = res.json().data.dip_id as string;
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
  const pdf = (await readProofPdf(h.app.db, h.app.fileStore.driver, dna))!;
  const file = path.join(dir, `${dna}.pdf`);
  fs.writeFileSync(file, pdf);
  if (process.env.KEEP_CERTIFICATES) fs.copyFileSync(file, path.join(process.env.KEEP_CERTIFICATES, `certificate-${language.slice(0, 2)}.pdf`));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

describe('proof certificate', () => {
  it('reads the language the app sends, then the browser list, zh by default', () => {
    const req = (value?: string) => ({ headers: value === undefined ? {} : { 'accept-language': value } }) as never;
    expect(requestLocale(req('ja'))).toBe('ja');
    expect(requestLocale(req('fr-FR,en;q=0.8,zh;q=0.5'))).toBe('en');
    expect(requestLocale(req('zh-CN;q=0.2,ja-JP;q=0.9'))).toBe('ja');
    expect(requestLocale(req('de'))).toBe('zh');
    expect(requestLocale(req())).toBe('zh');
  });

  it.skipIf(!hasPdftotext)('names the asset and is written in the registrant language, with the other two beside it and the verification page by address', async () => {
    const ja = await certificateText('ja', '外観設計図.pdf', 3_456_789);
    expect(ja).toContain('デジタル資産存在証明書');
    expect(ja).toContain('数字资产存证证书 · Digital Asset Proof Certificate');
    expect(ja).toContain('外観設計図.pdf');
    expect(ja).toContain('工業デザイン');
    expect(ja).toContain('3.30 MiB');
    expect(ja).toContain('確認方法');
    expect(ja).toContain(`${h.app.ledger.config.publicUrl}/verify-file?dna=`);
    expect(ja).not.toContain('docs/proof-format.md');

    const en = await certificateText('en-GB,en;q=0.9', 'Exterior drawing', 12);
    expect(en).toContain('Digital Asset Proof Certificate');
    expect(en).toContain('Exterior drawing (Industrial design · 12 bytes)');
    expect(en).toContain('This certificate proves that the enterprise above registered');
    expect(en).toContain('数字资产存证证书 · デジタル資産存在証明書');

    const zh = await certificateText('zh-CN', '外观设计图', 2048);
    expect(zh).toContain('数字资产存证证书');
    expect(zh).toContain('外观设计图（工业设计 · 2.00 KiB (2,048 字节)）');
    expect(zh).toContain('Digital Asset Proof Certificate · デジタル資産存在証明書');
  }, 120_000);
});
