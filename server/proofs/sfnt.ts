/**
 * One face of a TrueType Collection (.ttc) as a standalone .ttf: pdf-lib embeds single
 * fonts only, and the wide-coverage CJK fonts Debian ships (WenQuanYi Zen Hei) are
 * collections. Tables are copied as they are (checksums do not depend on position), each
 * 4-byte aligned, with the directory's offsets rewritten. A plain .ttf is returned as is.
 */
export function sfntFace(bytes: Uint8Array, index = 0): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = String.fromCharCode(...bytes.subarray(0, 4));
  if (tag !== 'ttcf') return bytes;
  const numFonts = view.getUint32(8);
  if (index < 0 || index >= numFonts) throw new RangeError(`font collection has ${numFonts} faces, not ${index + 1}`);
  const face = view.getUint32(12 + 4 * index);
  const numTables = view.getUint16(face + 4);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = face + 12 + 16 * i;
    return { record: at, offset: view.getUint32(at + 8), length: view.getUint32(at + 12) };
  });
  const headerLength = 12 + 16 * numTables;
  const align = (n: number) => (n + 3) & ~3;
  const total = tables.reduce((sum, t) => sum + align(t.length), headerLength);
  if (tables.some((t) => t.offset + t.length > bytes.byteLength)) throw new RangeError('font collection table lies outside the file');
  const out = new Uint8Array(total);
  const outView = new DataView(out.buffer);
  out.set(bytes.subarray(face, face + 12), 0);
  let at = headerLength;
  tables.forEach((t, i) => {
    out.set(bytes.subarray(t.record, t.record + 16), 12 + 16 * i);
    outView.setUint32(12 + 16 * i + 8, at);
    out.set(bytes.subarray(t.offset, t.offset + t.length), at);
    at += align(t.length);
  });
  return out;
}
