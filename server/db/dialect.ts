import type { ColumnDefinitionBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** SQLite needs INTEGER PRIMARY KEY AUTOINCREMENT for its rowid alias; PostgreSQL an identity column. */
export function primaryId(dialect: Dialect) {
  return (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity();
}
