import { sql, type Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * External applications: the applications of an enterprise, their signing keys
 * (secrets sealed under the platform key-encryption key), the nonces seen in the replay
 * window, the files they registered (each a ledger entry of kind `application`), idempotent
 * answers, per-minute counts, state transitions, alarms and their deliveries.
 */
export function applications(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('applications')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('owner_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('interval_seconds', 'integer', (c) => c.notNull())
        .addColumn('grace_seconds', 'integer', (c) => c.notNull())
        .addColumn('alarm_phones', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('webhook_urls', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('is_paused', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_at', 'bigint')
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('not_connected'))
        .addColumn('state_reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('state_since', 'bigint')
        .addColumn('last_seen_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // §8 app name already exists: unique among the enterprise's applications that are not deleted.
      await db.schema.createIndex('applications_enterprise_name').on('applications').columns(['enterprise_id', 'name']).unique().where(sql.ref('deleted_at'), 'is', null).execute();
      await db.schema
        .createTable('application_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('application_keys_application').on('application_keys').columns(['application_id']).execute();
      await db.schema
        .createTable('application_nonces')
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('application_nonces_pk', ['key_id', 'nonce'])
        .execute();
      await db.schema.createIndex('application_nonces_expiry').on('application_nonces').columns(['expires_at']).execute();
      await db.schema
        .createTable('application_files')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('file_hash', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('metadata', 'text')
        .addColumn('dna', 'text', (c) => c.notNull().unique().references('ledger_entries.dna'))
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // One content is registered once per application: a re-sent file answers its first entry.
        .addUniqueConstraint('application_files_app_digest', ['application_id', 'digest'])
        .execute();
      await db.schema.createIndex('application_files_app_created').on('application_files').columns(['application_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('application_files_enterprise_digest').on('application_files').columns(['enterprise_id', 'digest']).execute();
      await db.schema
        .createTable('application_idempotency')
        .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('application_idempotency_pk', ['application_id', 'idem_key'])
        .execute();
      await db.schema
        .createTable('application_stats')
        .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('minute', 'bigint', (c) => c.notNull())
        .addColumn('registrations', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('heartbeats', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('refusals', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('signature_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('application_stats_pk', ['application_id', 'minute'])
        .execute();
      await db.schema
        .createTable('application_transitions')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('from_state', 'text', (c) => c.notNull())
        .addColumn('to_state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('application_transitions_app').on('application_transitions').columns(['application_id', 'at']).execute();
      await db.schema
        .createTable('application_alarms')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('application_id', 'integer', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('transition_id', 'integer', (c) => c.references('application_transitions.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('acknowledged_at', 'bigint')
        .addColumn('acknowledged_by', 'integer', (c) => c.references('users.id'))
        .execute();
      await db.schema.createIndex('application_alarms_app').on('application_alarms').columns(['application_id', 'created_at']).execute();
      await db.schema
        .createTable('application_deliveries')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('alarm_id', 'integer', (c) => c.notNull().references('application_alarms.id').onDelete('cascade'))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('response_status', 'integer')
        .addColumn('delivered_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('application_deliveries_due').on('application_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('application_deliveries_alarm').on('application_deliveries').columns(['alarm_id']).execute();
    },
  };
}
