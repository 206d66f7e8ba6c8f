import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { PDFContentStream, PDFDocument, PDFName, PDFRawStream, PDFString, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
/*
 * pdf-lib 1.17.1 stays rather than the maintained fork @cantoo/pdf-lib. Measured on
 * this certificate with the optimizations below applied to both, 40 pages after a warm-up:
 * @cantoo/pdf-lib 2.11.1 27.7–31.5 ms CPU per page, pdf-lib 31.2–42.7 ms, within this loaded
 * machine's noise (the deflate and subset costs where they differ are bypassed here). The swap
 * would also mean replacing @pdf-lib/fontkit (cantoo's subsetter calls fontkit 2's `encode()`
 * with no stream, which crashes @pdf-lib/fontkit: "reading 'pos'") and leaving
 * @signpdf/placeholder-pdf-lib's peer dependency (pdf-lib ^1.17.1). pdf-lib's format output
 * is checked by pdfsig, pdf.js and the page-signature tests; revisit if a PDF bug needs a fix.
 */
import { padesCertificates, signPreparedPdf, type PadesKeys } from './pades.ts';
import { preparePades } from './pades-prepare.ts';
import fontkit from '@pdf-lib/fontkit';
import qrcode from 'qrcode-generator';
import { encodePackage, PACKAGE_ATTACHMENT_NAME, type ProofPackage } from '../../core/ledger/package.ts';
import { parseRecord } from '../../core/ledger/record.ts';
import { sfntFace } from './sfnt.ts';
import { embedPreparedFont } from './prepared-font.ts';
import { CERTIFICATE_TEXT, formatSize, otherLocales, type Trilingual } from './certificate-text.ts';
import type { CertificateLocale } from '../locale.ts';

type LoadedFont = { bytes: Uint8Array; hasGlyph(codePoint: number): boolean };
const fontCache = new Map<string, LoadedFont>();

/**
 * The CJK fonts are TrueType (glyf) fonts: pdf-lib's subsetting of CFF fonts such as
 * Noto Sans CJK produces files poppler and pdf.js reject, while TrueType subsets
 * embed cleanly at ~10 KB. Debian: fonts-arphic-gbsn00lp (GB2312). PROOF_FONT_FILE overrides.
 */
const parsedFonts = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();

type FontkitFont = {
  layout(text: string, features?: unknown, ...rest: unknown[]): unknown;
  createSubset(): FontkitSubset;
};
type FontkitSubset = { encode(stream: unknown): void; encodeStream(): EncodeStreamLike };
type EncodeStreamLike = { constructor: new () => EncodeStreamLike; push(chunk: Uint8Array | null): boolean; flush(): void };

/** The most layouts one face keeps; past it the memo starts over (certificate texts repeat, names do not). */
const LAYOUT_MEMO_LIMIT = 20_000;

/**
 * A parsed face made cheaper to reuse, without changing what it produces:
 * - `layout(text)` is memoized per text. pdf-lib lays a text out (cmap lookups, GSUB) each
 *   time it measures or draws it, and a certificate measures the same labels and sentences
 *   character by character while wrapping; a glyph run depends only on the face and the text.
 * - a subset is encoded synchronously. fontkit's browser build defers `encodeStream` through
 *   a `setTimeout` polyfill of `process.nextTick` and emits each table as a separate tick, so
 *   every embedded subset waited for several timer turns (idle time in a CPU profile, ~10 %
 *   of a certificate's wall time). The same `encode` runs into the same EncodeStream; its
 *   chunks are handed to pdf-lib through a Node stream (which only listens to data/end/error).
 */
function reusableFace(font: FontkitFont): FontkitFont {
  const layout = font.layout.bind(font);
  const memo = new Map<string, unknown>();
  font.layout = (text: string, features?: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || features !== undefined || rest.length > 0) return layout(text, features, ...rest);
    let run = memo.get(text);
    if (run === undefined) {
      if (memo.size >= LAYOUT_MEMO_LIMIT) memo.clear();
      run = layout(text);
      memo.set(text, run);
    }
    return run;
  };
  const createSubset = font.createSubset.bind(font);
  let EncodeStream: (new () => EncodeStreamLike) | null = null;
  font.createSubset = () => {
    const subset = createSubset();
    subset.encodeStream = () => {
      // fontkit's EncodeStream class is not exported: the first subset's own stream gives it.
      EncodeStream ??= createSubset().encodeStream().constructor;
      const stream = new EncodeStream();
      const chunks: Uint8Array[] = [];
      stream.push = (chunk) => {
        if (chunk) chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        return true;
      };
      subset.encode(stream);
      stream.flush();
      return Readable.from([Buffer.concat(chunks)], { objectMode: true }) as unknown as EncodeStreamLike;
    };
    return subset;
  };
  return font;
}

