import type { Kysely } from 'kysely';

/**
 * The platform's X.509 root (one row per root; the oldest is active) and the certificate
 * the root issued for each block-signing key in ledger_keys.
 */
export function platformCa() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('platform_roots')
        .addColumn('fingerprint', 'text', (c) => c.primaryKey())
        .addColumn('spki', 'text', (c) => c.notNull())
        .addColumn('pkcs8', 'text', (c) => c.notNull())
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('ledger_key_certificates')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('root_fingerprint', 'text', (c) => c.notNull())
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
