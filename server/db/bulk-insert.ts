import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres as isPostgresDb } from './dialect.ts';
import type { Database } from './schema.ts';

/**
 * A multi-row INSERT sent as one precompiled statement. Kysely's builder parses and compiles
 * every value of a 100-row insert into operation nodes each time (a seventh of a signed
 * batch's CPU time in a profile of bench:applications); the text here depends only on the
 * table, the columns, the row count and the dialect, so it is built once and kept, and the
 * values go straight to the driver as bound parameters (the same values Kysely would bind).
 * Rows are chunked by the caller under SQLite's bound-parameter limit.
 */
type Row<T extends keyof Database> = { [C in keyof Database[T]]?: unknown };

const texts = new Map<string, string>();

function statementText(isPostgres: boolean, table: string, columns: readonly string[], rowCount: number, returning: readonly string[]): string {
  const key = `${isPostgres ? 'pg' : 'sqlite'}\n${table}\n${columns.join(',')}\n${rowCount}\n${returning.join(',')}`;
  const hit = texts.get(key);
  if (hit) return hit;
  let n = 0;
  const rows: string[] = [];
  for (let r = 0; r < rowCount; r++) rows.push(`(${columns.map(() => (isPostgres ? `$${++n}` : '?')).join(', ')})`);
  const quoted = (name: string) => `"${name}"`;
  const text = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${rows.join(', ')}${returning.length ? ` returning ${returning.map(quoted).join(', ')}` : ''}`;
  if (texts.size > 200) texts.clear();
  texts.set(key, text);
  return text;
}

export async function insertRows<T extends keyof Database & string, R extends keyof Database[T] & string = never>(
  db: Kysely<Database>,
  table: T,
  columns: ReadonlyArray<keyof Database[T] & string>,
  rows: ReadonlyArray<Row<T>>,
  returning: readonly R[] = [],
): Promise<Array<Record<R, unknown>>> {
  if (!rows.length) return [];
  const isPostgres = isPostgresDb(db);
  const parameters: unknown[] = [];
  for (const row of rows) for (const column of columns) parameters.push((row as Record<string, unknown>)[column] ?? null);
  const result = await db.executeQuery<Record<R, unknown>>(CompiledQuery.raw(statementText(isPostgres, table, columns, rows.length, returning), parameters));
  return result.rows;
}
