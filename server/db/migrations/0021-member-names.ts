import type { Kysely } from 'kysely';

/**
 * The name an administrator gives a member (add one, or a sheet row) when the phone already
 * has an account: it travels with the invitation and becomes the member's name in this
 * enterprise. Before, only a new account kept it (as its user name) and an invitation dropped it.
 */
export function memberNames() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('invitations').addColumn('member_name', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('employees').addColumn('display_name', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
  };
}
