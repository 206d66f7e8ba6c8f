import type { Kysely } from 'kysely';

/**
 * Certificate PDFs in the object store (STORAGE_URL), not in the `proofs` row: the row keeps
 * the object's key (`proofs/<dna>/<generation>.pdf`), its size and SHA-256, which every read
 * checks. `pdf` stays for rows written before this migration until the backfill moves them.
 */
export function proofPdfObjects() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('proofs').addColumn('pdf_key', 'text').execute();
      await db.schema.alterTable('proofs').addColumn('pdf_size', 'integer').execute();
      await db.schema.alterTable('proofs').addColumn('pdf_sha256', 'text').execute();
    },
  };
}
