import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';
import type { ObjectDriver } from '../storage/drivers.ts';
import { isProofStatusGenerated } from '../../core/vault.ts';

/**
 * Certificate PDFs live in the object store (STORAGE_URL, or DATA_DIR/blobs/objects), one
 * object per certificate generation; the `proofs` row names the object and records its size
 * and SHA-256, which every read checks. Rows written before migration 0036 keep the bytes in
 * their `pdf` column until the backfill (ProofJobs) moves them.
 */

/** `proofs/<dna>/<generation>.pdf`; a certificate signed in place later gets `-signed` before `.pdf`. */
export const proofPdfKeyOf = (dna: string, generation: number, variant: '' | '-signed' = '') => `proofs/${dna}/${generation}${variant}.pdf`;

/** What a `proofs` row records about its certificate's object. */
export type StoredProofPdf = { pdf_key: string; pdf_size: number; pdf_sha256: string };

/** The columns a read needs. */
export type ProofPdfColumns = { pdf: Uint8Array | null; pdf_key: string | null; pdf_size: number | string | null; pdf_sha256: string | null };

export const PROOF_PDF_COLUMNS = ['pdf', 'pdf_key', 'pdf_size', 'pdf_sha256'] as const;

/**
 * The stored object is not the certificate its row records (missing, another size, another
 * hash): it is never served. A server fault, not the caller's: answered 500, logged with this message.
 */
export class ProofPdfIntegrityError extends Error {
  readonly statusCode = 500;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes the certificate's object and returns what its row must record. The caller updates the
 * row only after this resolves: a crash in between leaves an object nothing points at, never a
 * row pointing at nothing.
 */
export async function putProofPdf(storage: ObjectDriver, key: string, bytes: Uint8Array): Promise<StoredProofPdf> {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await storage.put(key, Readable.from([body]));
  return { pdf_key: key, pdf_size: body.length, pdf_sha256: sha256Hex(body) };
}

/**
 * The certificate bytes a row records: its object, checked against the recorded size and
 * SHA-256 (never read past the recorded size), or the legacy `pdf` column. Null when the row
 * has neither.
 */
export async function readProofPdfOf(storage: ObjectDriver, row: ProofPdfColumns): Promise<Buffer | null> {
  if (row.pdf_key === null) return row.pdf ? Buffer.from(row.pdf) : null;
  const key = row.pdf_key;
  const size = Number(row.pdf_size);
  const stream = await storage.get(key);
  if (!stream) throw new ProofPdfIntegrityError(`certificate object ${key} is missing from the object store`);
  const parts: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const part = chunk as Buffer;
      length += part.length;
      if (length > size) break;
      parts.push(part);
    }
  } finally {
    stream.destroy();
  }
  if (length !== size) throw new ProofPdfIntegrityError(`certificate object ${key} holds ${length > size ? `more than ${size}` : length} bytes, its record says ${size}: not served`);
  const bytes = Buffer.concat(parts, length);
  const digest = sha256Hex(bytes);
  if (digest !== row.pdf_sha256) throw new ProofPdfIntegrityError(`certificate object ${key} has SHA-256 ${digest}, its record says ${row.pdf_sha256}: not served`);
  return bytes;
}

/**
 * The certificate PDF of `dna` once it is generated (status 5 or 6), else null (routes answer
 * §8 proof_record_not_found). Throws ProofPdfIntegrityError when the stored object does not
 * match its record. Every download route reads certificates through this.
 */
export async function readProofPdf(db: Db, storage: ObjectDriver, dna: string): Promise<Buffer | null> {
  const row = await db.selectFrom('proofs').select(['status', ...PROOF_PDF_COLUMNS]).where('dna', '=', dna).executeTakeFirst();
  if (!row || !isProofStatusGenerated(row.status)) return null;
  return readProofPdfOf(storage, row);
}
