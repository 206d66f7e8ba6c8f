import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';

/**
 * Helpers for tests and benches that start real servers on this machine: a free loopback
 * port, a local EVM chain, and one-off queries on a PostgreSQL schema of their own.
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

/**
 * A local EVM chain: anvil, from the @foundry-rs/anvil npm package (its binary ships in a
 * platform package; no install script needed), chain id 1337, its development accounts funded.
 * Resolves once it answers eth_chainId; `child` lets a caller track or kill the process itself.
 */
export async function startAnvil(): Promise<{ url: string; child: import('node:child_process').ChildProcess; stop(): void }> {
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '..');
  const child = spawn(path.join(root, 'node_modules/.bin/anvil'), ['--port', String(port), '--chain-id', '1337', '--silent'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const isUp = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) }).then(
      (r) => r.ok,
      () => false,
    );
    if (isUp) return { url, child, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('anvil did not start');
}