/**
 * fontkit that parses each font's bytes once per process. pdf-lib parses the face again for
 * every document it embeds it in; for the 5 MB GB2312 face that parse (a byte-by-byte copy
 * into fontkit's own Buffer, then its tables) was the largest part of a certificate's time.
 * A parsed face is only read afterwards: each document still makes its own subset.
 */
const cachingFontkit: typeof fontkit = {
  ...fontkit,
  create(data, postscriptName) {
    if (postscriptName !== undefined || !(data instanceof Uint8Array)) return fontkit.create(data, postscriptName);
    let font = parsedFonts.get(data);
    if (!font) {
      font = reusableFace(fontkit.create(data) as unknown as FontkitFont) as unknown as ReturnType<typeof fontkit.create>;
      parsedFonts.set(data, font);
    }
    return font;
  },
};

function loadFont(file: string): LoadedFont {
  let font = fontCache.get(file);
  if (!font) {
    if (!fs.existsSync(file)) throw new Error(`certificate font ${file} is missing: install fonts-arphic-gbsn00lp or set PROOF_FONT_FILE to a TrueType font with Chinese glyphs`);
    // A collection (.ttc) gives its first face.
    const bytes = sfntFace(new Uint8Array(fs.readFileSync(file)));
    const parsed = cachingFontkit.create(bytes) as unknown as { hasGlyphForCodePoint(cp: number): boolean };
    font = { bytes, hasGlyph: (cp) => parsed.hasGlyphForCodePoint(cp) };
    fontCache.set(file, font);
  }
  return font;
}

const INK = rgb(0.12, 0.14, 0.2);
const MUTED = rgb(0.42, 0.45, 0.52);
const ACCENT = rgb(0.85, 0.45, 0.1);
const LINK = rgb(0.1, 0.3, 0.7);

/**
 * `cjk` is the main CJK font (GB2312 covers everyday names); `fallback`, embedded only when
 * a text needs it, is a wide-coverage TrueType font (Debian fonts-wqy-zenhei: GBK and
 * CJK Extension A, kana, Hangul) for the rarer characters of a name. (Droid Sans
 * Fallback is not used: its composite glyphs come out blank from pdf-lib's subsetter.)
 */
type Fonts = { latin: PDFFont; cjk: PDFFont; cjkHas(cp: number): boolean; fallback: PDFFont | null; fallbackHas(cp: number): boolean };

/** Where a character is drawn: 0 Helvetica (printable ASCII), 1 the CJK font, 2 the fallback. */
type Slot = 0 | 1 | 2;

/**
 * The memos of text measurement, shared by every certificate drawn with the same faces: a
 * character's font, a text's width at a size, a sentence's lines at a size and width. They
 * depend only on the faces (never on a document), and a certificate measures the same
 * labels and sentences each time: measuring was a fifth of a certificate's CPU time.
 */
type Measures = { slots: Map<number, Slot>; widths: Map<string, number>; lines: Map<string, string[]>; runs: Map<string, Array<{ slot: Slot; text: string; width: number }>> };
const measuresByFaces = new Map<string, Measures>();
/** The most entries a memo keeps; past it, it starts over (names and values do not repeat much). */
const MEASURE_MEMO_LIMIT = 20_000;
function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= MEASURE_MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** Latin text in Helvetica/Courier as a hex string (WinAnsi codes): the same for every document. */
const standardHex = new Map<string, string>();

