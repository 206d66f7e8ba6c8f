import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePackage, type ProofPackage } from '../../core/ledger/package.ts';
import { encodeRecord, parseRecord } from '../../core/ledger/record.ts';
import { DEFAULT_FALLBACK_FONT_FILE, DEFAULT_FONT_FILE } from '../../server/ledger/config.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { renderPreparedCertificate, type PageInput } from '../../server/proofs/pdf.ts';
import { embedPreparedFont, preparedFontStats } from '../../server/proofs/prepared-font.ts';
import { RenderPool } from '../../server/proofs/render-pool.ts';
import { sfntFace } from '../../server/proofs/sfnt.ts';

/**
 * Certificates share prepared font subsets (server/proofs/prepared-font.ts): a name with
 * characters outside the fixed text gets a subset of its own, a character the fallback font
 * holds is drawn in it, a glyph a prepared subset lacks falls back to the document's own
 * subset, and nothing one certificate draws leaks into the next (read back with pdftotext).
 */
const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    execFileSync('pdffonts', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const hasFonts = fs.existsSync(DEFAULT_FONT_FILE) && fs.existsSync(DEFAULT_FALLBACK_FONT_FILE);

const vector = new Uint8Array(fs.readFileSync(path.resolve('tests/fixtures/proof-v1-unsigned/proof.pdf')));
const pkg = await decodePackage((await extractPackageNode(vector.slice()))!);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-prepared-font-'));
const pool = new RenderPool(1);
afterAll(async () => {
  await pool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The package with another enterprise name in its record (the page is laid out from the record). */
function named(name: string): ProofPackage {
  return { ...pkg, record: encodeRecord({ ...parseRecord(pkg.record)!, enterprise_name: name }) };
}
function page(name: string, assetName: string | null = null, locale: PageInput['locale'] = 'zh'): PageInput {
  return {
    pkg: named(name),
    verifyUrl: 'https://provena.example/verify-file?dna=x',
    fontFile: DEFAULT_FONT_FILE,
    fallbackFontFile: DEFAULT_FALLBACK_FONT_FILE,
    locale,
    asset: assetName === null ? null : { name: assetName, type: { zh: '工业设计', en: 'Industrial design', ja: '工業デザイン' }, size: 2048 },
  };
}
let n = 0;
function poppler(pdf: Uint8Array): { text: string; fonts: string } {
  const file = path.join(dir, `${n++}.pdf`);
  fs.writeFileSync(file, pdf);
  return {
    text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
    fonts: execFileSync('pdffonts', [file], { encoding: 'utf8' }),
  };
}

describe.skipIf(!hasPoppler || !hasFonts)('prepared certificate fonts', () => {
  it('give a name with characters outside the fixed text its own subset, draw rare ones in the fallback font, and reuse both', async () => {
    // 鑫淼 are in the GB2312 font but in no fixed text; 犇骉喆堃 are only in the fallback font.
    const name = '鑫淼犇骉科技有限公司';
    const asset = '喆堃_外观设计.png';
    const before = preparedFontStats.prepared;
    const first = await renderPreparedCertificate(page(name, asset), null);
    expect(preparedFontStats.prepared - before).toBe(2);
    const { text, fonts } = poppler(first);
    expect(text).toContain(name);
    expect(text).toContain(`${asset}（工业设计 · 2.00 KiB (2,048 字节)）`);
    expect(text).toContain('数字资产存证证书');
    expect(fonts).toMatch(/[A-Z]{6}\+BousungEG-Light-GB\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/[A-Z]{6}\+WenQuanYiZenHei\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    // The same characters again: both subsets are copied, none is made, and the page is the same.
    const reused = preparedFontStats.reused;
    const again = await renderPreparedCertificate(page(name, asset), null);
    expect(preparedFontStats.prepared - before).toBe(2);
    expect(preparedFontStats.reused - reused).toBe(2);
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    // The package still comes out of the page.
    expect((await decodePackage((await extractPackageNode(again.slice()))!)).asset_dna).toBe(pkg.asset_dna);
  });

  it('prepare every character a certificate draws in each language: no page falls back to a subset of its own', async () => {
    const fellBack = preparedFontStats.fellBack;
    for (const locale of ['zh', 'en', 'ja'] as const) {
      const input = page('示例科技有限公司', '样例.png', locale);
      const withDetails: PageInput = { ...input, asset: { ...input.asset!, details: [{ label: { zh: '项目', en: 'Project', ja: 'プロジェクト' }, value: '源代码仓库', isMono: false }] } };
      const { text } = poppler(await renderPreparedCertificate(withDetails, null));
      expect(text).toContain('示例科技有限公司');
      expect(text).toContain('源代码仓库');
    }
    expect(preparedFontStats.fellBack).toBe(fellBack);
  });

  it('fall back to a document subset of its own for a glyph the prepared one lacks, leaving the prepared one as it was', async () => {
    const bytes = sfntFace(new Uint8Array(fs.readFileSync(DEFAULT_FONT_FILE)));
    const draw = async (text: string) => {
      const doc = await PDFDocument.create();
      doc.registerFontkit(fontkit);
      const font = await embedPreparedFont(doc, fontkit, bytes, '字数');
      doc.addPage([300, 100]).drawText(text, { x: 10, y: 50, size: 12, font });
      return doc.save();
    };
    const fellBack = preparedFontStats.fellBack;
    expect(poppler(await draw('数字鑫淼数字')).text).toContain('数字鑫淼数字');
    expect(preparedFontStats.fellBack - fellBack).toBe(1);
    // The shared subset did not take the document's extra glyphs.
    expect(poppler(await draw('字数数字')).text).toContain('字数数字');
    expect(preparedFontStats.fellBack - fellBack).toBe(1);
  });

  it('keep no state from one certificate to the next in a render worker', async () => {
    const a = page('甲方鑫源有限公司', '设计稿A.png');
    const b = page('乙方淼泉株式会社', 'デザインB.png', 'ja');
    const [first, second, firstAgain] = await Promise.all([pool.render(a, null), pool.render(b, null), pool.render(a, null)]);
    const one = poppler(first).text;
    const two = poppler(second).text;
    expect(one).toContain('甲方鑫源有限公司');
    expect(one).toContain('设计稿A.png');
    expect(one).not.toContain('乙方');
    expect(two).toContain('乙方淼泉株式会社');
    expect(two).toContain('デザインB.png');
    expect(two).toContain('デジタル資産存在証明書');
    expect(two).not.toContain('甲方');
    expect(Buffer.from(firstAgain).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(first).equals(Buffer.from(await renderPreparedCertificate(a, null)))).toBe(true);
  });
});
