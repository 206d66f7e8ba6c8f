import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * Partner applications (§7 POST /partners/contracts): what a visitor sent from the
 * partners page, kept for the platform operators (console list, CSV/XLSX export).
 */
export function partners(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('partner_contracts')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('contract_number', 'text', (c) => c.notNull())
        .addColumn('corporation', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('partner_contracts_time').on('partner_contracts').columns(['created_at', 'id']).execute();
    },
  };
}
