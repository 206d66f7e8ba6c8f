import type { Kysely } from 'kysely';

/**
 * The language a certificate is written in: the registrant's, as their browser said it when
 * they registered (the other two languages appear as a compact line under each label).
 */
export function certificateLocale() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('proofs').addColumn('locale', 'text', (c) => c.notNull().defaultTo('zh')).execute();
    },
  };
}
