import { sql, type Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * The dashboard home: the membership history its feed shows (employees keeps only
 * the current state, so "approved by whom, when" had nowhere to live), and the indexes that
 * let each feed source read its newest rows for one enterprise (or one member) without a scan.
 */
export function home(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('member_events')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        // Whom it is about, and who did it (null: the member themselves, or unknown for old rows).
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('role', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_events_enterprise_time').on('member_events').columns(['enterprise_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('member_events_user_time').on('member_events').columns(['enterprise_id', 'user_id', 'created_at', 'id']).execute();

      // What is known of memberships that predate the history: the creator created the
      // enterprise; a member joined when the row was made; applications and rejections are
      // dated by their last change.
      await sql`
        insert into member_events (enterprise_id, user_id, actor_user_id, kind, role, created_at)
        select e.enterprise_id, e.user_id, null,
          case
            when e.status = 2 then 'applied'
            when e.status = 3 then 'rejected'
            when e.user_id = ent.created_by then 'created'
            else 'joined'
          end,
          e.role,
          case when e.status in (2, 3) then e.updated_at else e.created_at end
        from employees e
        inner join enterprises ent on ent.id = e.enterprise_id
        order by e.id
      `.execute(db);

      // Feed sources read newest-first by time for one enterprise.
      await db.schema.createIndex('vault_logs_enterprise_time').on('vault_logs').columns(['enterprise_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('disclosures_sender').on('disclosures').columns(['enterprise_id', 'sender_user_id', 'created_at']).execute();
      await db.schema.createIndex('disclosure_events_time').on('disclosure_events').columns(['at', 'id']).execute();
      // Ledger registrations name their enterprise; the home reads one enterprise's, or one member's.
      await db.schema.createIndex('ledger_entries_enterprise_time').on('ledger_entries').columns(['enterprise_name', 'registered_at', 'id']).execute();
      await db.schema.createIndex('ledger_entries_registrant_time').on('ledger_entries').columns(['registrant_user_id', 'registered_at', 'id']).execute();
    },
  };
}
