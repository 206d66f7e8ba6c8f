/// <reference lib="webworker" />
import { expose } from 'comlink';
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { PACKAGE_ATTACHMENT_NAME, verifyCertificate, type Verdict } from '../../core/ledger/package.ts';

GlobalWorkerOptions.workerSrc = pdfWorkerUrl;

/** Reads the proof package attachment with pdf.js; throws when the PDF cannot be parsed. */
async function extractPackage(pdf: Uint8Array): Promise<Uint8Array | null> {
  const task = getDocument({ data: pdf, disableFontFace: true, verbosity: 0, stopAtErrors: true });
  const doc = await task.promise;
  try {
    const attachments = await doc.getAttachments();
    for (const [id, a] of attachments ?? []) {
      if (a.filename === PACKAGE_ATTACHMENT_NAME) return a.content ?? (await doc.getAttachmentContent(id));
    }
    return null;
  } finally {
    await task.destroy();
  }
}

export const api = {
  /** Every check of "original + PDF proof" except hashing the original (the hash service does that). */
  async verify(pdf: ArrayBuffer, fileSha256: string, now: number, trustedKeyIds: string[] | undefined): Promise<Verdict & { ms: number }> {
    const started = performance.now();
    const verdict = await verifyCertificate(new Uint8Array(pdf), extractPackage, { fileSha256, now, trustedKeyIds });
    return { ...verdict, ms: performance.now() - started };
  },
};

export type VerifyWorkerApi = typeof api;
expose(api);
