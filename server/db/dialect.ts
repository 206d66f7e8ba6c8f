import { PostgresAdapter, type ColumnDefinitionBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** SQLite needs INTEGER PRIMARY KEY AUTOINCREMENT for its rowid alias; PostgreSQL an identity column. */
export function primaryId(dialect: Dialect) {
  return (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity();
}

/**
 * Which database a Kysely instance (or transaction) talks to, read from its adapter: PostgreSQL
 * (DATABASE_URL) or the embedded SQLite. The one check the bulk insert (placeholders) and the
 * ledger (group commit on SQLite's single connection) both make.
 */
export function isPostgres(db: { getExecutor(): { readonly adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