/** PDF number syntax (no exponent), 4 decimals at most: what a page's coordinates need. */
function num(n: number): string {
  const rounded = Math.round(n * 10_000) / 10_000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/**
 * Writes a page's text, QR code and links as one content stream of its own, in PDF syntax
 * directly: pdf-lib's drawText made ~10 operator objects per run of text (a certificate has
 * ~150 runs), validated its options and serialized them again at save.
 */
class Pen {
  private readonly ops: string[] = [];
  private readonly keys = new Map<PDFFont, string>();
  private readonly measures: Measures;
  private readonly doc: PDFDocument;
  private readonly page: PDFPage;
  private readonly mono: PDFFont;
  readonly fonts: Fonts;

  constructor(doc: PDFDocument, page: PDFPage, fonts: Fonts, mono: PDFFont, faces: string) {
    this.doc = doc;
    this.page = page;
    this.fonts = fonts;
    this.mono = mono;
    const key = `${faces}|${fonts.fallback ? 1 : 0}`;
    let measures = measuresByFaces.get(key);
    if (!measures) measuresByFaces.set(key, (measures = { slots: new Map(), widths: new Map(), lines: new Map(), runs: new Map() }));
    this.measures = measures;
  }

  /** The font for one character: ASCII in Helvetica, then the CJK font, then the fallback (when embedded). */
  slotOf(cp: number): Slot {
    let slot = this.measures.slots.get(cp);
    if (slot === undefined) {
      const { fonts } = this;
      slot = cp >= 0x20 && cp <= 0x7e ? 0 : fonts.cjkHas(cp) || !fonts.fallback || !fonts.fallbackHas(cp) ? 1 : 2;
      this.measures.slots.set(cp, slot);
    }
    return slot;
  }

  fontOf(slot: Slot): PDFFont {
    return slot === 0 ? this.fonts.latin : slot === 1 ? this.fonts.cjk : this.fonts.fallback!;
  }

  /** The width of `text` at `size`, each character in its font (as the page draws it). */
  widthOf(text: string, size: number): number {
    const key = `${size}|${text}`;
    let width = this.measures.widths.get(key);
    if (width === undefined) {
      width = 0;
      for (const ch of text) width += this.fontOf(this.slotOf(ch.codePointAt(0)!)).widthOfTextAtSize(ch, size);
      remember(this.measures.widths, key, width);
    }
    return width;
  }

  /**
   * Wraps a sentence to a width: Latin text breaks between words, CJK text between any two
   * characters (as those languages are typeset), never inside a Latin word.
   */
  wrap(text: string, size: number, width: number): string[] {
    const key = `${size}|${width}|${text}`;
    const known = this.measures.lines.get(key);
    if (known) return known;
    const tokens = text.match(/[\x21-\x7e]+|\s+|[^\s\x21-\x7e]/gu) ?? [];
    const lines: string[] = [];
    let line = '';
    for (const token of tokens) {
      if (!line && /^\s+$/.test(token)) continue;
      if (line && this.widthOf(line + token, size) > width) {
        lines.push(line.trimEnd());
        line = /^\s+$/.test(token) ? '' : token;
      } else line += token;
    }
    if (line.trim()) lines.push(line.trimEnd());
    return remember(this.measures.lines, key, lines);
  }

  /** Draws text in runs of one font each; returns where it ends. */
  mixed(text: string, x: number, y: number, size: number, color = INK): number {
    const key = `${size}|${text}`;
    let runs = this.measures.runs.get(key);
    if (!runs) {
      runs = [];
      let run = '';
      let runSlot: Slot | null = null;
      const flush = () => {
        if (run && runSlot !== null) runs!.push({ slot: runSlot, text: run, width: this.fontOf(runSlot).widthOfTextAtSize(run, size) });
        run = '';
      };
      for (const ch of text) {
        const slot = this.slotOf(ch.codePointAt(0)!);
        if (slot !== runSlot) flush();
        runSlot = slot;
        run += ch;
      }
      flush();
      remember(this.measures.runs, key, runs);
    }
    let at = x;
    for (const run of runs) {
      this.text(this.fontOf(run.slot), run.text, at, y, size, color);
      at += run.width;
    }
    return at;
  }

  /** One line of text in one font (as pdf-lib's drawText writes it, without its extra operators). */
  text(font: PDFFont, text: string, x: number, y: number, size: number, color = INK): void {
    let key = this.keys.get(font);
    if (key === undefined) this.keys.set(font, (key = this.page.node.newFontDictionary(font.name, font.ref).toString()));
    let hex: string | undefined;
    if (font === this.fonts.latin || font === this.mono) {
      const memoKey = `${font.name}|${text}`;
      hex = standardHex.get(memoKey);
      if (hex === undefined) remember(standardHex, memoKey, (hex = font.encodeText(text).toString()));
    } else hex = font.encodeText(text).toString();
    this.ops.push(`BT ${num(color.red)} ${num(color.green)} ${num(color.blue)} rg ${key} ${num(size)} Tf 1 0 0 1 ${num(x)} ${num(y)} Tm ${hex} Tj ET`);
  }

  /** Raw operators (already in PDF syntax), e.g. a cached QR code, placed with its lower left corner at (x, y). */
  placed(operators: string, x: number, y: number): void {
    this.ops.push(`q 1 0 0 1 ${num(x)} ${num(y)} cm\n${operators}\nQ`);
  }

  /** Adds what was written to the page, deflated, as a content stream after pdf-lib's own. */
  finish(): void {
    const stream = PDFRawStream.of(this.doc.context.obj({ Filter: 'FlateDecode' }), zlib.deflateSync(Buffer.from(`q\n${this.ops.join('\n')}\nQ\n`, 'latin1')));
    this.page.node.addContentStream(this.doc.context.register(stream));
  }
}

/**
 * Embeds the fonts a certificate needs; the fallback only when `texts` hold a character the
 * CJK font lacks. Each is the subset prepared for exactly the characters of `texts` it draws
 * (server/proofs/prepared-font.ts): made once, then copied into every certificate with the
 * same characters (an enterprise's certificates, a language's fixed text).
 */
async function embedFonts(doc: PDFDocument, locale: CertificateLocale, fontFile: string, fallbackFile: string | null, texts: string[]): Promise<Fonts> {
  const main = loadFont(fontFile);
  const fallback = fallbackFile && fs.existsSync(fallbackFile) ? loadFont(fallbackFile) : null;
  const { mainCodePoints, fallbackCodePoints } = codePointsOf(`${fontFile}\u0000${fallback ? fallbackFile : ''}`, locale, main, fallback, texts);
  return {
    latin: await doc.embedFont(StandardFonts.Helvetica),
    cjk: await embedPreparedFont(doc, cachingFontkit, main.bytes, String.fromCodePoint(...mainCodePoints)),
    cjkHas: main.hasGlyph,
    fallback: fallbackCodePoints.length > 0 ? await embedPreparedFont(doc, cachingFontkit, fallback!.bytes, String.fromCodePoint(...fallbackCodePoints)) : null,
    fallbackHas: fallback?.hasGlyph ?? (() => false),
  };
}

/** The fixed texts a certificate draws in all three languages (the others in a compact line or paragraph beside its own). */
const IN_EVERY_LANGUAGE = new Set<keyof typeof CERTIFICATE_TEXT>(['title', 'asset', 'fileHash', 'dna', 'enterprise', 'registeredAt', 'block', 'issuedAt', 'expiresAt', 'platformKey', 'howToCheck']);
/** Not drawn (the signature's /Reason is a text string of the signature dictionary; the size has no row of its own). */
const NOT_DRAWN = new Set<keyof typeof CERTIFICATE_TEXT>(['signatureReason', 'size']);

/** The fixed texts drawn on a certificate in `locale`: its labels and sentences, the other languages' beside them, the compact lines' separator. */
function fixedTexts(locale: CertificateLocale): string[] {
  const texts = [' · '];
  for (const [key, text] of Object.entries(CERTIFICATE_TEXT) as Array<[keyof typeof CERTIFICATE_TEXT, Trilingual]>) {
    if (NOT_DRAWN.has(key)) continue;
    if (IN_EVERY_LANGUAGE.has(key)) texts.push(...Object.values(text));
    else texts.push(text[locale]);
  }
  return texts;
}

/** Where each character of a language's fixed texts goes (the main CJK font or the fallback), by language and font pair: the same for every certificate. */
const fixedCodePoints = new Map<string, { main: Set<number>; fallback: Set<number> }>();

/**
 * The characters drawn in the CJK font and in the fallback, sorted (the keys of their
 * prepared subsets): those of the fixed texts (classified once per language and font pair) and those of
 * this certificate's own texts. ASCII is drawn in Helvetica; a character neither font has
 * goes to the main font (its .notdef glyph).
 */
function codePointsOf(pair: string, locale: CertificateLocale, main: LoadedFont, fallback: LoadedFont | null, texts: string[]): { mainCodePoints: number[]; fallbackCodePoints: number[] } {
  const isFallback = (cp: number) => fallback !== null && !main.hasGlyph(cp) && fallback.hasGlyph(cp);
  const classify = (from: Iterable<string>, into: { main: Set<number>; fallback: Set<number> }) => {
    for (const text of from) {
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        if ((cp >= 0x20 && cp <= 0x7e) || into.main.has(cp) || into.fallback.has(cp)) continue;
        (isFallback(cp) ? into.fallback : into.main).add(cp);
      }
    }
  };
  let fixed = fixedCodePoints.get(`${locale}\u0000${pair}`);
  if (!fixed) {
    fixed = { main: new Set(), fallback: new Set() };
    classify(fixedTexts(locale), fixed);
    fixedCodePoints.set(`${locale}\u0000${pair}`, fixed);
  }
  const all = { main: new Set(fixed.main), fallback: new Set(fixed.fallback) };
  classify(texts, all);
  const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
  return { mainCodePoints: sorted(all.main), fallbackCodePoints: sorted(all.fallback) };
}

