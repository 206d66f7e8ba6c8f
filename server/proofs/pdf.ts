import fs from 'node:fs';
import { PDFDocument, PDFName, PDFString, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import qrcode from 'qrcode-generator';
import { encodePackage, PACKAGE_ATTACHMENT_NAME, type ProofPackage } from '../../core/ledger/package.ts';
import { parseRecord } from '../../core/ledger/record.ts';
import { sfntFace } from './sfnt.ts';

type LoadedFont = { bytes: Uint8Array; hasGlyph(codePoint: number): boolean };
const fontCache = new Map<string, LoadedFont>();

/**
 * The CJK fonts are TrueType (glyf) fonts: pdf-lib's subsetting of CFF fonts such as
 * Noto Sans CJK produces files poppler and pdf.js reject, while TrueType subsets
 * embed cleanly at ~10 KB. Debian: fonts-arphic-gbsn00lp (GB2312). PROOF_FONT_FILE overrides.
 */
function loadFont(file: string): LoadedFont {
  let font = fontCache.get(file);
  if (!font) {
    if (!fs.existsSync(file)) throw new Error(`certificate font ${file} is missing: install fonts-arphic-gbsn00lp or set PROOF_FONT_FILE to a TrueType font with Chinese glyphs`);
    // A collection (.ttc) gives its first face.
    const bytes = sfntFace(new Uint8Array(fs.readFileSync(file)));
    const parsed = fontkit.create(bytes) as unknown as { hasGlyphForCodePoint(cp: number): boolean };
    font = { bytes, hasGlyph: (cp) => parsed.hasGlyphForCodePoint(cp) };
    fontCache.set(file, font);
  }
  return font;
}

const INK = rgb(0.12, 0.14, 0.2);
const MUTED = rgb(0.42, 0.45, 0.52);
const ACCENT = rgb(0.85, 0.45, 0.1);

/**
 * `cjk` is the main CJK font (GB2312 covers everyday names); `fallback`, embedded only when
 * a text needs it, is a wide-coverage TrueType font (Debian fonts-wqy-zenhei: GBK and
 * CJK Extension A, kana, Hangul) for the rarer characters of a name. (Droid Sans
 * Fallback is not used: its composite glyphs come out blank from pdf-lib's subsetter.)
 */
type Fonts = { latin: PDFFont; cjk: PDFFont; cjkHas(cp: number): boolean; fallback: PDFFont | null; fallbackHas(cp: number): boolean };

/** The font for one character: ASCII in Helvetica, then the CJK font, then the fallback. */
function fontFor(ch: string, fonts: Fonts): PDFFont {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x20 && cp <= 0x7e) return fonts.latin;
  if (fonts.cjkHas(cp) || !fonts.fallback || !fonts.fallbackHas(cp)) return fonts.cjk;
  return fonts.fallback;
}

/** Draws text in runs of one font each. */
function drawMixed(page: PDFPage, text: string, x: number, y: number, size: number, fonts: Fonts, color = INK): number {
  let at = x;
  let run = '';
  let runFont: PDFFont | null = null;
  const flush = () => {
    if (!run || !runFont) return;
    page.drawText(run, { x: at, y, size, font: runFont, color });
    at += runFont.widthOfTextAtSize(run, size);
    run = '';
  };
  for (const ch of text) {
    const font = fontFor(ch, fonts);
    if (font !== runFont) flush();
    runFont = font;
    run += ch;
  }
  flush();
  return at;
}

/** Embeds the fonts a certificate needs; the fallback only when `texts` hold a character the CJK font lacks. */
async function embedFonts(doc: PDFDocument, fontFile: string, fallbackFile: string | null, texts: string[]): Promise<Fonts> {
  const main = loadFont(fontFile);
  const fallback = fallbackFile && fs.existsSync(fallbackFile) ? loadFont(fallbackFile) : null;
  const needsFallback = Boolean(fallback) && texts.some((t) => [...t].some((ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0x7e && !main.hasGlyph(cp) && fallback!.hasGlyph(cp);
  }));
  return {
    latin: await doc.embedFont(StandardFonts.Helvetica),
    cjk: await doc.embedFont(main.bytes, { subset: true }),
    cjkHas: main.hasGlyph,
    fallback: needsFallback ? await doc.embedFont(fallback!.bytes, { subset: true }) : null,
    fallbackHas: fallback?.hasGlyph ?? (() => false),
  };
}

/** Splits a long token (hashes) into lines that fit the width. */
function wrapToken(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    if (font.widthOfTextAtSize(line + ch, size) > width) {
      lines.push(line);
      line = '';
    }
    line += ch;
  }
  if (line) lines.push(line);
  return lines;
}

function formatTime(ms: number): string {
  const beijing = new Date(ms + 8 * 60 * 60 * 1000).toISOString().replace('T', ' ').slice(0, 19);
  return `${beijing} (UTC+8)`;
}

export type CertificateInput = { pkg: ProofPackage; verifyUrl: string; fontFile: string; fallbackFontFile?: string | null };

