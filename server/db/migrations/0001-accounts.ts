import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

export function accounts(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('phonenumber', 'text', (c) => c.notNull().unique())
        .addColumn('login_id', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('card_no', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('real_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_color', 'text', (c) => c.notNull())
        .addColumn('tag', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_frozen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('phone_change_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('sms_codes')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('sms_codes_phone_type').on('sms_codes').columns(['phone', 'type', 'created_at']).execute();

      await db.schema
        .createTable('sms_outbox')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sms_outbox_phone').on('sms_outbox').columns(['phone', 'sent_at']).execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}