/** Splits a long token (hashes) into lines that fit the width (a monospaced font: no kerning between characters). */
function wrapToken(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const ch of text) {
    const w = font.widthOfTextAtSize(ch, size);
    if (lineWidth + w > width) {
      lines.push(line);
      line = '';
      lineWidth = 0;
    }
    line += ch;
    lineWidth += w;
  }
  if (line) lines.push(line);
  return lines;
}

/** The QR codes drawn so far, by address and size (one verification address per deployment). */
const qrMemo = new Map<string, string>();

/**
 * The QR code of `url`, `size` points wide with its lower left corner at the origin, as content
 * stream operators: one filled path of a rectangle per run of dark modules in a row. Made once
 * per address (choosing the mask pattern alone was a twentieth of a certificate's time).
 */
function qrOperators(url: string, size: number): string {
  const key = `${size}|${url}`;
  let ops = qrMemo.get(key);
  if (ops === undefined) {
    const qr = qrcode(0, 'M');
    qr.addData(url);
    qr.make();
    const modules = qr.getModuleCount();
    const cell = size / modules;
    const parts = [`${num(INK.red)} ${num(INK.green)} ${num(INK.blue)} rg`];
    for (let r = 0; r < modules; r++) {
      for (let c = 0; c < modules; c++) {
        if (!qr.isDark(r, c)) continue;
        const start = c;
        while (c + 1 < modules && qr.isDark(r, c + 1)) c++;
        parts.push(`${num(start * cell)} ${num((modules - 1 - r) * cell)} ${num((c - start + 1) * cell + 0.05)} ${num(cell + 0.05)} re`);
      }
    }
    parts.push('f');
    if (qrMemo.size >= 64) qrMemo.clear();
    qrMemo.set(key, (ops = parts.join('\n')));
  }
  return ops;
}

