import { sql, type Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Operator console hardening: a TOTP second factor (RFC 6238) for every operator, with
 * one-time recovery codes, and an append-only audit log of what operators do.
 *
 * - operators.totp_secret: the enrolled secret, sealed with the server's master key
 *   (AES-256-GCM, never plaintext at rest); null until the operator enrolls at first login.
 * - operators.totp_pending: the secret offered at enrollment, sealed, until confirmed.
 * - operators.totp_last_step: the last 30-second step accepted, so a code is used once.
 * - operator_recovery_codes: scrypt hashes of the ten codes shown once at enrollment.
 * - operator_audit: who did what to which record, when and from where. Triggers refuse
 *   UPDATE and DELETE, in SQLite and PostgreSQL alike.
 */
export function operatorSecurity(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('operators').addColumn('totp_secret', 'text').execute();
      await db.schema.alterTable('operators').addColumn('totp_pending', 'text').execute();
      await db.schema.alterTable('operators').addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

      await db.schema
        .createTable('operator_recovery_codes')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('operator_recovery_codes_operator').on('operator_recovery_codes').column('operator_id').execute();

      await db.schema
        .createTable('operator_audit')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('operator_id', 'integer')
        .addColumn('login_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('operator_audit_created').on('operator_audit').column('created_at').execute();

      if (dialect === 'sqlite') {
        await sql`create trigger operator_audit_no_update before update on operator_audit begin select raise(abort, 'operator_audit is append-only'); end`.execute(db);
        await sql`create trigger operator_audit_no_delete before delete on operator_audit begin select raise(abort, 'operator_audit is append-only'); end`.execute(db);
      } else {
        await sql`create function operator_audit_append_only() returns trigger language plpgsql as $$ begin raise exception 'operator_audit is append-only'; end $$`.execute(db);
        await sql`create trigger operator_audit_no_change before update or delete on operator_audit for each row execute function operator_audit_append_only()`.execute(db);
      }
    },
  };
}
