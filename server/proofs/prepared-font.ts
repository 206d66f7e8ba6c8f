/**
 * A CJK font subset made once and copied into every certificate that can use it.
 *
 * pdf-lib subsets an embedded TrueType font per document: each certificate laid its ~250
 * glyphs into a fresh fontkit subset, encoded it (glyf, loca, hmtx… table by table), deflated
 * it and wrote its widths and ToUnicode CMap: a fifth of a signed certificate's CPU time.
 * Yet a certificate's glyphs are nearly all the same: its fixed text in three languages, plus
 * the characters of its enterprise name and asset name, which repeat across an enterprise's
 * certificates. So a subset is prepared once per glyph set (its characters, sorted, are the
 * key; a small LRU keeps the last few) and each document gets:
 * - the same objects, copied: the Type0 font, its CIDFont (widths), descriptor, the font file
 *   (already encoded and deflated) and the ToUnicode CMap (already deflated);
 * - text encoded with the prepared subset's glyph ids, widths measured by the same parsed
 *   face; the shared embedder is only read, never written, after it is prepared.
 * A glyph the prepared subset lacks (a caller drawing text it did not announce) falls back to
 * this document's own subset, begun with the prepared glyphs in the same order (so text
 * already encoded keeps its ids): slower, never wrong.
 */
import zlib from 'node:zlib';
import { CustomFontSubsetEmbedder, PDFContext, PDFDict, PDFFont, PDFHexString, PDFObjectCopier, PDFRef, type PDFDocument } from 'pdf-lib';
import type fontkit from '@pdf-lib/fontkit';

type Glyph = { id: number };
/** The parts of pdf-lib's subset embedder used here (its TypeScript declarations keep them private). */
type SubsetEmbedder = {
  fontName: string;
  font: { layout(text: string, features?: unknown): { glyphs: Glyph[] } };
  fontFeatures: unknown;
  glyphIdMap: Map<number, number>;
  baseFontName: string;
  encodeText(text: string): PDFHexString;
  embedIntoContext(context: PDFContext, ref?: PDFRef): Promise<PDFRef>;
};

type Prepared = {
  /** The embedder that made the subset: measures text (read only) and is the prototype of each document's. */
  embedder: SubsetEmbedder;
  /** The characters it was made for, in the order their glyphs entered the subset. */
  text: string;
  /** The Type0 font dictionary and the objects under it, in a context of their own. */
  context: PDFContext;
  fontDict: PDFDict;
};

/** Prepared subsets kept per face (least recently used dropped first). */
const PREPARED_LIMIT = 64;
const preparedByFace = new WeakMap<Uint8Array, Map<string, Promise<Prepared>>>();

/** How many subsets were prepared (cache misses), for tests and the bench. */
export const preparedFontStats = { prepared: 0, reused: 0, fellBack: 0 };

/** A subset's name: six capitals from the glyph set (PDF 32000 §9.6.4), then the face's PostScript name. */
function subsetTag(key: string): string {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++, h = Math.floor(h / 26)) tag += String.fromCharCode(65 + (h % 26));
  return tag;
}

async function prepare(kit: typeof fontkit, bytes: Uint8Array, text: string): Promise<Prepared> {
  const embedder = (await CustomFontSubsetEmbedder.for(kit, bytes)) as unknown as SubsetEmbedder;
  embedder.encodeText(text);
  const context = PDFContext.create();
  context.flateStream = (contents, dict = {}) => context.stream(zlib.deflateSync(typeof contents === 'string' ? Buffer.from(contents, 'latin1') : contents), { ...dict, Filter: 'FlateDecode' });
  const ref = context.nextRef();
  // A fixed, content-derived subset name (pdf-lib draws a pseudo-random one per document).
  (embedder as unknown as { customName: string }).customName = `${subsetTag(text)}+${embedder.fontName}`;
  await embedder.embedIntoContext(context, ref);
  preparedFontStats.prepared++;
  return { embedder, text, context, fontDict: context.lookup(ref, PDFDict) };
}

/** The prepared subset of `bytes` for exactly these characters (made now, or reused). */
function preparedFor(kit: typeof fontkit, bytes: Uint8Array, chars: string): Promise<Prepared> {
  let cache = preparedByFace.get(bytes);
  if (!cache) preparedByFace.set(bytes, (cache = new Map()));
  let prepared = cache.get(chars);
  if (prepared) {
    cache.delete(chars);
    preparedFontStats.reused++;
  } else {
    prepared = prepare(kit, bytes, chars);
    prepared.catch(() => cache.delete(chars));
    if (cache.size >= PREPARED_LIMIT) cache.delete(cache.keys().next().value!);
  }
  cache.set(chars, prepared);
  return prepared;
}

/**
 * Embeds the face `bytes` in `doc` as the prepared subset for the characters `chars` (distinct,
 * sorted by code point: the key of the subset): what pdf-lib's `doc.embedFont(bytes, { subset: true })` gives, for the
 * price of copying five objects when the same set was prepared before.
 */
export async function embedPreparedFont(doc: PDFDocument, kit: typeof fontkit, bytes: Uint8Array, chars: string): Promise<PDFFont> {
  const prepared = await preparedFor(kit, bytes, chars);
  const shared = prepared.embedder;
  const embedder = Object.create(shared) as SubsetEmbedder;
  let own: SubsetEmbedder | null = null;
  embedder.encodeText = (text: string) => {
    if (own) return own.encodeText(text);
    const glyphs = shared.font.layout(text, shared.fontFeatures).glyphs;
    let hex = '';
    for (const glyph of glyphs) {
      const id = shared.glyphIdMap.get(glyph.id);
      if (id === undefined) return ownSubset().encodeText(text);
      hex += id.toString(16).padStart(4, '0');
    }
    return PDFHexString.of(hex);
  };
  const ownSubset = () => {
    preparedFontStats.fellBack++;
    // This document's own subset (pdf-lib's constructor, private in its declarations), first the prepared glyphs in their order.
    const Embedder = CustomFontSubsetEmbedder as unknown as new (font: unknown, fontData: Uint8Array, customName?: string, fontFeatures?: unknown) => SubsetEmbedder;
    own = new Embedder(shared.font, bytes, undefined, shared.fontFeatures);
    own.encodeText(prepared.text);
    return own;
  };
  embedder.embedIntoContext = async (context: PDFContext, ref?: PDFRef) => {
    if (own) return own.embedIntoContext(context, ref);
    const copy = PDFObjectCopier.for(prepared.context, context).copy(prepared.fontDict);
    if (ref) {
      context.assign(ref, copy);
      return ref;
    }
    return context.register(copy);
  };
  const ref = doc.context.nextRef();
  const font = PDFFont.of(ref, doc, embedder as unknown as CustomFontSubsetEmbedder);
  (doc as unknown as { fonts: PDFFont[] }).fonts.push(font);
  return font;
}