function formatTime(ms: number): string {
  const beijing = new Date(ms + 8 * 60 * 60 * 1000).toISOString().replace('T', ' ').slice(0, 19);
  return `${beijing} (UTC+8)`;
}

/** The asset row's value: its name, kind and size. */
function assetLine(asset: CertificateAsset, locale: CertificateLocale): string {
  const kind = asset.type[locale];
  const size = asset.size === null ? '' : ` · ${formatSize(asset.size, locale)}`;
  return locale === 'en' ? `${asset.name} (${kind}${size})` : `${asset.name}（${kind}${size}）`;
}

export type CertificateAsset = {
  name: string;
  type: Trilingual;
  size: number | null;
  /** More rows under the asset (a commit's project, id, tree digest and author time). */
  details?: Array<{ label: Trilingual; value: string; isMono: boolean }>;
};

export type CertificateInput = {
  pkg: ProofPackage;
  verifyUrl: string;
  fontFile: string;
  fallbackFontFile?: string | null;
  /** The registrant's language: labels and explanations in it, the other two as compact lines. */
  locale?: CertificateLocale;
  /** What was registered, when the ledger entry belongs to an asset or a vault file. */
  asset?: CertificateAsset | null;
  /** The platform's proof-signing and time-stamping keys: with them the page is signed (PAdES B-LT). */
  signing?: PadesKeys | null;
};

/**
 * Renders the certificate: what is proven, by whom, since when and how to check it, in the
 * registrant's language with the other two beside it; a QR code and the address of the
 * verification page; the gzip'd package attached for offline checks.
 */
