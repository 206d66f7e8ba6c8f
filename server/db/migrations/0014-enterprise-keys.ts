import { sql, type Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Enterprise keys in the platform's custody (§3 private_key_status): the
 * platform's issuing CA for enterprise certificates (certified by the platform root of
 * 0010), each deposited key (encrypted PKCS#8 PEM only; erased when custody ends), the
 * certificates issued for them (each one registered on the ledger), the key usage and
 * audit log, and cancel-custody requests reviewed by platform operators.
 *
 * Before this, enterprises were created with private_key_status 1 although no key
 * existed; they become 0 (no key yet) until their super administrator deposits one.
 */
export function enterpriseKeys(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('enterprise_cas')
        .addColumn('fingerprint', 'text', (c) => c.primaryKey())
        .addColumn('root_fingerprint', 'text', (c) => c.notNull().references('platform_roots.fingerprint'))
        .addColumn('spki', 'text', (c) => c.notNull())
        .addColumn('pkcs8', 'text', (c) => c.notNull())
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('enterprise_keys')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        // Base64 DER SubjectPublicKeyInfo, from the CSR (the PEM is encrypted).
        .addColumn('spki', 'text', (c) => c.notNull())
        // Null once erased (custody ended and the last download window passed, or identity revoked).
        .addColumn('encrypted_pem', 'text')
        .addColumn('pem_sha256', 'text', (c) => c.notNull())
        .addColumn('kdf_iterations', 'integer', (c) => c.notNull())
        .addColumn('csr', 'text', (c) => c.notNull())
        .addColumn('deposit_signature', 'text', (c) => c.notNull())
        .addColumn('deposited_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('deposited_at', 'bigint', (c) => c.notNull())
        .addColumn('retired_at', 'bigint')
        .addColumn('delete_after', 'bigint')
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema.createIndex('enterprise_keys_enterprise').on('enterprise_keys').columns(['enterprise_id', 'id']).execute();
      await db.schema.createIndex('enterprise_keys_delete_after').on('enterprise_keys').column('delete_after').execute();

      await db.schema
        .createTable('enterprise_certificates')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('key_id', 'integer', (c) => c.notNull().references('enterprise_keys.id').onDelete('cascade'))
        .addColumn('ca_fingerprint', 'text', (c) => c.notNull().references('enterprise_cas.fingerprint'))
        // Lowercase hex, unique per issuer; the platform has one issuing CA at a time, and serials are 126 random bits.
        .addColumn('serial_number', 'text', (c) => c.notNull().unique())
        .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('not_before', 'bigint', (c) => c.notNull())
        .addColumn('not_after', 'bigint', (c) => c.notNull())
        .addColumn('der', 'text', (c) => c.notNull())
        .addColumn('dna', 'text', (c) => c.notNull().unique().references('ledger_entries.dna'))
        .addColumn('revoked_at', 'bigint')
        // RFC 5280 CRLReason.
        .addColumn('revocation_reason', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('enterprise_certificates_enterprise').on('enterprise_certificates').columns(['enterprise_id', 'id']).execute();
      await db.schema.createIndex('enterprise_certificates_revoked').on('enterprise_certificates').columns(['ca_fingerprint', 'revoked_at']).execute();

      await db.schema
        .createTable('key_custody_requests')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('key_id', 'integer', (c) => c.references('enterprise_keys.id').onDelete('set null'))
        .addColumn('requested_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('operator_id', 'integer', (c) => c.references('operators.id'))
        .addColumn('review_reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('reviewed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('key_custody_requests_status').on('key_custody_requests').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('key_custody_requests_enterprise').on('key_custody_requests').columns(['enterprise_id', 'id']).execute();

      // The key usage history and the audit trail of every status change: who (member or operator), when, what.
      await db.schema
        .createTable('enterprise_key_log')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('key_id', 'integer', (c) => c.references('enterprise_keys.id').onDelete('set null'))
        .addColumn('certificate_id', 'integer', (c) => c.references('enterprise_certificates.id').onDelete('set null'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id'))
        .addColumn('operator_id', 'integer', (c) => c.references('operators.id'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('from_status', 'integer')
        .addColumn('to_status', 'integer')
        .addColumn('file_hash', 'text')
        // For a signature: the key_fetched row it answers.
        .addColumn('ref_id', 'integer')
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('enterprise_key_log_enterprise').on('enterprise_key_log').columns(['enterprise_id', 'id']).execute();
      await db.schema.createIndex('enterprise_key_log_ref').on('enterprise_key_log').column('ref_id').execute();

      await sql`update enterprises set private_key_status = 0`.execute(db);
    },
  };
}
