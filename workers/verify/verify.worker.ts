/// <reference lib="webworker" />
import { expose } from 'comlink';
import { getDocument } from 'pdfjs-dist';
import { WorkerMessageHandler } from 'pdfjs-dist/build/pdf.worker.min.mjs';
import { sha256 } from '@noble/hashes/sha2.js';
import { PACKAGE_ATTACHMENT_NAME, verifyCertificate, type Verdict } from '../../core/ledger/package.ts';
import { toHex } from '../../core/ledger/bytes.ts';
import { HASH_CHUNK_BYTES } from '../../core/constants.ts';

// pdf.js's document reader runs in this worker, loaded with it (so verification needs no
// network): pdf.js uses a main-thread handler it finds on globalThis instead of starting a
// worker of its own. Reading the attachment is a few messages; between two threads each one
// waited for the other thread to be scheduled (15-50 ms a proof on a loaded machine), in
// one thread they are microtasks.
(globalThis as { pdfjsWorker?: { WorkerMessageHandler: unknown } }).pdfjsWorker = { WorkerMessageHandler };

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

/** Pins: platform key ids and platform root fingerprints (either may be absent: not pinned). */
export type Trust = { keyIds?: string[]; rootFingerprints?: string[] };

export const api = {
  /** Answers once the worker (and pdf.js's) are up. */
  async ping(): Promise<boolean> {
    return true;
  },

  /**
   * Streams a file through SHA-256 in §9 chunks: the fallback used when the page is
   * offline and the hash service's workers (started on demand) cannot be fetched.
   */
  async sha256File(file: File, onProgress?: (bytes: number) => void): Promise<string> {
    const hash = sha256.create();
    for (let at = 0; at < file.size; at += HASH_CHUNK_BYTES) {
      hash.update(new Uint8Array(await file.slice(at, at + HASH_CHUNK_BYTES).arrayBuffer()));
      onProgress?.(Math.min(file.size, at + HASH_CHUNK_BYTES));
    }
    return toHex(hash.digest());
  },

  /** Every check of "original + PDF proof" except hashing the original (the hash service does that). */
  async verify(pdf: ArrayBuffer, fileSha256: string, now: number, trust: Trust): Promise<Verdict & { ms: number }> {
    const started = performance.now();
    const verdict = await verifyCertificate(new Uint8Array(pdf), extractPackage, { fileSha256, now, trustedKeyIds: trust.keyIds, trustedRootFingerprints: trust.rootFingerprints });
    return { ...verdict, ms: performance.now() - started };
  },
};

export type VerifyWorkerApi = typeof api;
expose(api);
