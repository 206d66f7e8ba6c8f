import type { Kysely } from 'kysely';

/**
 * Platform private keys are kept sealed, never as plaintext PKCS#8: the column that held
 * the PKCS#8 now holds a sealed envelope (server/keys/keyring.ts; rows written before this
 * migration are sealed at the next boot). Proof-signing and time-stamping keys get a table
 * of their own, and block keys a retirement time, so keys can rotate while every key that
 * signed something stays listed. Proof rows note whether their PDF carries the page
 * signature, so certificates rendered before it get signed once.
 */
export function sealedKeys() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['ledger_keys', 'platform_roots', 'enterprise_cas']) {
        await db.schema.alterTable(table).renameColumn('pkcs8', 'sealed_key').execute();
      }
      await db.schema.alterTable('ledger_keys').addColumn('retired_at', 'bigint').execute();
      await db.schema
        .createTable('platform_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('spki', 'text', (c) => c.notNull())
        .addColumn('sealed_key', 'text', (c) => c.notNull())
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('root_fingerprint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('retired_at', 'bigint')
        .execute();
      // Certificates rendered before pages were signed are signed in place by the proof jobs (page_signed 0 → 1).
      await db.schema.alterTable('proofs').addColumn('page_signed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('platform_keys_purpose').on('platform_keys').columns(['purpose', 'created_at']).execute();
    },
  };
}
