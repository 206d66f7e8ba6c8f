import net from 'node:net';
import pg from 'pg';

/**
 * Helpers for tests and benches that start real servers on this machine: a free loopback
 * port, and one-off queries on a PostgreSQL schema of their own.
 */

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `baseUrl` with its search_path set to `schema` (what DATABASE_URL looks like for one deployment among several). */
export function schemaUrl(baseUrl: string, schema: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** One query on its own connection (opened and closed around it). */
export async function pgQuery<R extends pg.QueryResultRow>(connectionString: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}