export async function renderCertificate(input: CertificateInput): Promise<Uint8Array> {
  const { signing = null, ...page } = input;
  const prepared = await renderPreparedCertificate(page, signing ? padesCertificates(signing) : null);
  return signing ? signPreparedPdf(prepared, signing, new Date(input.pkg.statement.issued_at)) : prepared;
}

/** What renders a certificate's page: everything but the keys (a render worker gets it by message). */
export type PageInput = Omit<CertificateInput, 'signing'>;

/**
 * The certificate's page, saved: unsigned when `certificates` is null; otherwise with the
 * DSS (these certificates) and an empty signature field dated at the statement's issue
 * time, ready for `signPreparedPdf` with the keys of those certificates. Needs no key, so
 * it runs in a render worker (server/proofs/render-pool.ts) while the keys stay here.
 */
export async function renderPreparedCertificate({ pkg, verifyUrl, fontFile, fallbackFontFile = null, locale = 'zh', asset = null }: PageInput, certificates: Uint8Array[] | null): Promise<Uint8Array> {
  const record = parseRecord(pkg.record);
  if (!record) throw new Error('package record is not canonical');
  const T = CERTIFICATE_TEXT;
  const others = otherLocales(locale);
  const compact = (text: Trilingual) => others.map((l) => text[l]).join(' · ');
  const assetRow = asset ? assetLine(asset, locale) : null;
  // The texts of this certificate drawn in the CJK fonts besides the fixed texts (values in Latin letters and digits are drawn in Helvetica or Courier).
  const ownTexts = [record.enterprise_name, assetRow ?? '', ...(asset?.details ?? []).flatMap((d) => [d.value, ...Object.values(d.label)])];
  const doc = await PDFDocument.create();
  deflateNatively(doc);
  doc.registerFontkit(cachingFontkit);
  const fonts = await embedFonts(doc, locale, fontFile, fallbackFontFile, ownTexts);
  const mono = await doc.embedFont(StandardFonts.Courier);
  doc.setTitle(`${T.title[locale]} ${pkg.asset_dna}`);
  doc.setSubject(`${T.title.zh} / ${T.title.en} / ${T.title.ja}`);
  doc.setLanguage(locale === 'zh' ? 'zh-CN' : locale);
  doc.setProducer('Provena');
  doc.setCreator('Provena');
  doc.setCreationDate(new Date(pkg.statement.issued_at));
  doc.setModificationDate(new Date(pkg.statement.issued_at));

  const page = doc.addPage([595.28, 841.89]);
  const { width, height } = page.getSize();
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: ACCENT, borderWidth: 1.5 });
  page.drawRectangle({ x: 30, y: 30, width: width - 60, height: height - 60, borderColor: ACCENT, borderWidth: 0.5 });

  let y = height - 84;
  const pen = new Pen(doc, page, fonts, mono, `${fontFile}|${fallbackFontFile ?? ''}`);
  const centered = (text: string, size: number, color = INK) => pen.mixed(text, (width - pen.widthOf(text, size)) / 2, y, size, color);
  centered(T.title[locale], 24);
  y -= 20;
  centered(compact(T.title), 10, MUTED);
  y -= 32;

  const left = 60;
  const valueX = 210;
  const valueWidth = width - valueX - 60;
  const row = (label: Trilingual, value: string, isMono: boolean) => {
    pen.mixed(label[locale], left, y, 10.5);
    const small = pen.wrap(compact(label), 7, valueX - left - 10);
    small.forEach((line, i) => pen.mixed(line, left, y - 11 - i * 9, 7, MUTED));
    const lines = isMono ? wrapToken(value, mono, 9.5, valueWidth) : pen.wrap(value, 10.5, valueWidth);
    lines.forEach((line, i) => {
      if (isMono) pen.text(mono, line, valueX, y - i * 13, 9.5, INK);
      else pen.mixed(line, valueX, y - i * 13, 10.5);
    });
    y -= Math.max(22 + small.length * 9, lines.length * 13 + 14);
  };
  if (asset) {
    row(T.asset, assetRow!, false);
    for (const d of asset.details ?? []) row(d.label, d.value, d.isMono);
  }
  row(T.fileHash, pkg.file_hash, true);
  row(T.dna, pkg.asset_dna, true);
  row(T.enterprise, record.enterprise_name, false);
  row(T.registeredAt, formatTime(record.registered_at), false);
  row(T.block, `#${pkg.block.header.height}  ${pkg.block.hash}`, true);
  row(T.issuedAt, formatTime(pkg.statement.issued_at), false);
  row(T.expiresAt, formatTime(pkg.statement.expires_at), false);
  row(T.platformKey, pkg.platform_key.key_id, true);

  // What it proves and how to check it, in the registrant's language; how to check also in the other two.
  const qrSize = 104;
  const textWidth = width - left - 60 - qrSize - 20;
  y -= 4;
  const paragraph = (text: string, size: number, color = INK, maxWidth = textWidth) => {
    for (const line of pen.wrap(text, size, maxWidth)) {
      pen.mixed(line, left, y, size, color);
      y -= size + 4;
    }
    y -= 3;
  };
  const qrTop = y;
  paragraph(T.proves[locale], 9);
  paragraph(T.notProves[locale], 8.5, MUTED);
  paragraph(T.howToCheck[locale], 9);
  for (const other of others) paragraph(T.howToCheck[other], 7, MUTED);
  paragraph(T.offline[locale], 7.5, MUTED);

  // QR code to the verification page, beside the explanation.
  const qrX = width - 60 - qrSize;
  const qrY = qrTop - qrSize + 8;
  pen.placed(qrOperators(verifyUrl, qrSize), qrX, qrY);
  const scan = `${T.scan[locale]}`;
  pen.mixed(scan, qrX + (qrSize - pen.widthOf(scan, 8.5)) / 2, qrY - 13, 8.5, MUTED);

  y = Math.min(y, qrY - 28);
  const link = (label: Trilingual, url: string) => {
    const labelEnd = pen.mixed(`${label[locale]}: `, left, y, 8.5, MUTED);
    pen.text(fonts.latin, url, labelEnd, y, 8, LINK);
    addLink(doc, page, url, { x: labelEnd, y: y - 2, width: fonts.latin.widthOfTextAtSize(url, 8), height: 10 });
    y -= 14;
  };
  link(T.verifyAt, verifyUrl);
  link(T.explorer, pkg.explorer_url);
  pen.finish();

  await doc.attach(await encodePackage(pkg), PACKAGE_ATTACHMENT_NAME, {
    mimeType: 'application/gzip',
    description: 'Provena proof package (provena-proof, gzip JSON)',
    creationDate: new Date(pkg.statement.issued_at),
    modificationDate: new Date(pkg.statement.issued_at),
  });
  if (certificates) preparePades(doc, certificates, new Date(pkg.statement.issued_at), { reason: T.signatureReason[locale], location: new URL(pkg.explorer_url).host, name: 'Provena' });
  deflateContentStreams(doc);
  return doc.save({ useObjectStreams: false });
}

