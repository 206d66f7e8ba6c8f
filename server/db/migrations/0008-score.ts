import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * The enterprise-score domain: score enterprises (the map's nodes, one per
 * platform enterprise plus imported and demo ones), source-code repositories, their
 * developers and contributions (the import target for history that predates the
 * platform), imported registered assets, the weekly score series and the links between
 * enterprises. Ids are given by the writer when bulk-loading (demo data, imports), so
 * PostgreSQL uses identity BY DEFAULT here, not ALWAYS (see server/score/store.ts).
 */
export function score(dialect: Dialect) {
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity());
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('score_enterprises')
        .addColumn('id', 'integer', id)
        .addColumn('uuid', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'integer', (c) => c.unique().references('enterprises.id').onDelete('set null'))
        .addColumn('activated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('activated_at', 'bigint')
        .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('score_enterprises_activated').on('score_enterprises').columns(['activated', 'activated_at']).execute();
      await db.schema.createIndex('score_enterprises_name').on('score_enterprises').column('name').execute();

      await db.schema
        .createTable('score_repositories')
        .addColumn('id', 'integer', id)
        .addColumn('score_enterprise_id', 'integer', (c) => c.notNull().references('score_enterprises.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('score_repositories_enterprise').on('score_repositories').column('score_enterprise_id').execute();

      await db.schema
        .createTable('score_developers')
        .addColumn('id', 'integer', id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('score_contributions')
        .addColumn('id', 'integer', id)
        .addColumn('repository_id', 'integer', (c) => c.notNull().references('score_repositories.id').onDelete('cascade'))
        .addColumn('developer_id', 'integer', (c) => c.notNull().references('score_developers.id').onDelete('cascade'))
        .addColumn('from_at', 'bigint', (c) => c.notNull())
        .addColumn('to_at', 'bigint', (c) => c.notNull())
        .addColumn('commits', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('score_contributions_repository').on('score_contributions').column('repository_id').execute();
      await db.schema.createIndex('score_contributions_developer').on('score_contributions').column('developer_id').execute();

      await db.schema
        .createTable('score_assets')
        .addColumn('id', 'integer', id)
        .addColumn('score_enterprise_id', 'integer', (c) => c.notNull().references('score_enterprises.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('registered_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('score_assets_enterprise').on('score_assets').column('score_enterprise_id').execute();

      // One row per enterprise: the weekly points as compact JSON columns (docs/score.md).
      await db.schema
        .createTable('score_series')
        .addColumn('score_enterprise_id', 'integer', (c) => c.primaryKey().references('score_enterprises.id').onDelete('cascade'))
        .addColumn('first_week', 'integer', (c) => c.notNull())
        .addColumn('last_week', 'integer', (c) => c.notNull())
        .addColumn('points', 'text', (c) => c.notNull())
        .addColumn('capital', 'double precision', (c) => c.notNull())
        .addColumn('computed_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('score_links')
        .addColumn('a', 'integer', (c) => c.notNull().references('score_enterprises.id').onDelete('cascade'))
        .addColumn('b', 'integer', (c) => c.notNull().references('score_enterprises.id').onDelete('cascade'))
        .addColumn('weight', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('score_links_pk', ['a', 'b'])
        .execute();

      await db.schema
        .createTable('score_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into score_meta (key, value) values ('data_version', '0')`.execute(db);
    },
  };
}
