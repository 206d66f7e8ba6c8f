import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';
import type { ObjectDriver } from '../storage/drivers.ts';
import { isProofStatusGenerated } from '../../core/vault.ts';
import { ApiError } from '../errors.ts';

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
 * hash): it is never served. A server fault, not the caller's: answered 500 with its own §8 key
 * `proof_certificate_damaged` (not the generic "server error"), logged with this message (the
 * reason), and, when the row is known, the certificate is queued to be rendered again
 * (queueProofPdfRepair; the error handler does it).
 */
export class ProofPdfIntegrityError extends ApiError {
  readonly statusCode = 500;
  readonly reason: string;
  /** The certificate concerned, when the read knew it (readProofPdf). */
  readonly proof: { dna: string; generation: number } | null;
  constructor(reason: string, proof: { dna: string; generation: number } | null = null) {
    super('proof_certificate_damaged', undefined, 500);
    this.message = reason;
    this.reason = reason;
    this.proof = proof;
  }
}

/**
 * A damaged certificate is rendered again: its row (still at the generation that was damaged,
 * and generated) goes back to `sealed`, where the certificate job takes it; the new object
 * replaces the damaged one under the same key. The entry and its block are in the ledger, so
 * the certificate can always be issued again. False when the row moved on meanwhile (already
 * queued, regenerated): nothing to do.
 */
export async function queueProofPdfRepair(db: Db, proof: { dna: string; generation: number }): Promise<boolean> {
  const r = await db
    .updateTable('proofs')
    .set({ status: 2 /* sealed: waiting for its certificate (server/proofs/jobs.ts PROOF_STATUS) */, error: null, updated_at: Date.now() })
    .where('dna', '=', proof.dna)
    .where('generation', '=', proof.generation)
    .where('status', 'in', [5, 6])
    .where('pdf_key', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
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
export async function readProofPdfOf(storage: ObjectDriver, row: ProofPdfColumns, proof: { dna: string; generation: number } | null = null): Promise<Buffer | null> {
  if (row.pdf_key === null) return row.pdf ? Buffer.from(row.pdf) : null;
  const key = row.pdf_key;
  const size = Number(row.pdf_size);
  const stream = await storage.get(key);
  if (!stream) throw new ProofPdfIntegrityError(`certificate object ${key} is missing from the object store`, proof);
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
  if (length !== size) throw new ProofPdfIntegrityError(`certificate object ${key} holds ${length > size ? `more than ${size}` : length} bytes, its record says ${size}: not served`, proof);
  const bytes = Buffer.concat(parts, length);
  const digest = sha256Hex(bytes);
  if (digest !== row.pdf_sha256) throw new ProofPdfIntegrityError(`certificate object ${key} has SHA-256 ${digest}, its record says ${row.pdf_sha256}: not served`, proof);
  return bytes;
}

/**
 * The certificate PDF of `dna` once it is generated (status 5 or 6), else null (routes answer
 * §8 proof_record_not_found). Throws ProofPdfIntegrityError when the stored object does not
 * match its record. Every download route reads certificates through this.
 */
export async function readProofPdf(db: Db, storage: ObjectDriver, dna: string): Promise<Buffer | null> {
  const row = await db.selectFrom('proofs').select(['status', 'generation', ...PROOF_PDF_COLUMNS]).where('dna', '=', dna).executeTakeFirst();
  if (!row || !isProofStatusGenerated(row.status)) return null;
  return readProofPdfOf(storage, row, { dna, generation: Number(row.generation) });
}

type Logger = { error(obj: object, msg?: string): void };

/**
 * Deletes an object no row points at any more: the one a row pointed at before an update that
 * replaced it, or the one just written when the update found the row changed (regenerated
 * meanwhile). Never the key the row now holds; a failure only leaves an orphan, logged.
 */
export async function dropReplacedProofPdf(storage: ObjectDriver, log: Logger, key: string | null, current: string): Promise<void> {
  if (key === null || key === current) return;
  await storage.remove(key).catch((error: unknown) => log.error({ err: error, key }, 'a replaced certificate object could not be deleted'));
}

/**
 * The backfill of migration 0036, one batch: certificates still in a row's `pdf` column (written
 * before certificates went to the object store) are written to the store, then the row records
 * the object and its column is emptied. Idempotent: a crash between the write and the row update
 * leaves the row as it was, and the next batch writes the same key again. The certificate job
 * (ProofJobs) runs batches in each process until one finds the column empty, so an upgraded
 * deployment empties it as its workers start. Returns the rows moved.
 */
export async function moveLegacyProofPdfs(db: Db, storage: ObjectDriver, log: Logger, limit = 20): Promise<number> {
  // Unsigned certificates (page_signed 0) are left to the job's signing pass, which stores its signed copy.
  const rows = await db.selectFrom('proofs').select(['dna', 'generation', 'pdf', 'pdf_key']).where('pdf', 'is not', null).where('page_signed', '!=', 0).limit(limit).execute();
  for (const row of rows) {
    const stored = await putProofPdf(storage, proofPdfKeyOf(row.dna, row.generation), new Uint8Array(row.pdf!));
    const r = await db.updateTable('proofs').set({ pdf: null, ...stored }).where('dna', '=', row.dna).where('generation', '=', row.generation).where('pdf', 'is not', null).executeTakeFirst();
    await dropReplacedProofPdf(storage, log, Number(r.numUpdatedRows) > 0 ? row.pdf_key : stored.pdf_key, stored.pdf_key);
  }
  return rows.length;
}