/**
 * Signs a certificate rendered before pages were signed, as it is: the same page, now
 * with the platform's PAdES signature over the whole file (time-stamped now).
 */
export async function signExistingCertificate(pdf: Uint8Array, signing: PadesKeys, locale: CertificateLocale, host: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const at = new Date();
  preparePades(doc, padesCertificates(signing), at, { reason: CERTIFICATE_TEXT.signatureReason[locale], location: host, name: 'Provena' });
  return signPreparedPdf(await doc.save({ useObjectStreams: false }), signing, at);
}

/**
 * This document's streams are compressed by Node's zlib instead of pako, pdf-lib's pure
 * JavaScript deflate (the same format, level 6 both; pako was a tenth of a certificate's
 * CPU time). The font files, their CMaps and the attachment go through
 * `context.flateStream`, overridden here on this document's context only; the page's
 * content streams are deflated lazily by pdf-lib at save time, so `deflateContentStreams`
 * swaps them for their compressed bytes just before saving.
 */
function deflateNatively(doc: PDFDocument): void {
  const context = doc.context;
  context.flateStream = (contents, dict = {}) => context.stream(zlib.deflateSync(typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents), { ...dict, Filter: 'FlateDecode' });
}

/** Every content stream pdf-lib would deflate at save, deflated by zlib now (its dictionary already says FlateDecode). */
function deflateContentStreams(doc: PDFDocument): void {
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFContentStream) || !(object as unknown as { encode: boolean }).encode) continue;
    doc.context.assign(ref, PDFRawStream.of(object.dict, zlib.deflateSync(object.getUnencodedContents())));
  }
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
