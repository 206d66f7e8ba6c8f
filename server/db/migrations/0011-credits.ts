import { sql, type Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Credits: one pool account per enterprise (user_id null) and one account per
 * member, the movements ledger (every change of a balance is one row written in the same
 * transaction, so the movements of an account always sum to its balance), and top-up
 * orders paid through a payment provider.
 */
export function credits(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('credit_accounts')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        // Null: the enterprise's pool.
        .addColumn('user_id', 'integer', (c) => c.references('users.id'))
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // Never negative, whatever a caller does: the database refuses it too.
        .addCheckConstraint('credit_accounts_balance_non_negative', sql`balance >= 0`)
        .addUniqueConstraint('credit_accounts_enterprise_user', ['enterprise_id', 'user_id'])
        .execute();
      // NULLs are distinct in a unique constraint: one pool per enterprise needs its own index.
      await db.schema.createIndex('credit_accounts_pool').on('credit_accounts').column('enterprise_id').unique().where(sql.ref('user_id'), 'is', null).execute();

      await db.schema
        .createTable('credit_orders')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('cancelled_by', 'integer', (c) => c.references('users.id'))
        .addColumn('decided_by_operator', 'integer', (c) => c.references('operators.id'))
        .addColumn('decided_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('credit_orders_amount_positive', sql`amount > 0`)
        .execute();
      await db.schema.createIndex('credit_orders_enterprise').on('credit_orders').columns(['enterprise_id', 'id']).execute();
      await db.schema.createIndex('credit_orders_status').on('credit_orders').columns(['status', 'id']).execute();

      await db.schema
        .createTable('credit_movements')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('credit_accounts.id').onDelete('cascade'))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        // The account's owner (null: the pool), kept here for the filters of the usage history.
        .addColumn('user_id', 'integer', (c) => c.references('users.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('delta', 'bigint', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        // Allocations: the other side's account (its own movement is the twin row).
        .addColumn('counterpart_account_id', 'integer', (c) => c.references('credit_accounts.id'))
        .addColumn('actor_user_id', 'integer', (c) => c.references('users.id'))
        .addColumn('actor_operator_id', 'integer', (c) => c.references('operators.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('credit_movements_delta_non_zero', sql`delta <> 0`)
        .addCheckConstraint('credit_movements_balance_non_negative', sql`balance_after >= 0`)
        .execute();
      await db.schema.createIndex('credit_movements_account').on('credit_movements').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('credit_movements_enterprise').on('credit_movements').columns(['enterprise_id', 'id']).execute();
      await db.schema.createIndex('credit_movements_enterprise_time').on('credit_movements').columns(['enterprise_id', 'created_at']).execute();
      // A top-up order credits once, a registration is charged once: the database says so too.
      await db.schema
        .createIndex('credit_movements_reference')
        .on('credit_movements')
        .columns(['account_id', 'kind', 'reference'])
        .unique()
        .where(sql.ref('reference'), 'is not', null)
        .execute();
    },
  };
}