/** Renders the certificate: readable fields in Chinese and English, a QR code, and the gzip'd package attached. */
export async function renderCertificate({ pkg, verifyUrl, fontFile, fallbackFontFile = null }: CertificateInput): Promise<Uint8Array> {
  const record = parseRecord(pkg.record);
  if (!record) throw new Error('package record is not canonical');
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const fonts = await embedFonts(doc, fontFile, fallbackFontFile, [record.enterprise_name]);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  doc.setTitle(`Provena proof ${pkg.asset_dna}`);
  doc.setSubject('Digital asset proof certificate / 数字资产存证证书');
  doc.setProducer('Provena');
  doc.setCreator('Provena');
  doc.setCreationDate(new Date(pkg.statement.issued_at));
  doc.setModificationDate(new Date(pkg.statement.issued_at));

  const page = doc.addPage([595.28, 841.89]);
  const { width, height } = page.getSize();
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: ACCENT, borderWidth: 1.5 });
  page.drawRectangle({ x: 30, y: 30, width: width - 60, height: height - 60, borderColor: ACCENT, borderWidth: 0.5 });

  let y = height - 90;
  const title = '数字资产存证证书';
  page.drawText(title, { x: (width - fonts.cjk.widthOfTextAtSize(title, 26)) / 2, y, size: 26, font: fonts.cjk, color: INK });
  y -= 28;
  const subtitle = 'Digital Asset Proof Certificate';
  page.drawText(subtitle, { x: (width - bold.widthOfTextAtSize(subtitle, 14)) / 2, y, size: 14, font: bold, color: INK });
  y -= 40;

  const left = 60;
  const valueX = 200;
  const valueWidth = width - valueX - 60;
  const row = (zh: string, en: string, value: string, isMono: boolean) => {
    drawMixed(page, zh, left, y, 11, fonts);
    page.drawText(en, { x: left, y: y - 13, size: 8, font: fonts.latin, color: MUTED });
    const lines = isMono ? wrapToken(value, mono, 9.5, valueWidth) : [value];
    lines.forEach((line, i) => {
      if (isMono) page.drawText(line, { x: valueX, y: y - i * 13, size: 9.5, font: mono, color: INK });
      else drawMixed(page, line, valueX, y - i * 13, 11, fonts);
    });
    y -= Math.max(34, lines.length * 13 + 20);
  };
  row('文件哈希', 'File hash (SHA-256)', pkg.file_hash, true);
  row('资产 DNA', 'Asset DNA', pkg.asset_dna, true);
  row('登记时间', 'Registered at', formatTime(record.registered_at), false);
  row('区块地址', 'Block address', `#${pkg.block.header.height}  ${pkg.block.hash}`, true);
  row('企业名称', 'Enterprise', record.enterprise_name, false);
  row('签发时间', 'Issued at', formatTime(pkg.statement.issued_at), false);
  row('有效期至', 'Expires at', formatTime(pkg.statement.expires_at), false);
  row('平台公钥', 'Platform key id', pkg.platform_key.key_id, true);

  // QR code to the verification page.
  const qr = qrcode(0, 'M');
  qr.addData(verifyUrl);
  qr.make();
  const modules = qr.getModuleCount();
  const qrSize = 110;
  const cell = qrSize / modules;
  const qrX = width - 60 - qrSize;
  const qrY = 120;
  for (let r = 0; r < modules; r++) {
    for (let c = 0; c < modules; c++) {
      if (qr.isDark(r, c)) page.drawRectangle({ x: qrX + c * cell, y: qrY + (modules - 1 - r) * cell, width: cell + 0.05, height: cell + 0.05, color: INK });
    }
  }
  drawMixed(page, '扫码验证 Scan to verify', qrX, qrY - 16, 9, fonts, MUTED);

  let fy = 220;
  const notes = [
    '验证方法：在验证中心同时选择原始文件与本 PDF，全部校验在浏览器本地完成。',
    'How to verify: choose the original file and this PDF at the verification centre;',
    'every check runs locally. This PDF embeds the machine-readable proof package',
    `${PACKAGE_ATTACHMENT_NAME} (format provena-proof v1, see docs/proof-format.md).`,
    '本证书内嵌机器可读的证明包，可离线验证。',
  ];
  for (const note of notes) {
    drawMixed(page, note, left, fy, 8.5, fonts, MUTED);
    fy -= 14;
  }
  drawMixed(page, '区块浏览器 Explorer:', left, fy - 6, 8.5, fonts, MUTED);
  page.drawText(pkg.explorer_url, { x: left, y: fy - 20, size: 8, font: fonts.latin, color: rgb(0.1, 0.3, 0.7) });
  addLink(doc, page, pkg.explorer_url, { x: left, y: fy - 22, width: fonts.latin.widthOfTextAtSize(pkg.explorer_url, 8), height: 10 });
  page.drawText(verifyUrl, { x: left, y: fy - 34, size: 8, font: fonts.latin, color: rgb(0.1, 0.3, 0.7) });
  addLink(doc, page, verifyUrl, { x: left, y: fy - 36, width: fonts.latin.widthOfTextAtSize(verifyUrl, 8), height: 10 });

  await doc.attach(await encodePackage(pkg), PACKAGE_ATTACHMENT_NAME, {
    mimeType: 'application/gzip',
    description: 'Provena proof package (provena-proof v1, gzip JSON)',
    creationDate: new Date(pkg.statement.issued_at),
    modificationDate: new Date(pkg.statement.issued_at),
  });
  return doc.save({ useObjectStreams: false });
}

function addLink(doc: PDFDocument, page: PDFPage, url: string, rect: { x: number; y: number; width: number; height: number }): void {
  const annotation = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [rect.x, rect.y, rect.x + rect.width, rect.y + rect.height],
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    }),
  );
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (annots && 'push' in annots) (annots as unknown as { push(x: unknown): void }).push(annotation);
  else page.node.set(PDFName.of('Annots'), doc.context.obj([annotation]));
}
