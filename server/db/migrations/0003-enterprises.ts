import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/** Enterprises, their members, invitations, channel-2 applications, operators and small uploaded files. */
export function enterprises(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('enterprises')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('license_no', 'text', (c) => c.notNull())
        .addColumn('legal_person', 'text', (c) => c.notNull())
        .addColumn('license_image_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'integer', (c) => c.notNull())
        .addColumn('apply_book_id', 'text')
        .addColumn('organization_code_certificate_id', 'text')
        .addColumn('verify_status', 'integer', (c) => c.notNull())
        .addColumn('private_key_status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('invitation_code', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('employees')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('employees_enterprise_user', ['enterprise_id', 'user_id'])
        .execute();
      await db.schema.createIndex('employees_user').on('employees').column('user_id').execute();

      await db.schema
        .createTable('invitations')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('inviter_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('invitations_user').on('invitations').columns(['user_id', 'status']).execute();

      await db.schema
        .createTable('enterprise_applications')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('license_no', 'text', (c) => c.notNull())
        .addColumn('legal_person', 'text', (c) => c.notNull())
        .addColumn('license_image_id', 'text', (c) => c.notNull())
        .addColumn('apply_book_id', 'text', (c) => c.notNull())
        .addColumn('organization_code_certificate_id', 'text')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('enterprise_id', 'integer', (c) => c.references('enterprises.id'))
        .addColumn('reviewed_by', 'integer')
        .addColumn('reviewed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('enterprise_applications_status').on('enterprise_applications').columns(['status', 'created_at']).execute();

      await db.schema
        .createTable('operators')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('login_id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('operator_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Who uploaded which file: a file is only usable by those who uploaded it.
      await db.schema
        .createTable('file_owners')
        .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('file_owners_pk', ['file_id', 'user_id'])
        .execute();

      // The company the user has chosen to display (§4 switching).
      await db.schema.alterTable('users').addColumn('current_enterprise_id', 'integer').execute();
    },
  };
}
