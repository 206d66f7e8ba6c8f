import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { Wallet } from 'ethers';
import { startHarness, type Harness } from './harness.ts';
import { startAnvil } from '../../scripts/local-servers.ts';
import { CheckpointAnchoring, evmAnchorer } from '../../server/ledger/anchor.ts';
import { CHECKPOINT_ANCHOR_TAG_HEX, jsonRpc } from '../../core/ledger/anchor-check.ts';
import { checkpointHash, parseSignedNote } from '../../core/ledger/checkpoint.ts';

// The race the chaos bench found: the leader sends the anchor transaction, then dies (or
// loses the node's answer) before the database records it. Simulated deterministically with
// a JSON-RPC proxy in front of a real anvil chain that forwards eth_sendRawTransaction and
// then does not answer (the sender cannot tell it apart from dying right after sending),
// followed by a "new leader": a fresh CheckpointAnchoring and anchorer that remember nothing
// but the database.
const repo = path.resolve(import.meta.dirname, '../..');
const PLATFORM_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const PLATFORM = new Wallet(PLATFORM_KEY).address;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const quiet = { info() {}, warn() {} };

/**
 * pass: forwards everything. lose-reply: forwards eth_sendRawTransaction, then answers 502
 * (the transaction is on the chain, the sender does not know). drop: does not forward it and
 * answers 502 (the node never saw it).
 */
type Mode = 'pass' | 'lose-reply' | 'drop';
async function startProxy(target: string): Promise<{ url: string; mode: Mode; sends: number; close(): void }> {
  const state = { url: '', mode: 'pass' as Mode, sends: 0, close: () => server.close() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const isSend = (JSON.parse(body) as { method: string }).method === 'eth_sendRawTransaction';
      if (isSend) state.sends += 1;
      if (isSend && state.mode === 'drop') return void res.writeHead(502).end();
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await upstream.text();
      if (isSend && state.mode === 'lose-reply') return void res.writeHead(502).end();
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return state;
}

let chain: { url: string; stop(): void };
let proxy: Awaited<ReturnType<typeof startProxy>>;
let h: Harness;
beforeAll(async () => {
  chain = await startAnvil();
  proxy = await startProxy(chain.url);
});
beforeEach(async () => {
  await h?.close();
  // A fresh chain state per test: anvil's snapshot/revert would do too, a fresh account count is simpler.
  chain.stop();
  chain = await startAnvil();
  proxy.close();
  proxy = await startProxy(chain.url);
  Object.assign(process.env, { ANCHOR_RPC_URL: proxy.url, ANCHOR_PRIVATE_KEY: PLATFORM_KEY, ANCHOR_INTERVAL: '1h', ANCHOR_RPC_TIMEOUT_MS: '2000' });
  try {
    h = await startHarness();
  } finally {
    for (const k of ['ANCHOR_RPC_URL', 'ANCHOR_PRIVATE_KEY', 'ANCHOR_INTERVAL', 'ANCHOR_RPC_TIMEOUT_MS']) delete process.env[k];
  }
});
afterAll(async () => {
  await h?.close();
  proxy?.close();
  chain?.stop();
});

/** A leader that knows only the database: a fresh anchorer (no transaction in memory). */
const newLeader = () => new CheckpointAnchoring(h.app.db, evmAnchorer({ rpcUrl: proxy.url, privateKey: PLATFORM_KEY, rpcTimeoutMs: 2000, receiptTimeoutMs: 5000 }), () => h.app.ledger.currentCheckpoint(), quiet);
const sent = async () => Number(BigInt((await jsonRpc(chain.url)('eth_getTransactionCount', [PLATFORM, 'latest'])) as string));
const recorded = () => h.app.db.selectFrom('ledger_checkpoint_anchors').selectAll().execute();

/** `provena ledger-verify` in its own process, against the chain itself. */
function ledgerVerify(): Promise<{ status: number | null; out: string }> {
  const env = { PATH: process.env.PATH, DATA_DIR: h.app.env.dataDir, DATABASE_URL: h.app.env.databaseUrl ?? '', ANCHOR_RPC_URL: chain.url, ANCHOR_PRIVATE_KEY: PLATFORM_KEY };
  const child = spawn(process.execPath, [path.join(repo, 'scripts/ledger-verify.ts')], { cwd: repo, env });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, out })));
}

async function sealOne(content: string) {
  await h.app.registerEntry({ fileHash: `0x${sha(content)}`, enterpriseName: 'Anchor Crash Ltd', registrantUserId: null, kind: 'asset' });
  await h.app.ledger.sealNow();
  return (await h.app.ledger.currentCheckpoint())!;
}

