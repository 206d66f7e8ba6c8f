/**
 * Content-Disposition for every download. A name a user chose (a disclosed file's name)
 * must not carry characters that change how it reads: C0/C1 controls and DEL (header
 * injection, truncation), bidirectional overrides, embeddings, isolates and marks (U+202E
 * turns "gpj.exe" into "exe.jpg" on screen), line and paragraph separators, zero-width
 * characters and the BOM. They are removed from both the plain `filename` and `filename*`.
 */
// oxlint-disable-next-line no-misleading-character-class -- the variation selectors (U+FE00–FE0F) are in the class to be removed, not to combine
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]/gu;

/** The name with unsafe characters removed and surrounding space trimmed; `fallback` when nothing is left. */
export function safeFilename(name: string, fallback = 'file'): string {
  const clean = name.normalize('NFC').replace(UNSAFE, '').replace(/[/\\]/g, '_').trim();
  return clean || fallback;
}

/** RFC 5987 value: percent-encodes everything outside attr-char (encodeURIComponent leaves ' ( ) * ! alone). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `attachment` (or `inline`) with an ASCII `filename`, and the UTF-8 `filename*` (RFC 6266)
 * when the ASCII form had to change the name.
 */
export function contentDisposition(filename: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const safe = safeFilename(filename);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === safe) return `${disposition}; filename="${ascii}"`;
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(safe)}`;
}
