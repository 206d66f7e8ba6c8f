import { PACKAGE_ATTACHMENT_NAME } from '../../core/ledger/package.ts';

/**
 * Reads the proof package attachment with pdf.js (the same library the browser worker
 * uses), in Node. Throws when the bytes are not a readable PDF; null when no package.
 */
export async function extractPackageNode(pdf: Uint8Array): Promise<Uint8Array | null> {
  // pdf.js in Node runs its worker code on this thread and imports the worker module itself at
  // the first document; handing it over through its documented hook is the same, and lets the
  // packed CLI's bundle carry the module in a chunk loaded only when a proof is read.
  const hook = globalThis as { pdfjsWorker?: unknown };
  hook.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  // pdf.js is loaded at the first proof read, not with the server: its ~1 MB of source and what it
  // compiles would otherwise sit in the API's heap, and every full garbage collection walks it.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, disableFontFace: true, verbosity: 0, stopAtErrors: true });
  const doc = await task.promise;
  try {
    // pdf.js 6: a Map of metadata; the bytes come separately, by id, when not inline.
    const attachments = await doc.getAttachments();
    for (const [id, a] of attachments ?? []) {
      if (a.filename !== PACKAGE_ATTACHMENT_NAME) continue;
      return a.content ?? (await doc.getAttachmentContent(id));
    }
    return null;
  } finally {
    await task.destroy();
  }
}