describe('a leader that dies between sending an anchor and recording it', () => {
  it('leaves no transaction the database does not know: the next leader records the one already sent instead of sending another', { timeout: 120_000 }, async () => {
    const cp = await sealOne('crash one');
    proxy.mode = 'lose-reply';
    await expect(newLeader().run()).rejects.toThrow();
    expect(await sent()).toBe(1); // on the chain
    expect(await recorded()).toHaveLength(0); // not recorded as an anchor

    // Right now, before any leader came back: ledger-verify knows the transaction (its intent).
    const during = await ledgerVerify();
    expect(during.status, during.out).toBe(0);
    expect(during.out).toContain('1 sent and waiting to be recorded');

    proxy.mode = 'pass';
    const sendsBefore = proxy.sends;
    await newLeader().run();
    await newLeader().run(); // idempotent: nothing left to do
    expect(proxy.sends).toBe(sendsBefore); // nothing signed or sent again: the transaction was mined
    expect(await sent()).toBe(1);
    const rows = await recorded();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ height: cp.height, checkpoint_hash: checkpointHash(parseSignedNote(cp.note)!.text) });
    const tx = (await jsonRpc(chain.url)('eth_getTransactionByHash', [rows[0]!.tx_hash])) as { input: string };
    expect(tx.input).toBe(`0x${CHECKPOINT_ANCHOR_TAG_HEX}${rows[0]!.checkpoint_hash}`);
    const after = await ledgerVerify();
    expect(after.status, after.out).toBe(0);
    expect(after.out).toContain('1 anchors');

    // Later checkpoints anchor as usual, with the next nonce.
    await sealOne('crash two');
    await newLeader().run();
    expect(await sent()).toBe(2);
    expect(await recorded()).toHaveLength(2);
    expect((await ledgerVerify()).status).toBe(0);
  });

  it('rebroadcasts the same signed transaction when the node never got it', { timeout: 120_000 }, async () => {
    await sealOne('dropped one');
    proxy.mode = 'drop';
    await expect(newLeader().run()).rejects.toThrow();
    expect(await sent()).toBe(0);
    const intents = await h.app.db.selectFrom('ledger_anchor_intents').selectAll().execute();
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ nonce: 0, state: 'sent' });

    proxy.mode = 'pass';
    await newLeader().run();
    expect(await sent()).toBe(1);
    const rows = await recorded();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tx_hash).toBe(intents[0]!.tx_hash); // the very transaction signed before, same nonce
    expect((await h.app.db.selectFrom('ledger_anchor_intents').select('state').executeTakeFirstOrThrow()).state).toBe('recorded');
    expect((await ledgerVerify()).status).toBe(0);
  });

  it('two leaders at once (a deposed one still running) send one transaction, not two', { timeout: 120_000 }, async () => {
    await sealOne('two leaders');
    const results = await Promise.allSettled([newLeader().run(), newLeader().run(), newLeader().run()]);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    await newLeader().run(); // whoever lost the race finds the work done
    expect(await sent()).toBe(1);
    expect(await recorded()).toHaveLength(1);
    expect((await ledgerVerify()).status).toBe(0);
  });

  it('a worker process SIGKILLed right after its send: the next leader records the transaction it left', { timeout: 120_000 }, async () => {
    const cp = await sealOne('killed worker');
    // The dying process: the real anchoring code on the same database, its anchorer killing the
    // process the moment the node has the transaction (before anything else runs in it).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchor-kill-'));
    const script = path.join(dir, 'die-after-send.ts');
    fs.writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(path.join(repo, 'server/db/database.ts'))};
import { CheckpointAnchoring, evmAnchorer } from ${JSON.stringify(path.join(repo, 'server/ledger/anchor.ts'))};
const { db } = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR });
const real = evmAnchorer({ rpcUrl: process.env.RPC_URL, privateKey: process.env.KEY });
const dying = { ...real, async send(raw) { await real.send(raw); process.kill(process.pid, 'SIGKILL'); } };
const cp = JSON.parse(process.env.CP);
await new CheckpointAnchoring(db, dying, async () => cp, { info() {}, warn() {} }).run();
console.log('not killed');
`,
    );
    const child = spawn(process.execPath, [script], { cwd: repo, env: { PATH: process.env.PATH, DATA_DIR: h.app.env.dataDir, DATABASE_URL: h.app.env.databaseUrl ?? '', RPC_URL: chain.url, KEY: PLATFORM_KEY, CP: JSON.stringify(cp) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, sig) => resolve(sig)));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(signal, out).toBe('SIGKILL');
    expect(await sent()).toBe(1);
    expect(await recorded()).toHaveLength(0);
    const during = await ledgerVerify();
    expect(during.status, during.out).toBe(0);

    const sendsBefore = proxy.sends;
    await newLeader().run();
    expect(proxy.sends).toBe(sendsBefore);
    expect(await sent()).toBe(1);
    const rows = await recorded();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.height).toBe(cp.height);
    expect((await ledgerVerify()).status).toBe(0);
  });
});
