import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { Wallet } from 'ethers';
import { startHarness, type Harness } from './harness.ts';
import { startAnvil } from '../../scripts/local-servers.ts';
import { decodePackage, encodePackage, encodeStatement, verifyCertificate, verifyPackage, type ProofPackage } from '../../core/ledger/package.ts';
import { signText } from '../../core/ledger/block.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { CHECKPOINT_ANCHOR_TAG_HEX, checkCheckpointAnchor, jsonRpc } from '../../core/ledger/anchor-check.ts';
import { checkpointHash, parseSignedNote } from '../../core/ledger/checkpoint.ts';
import { readProofPdf } from '../../server/services/proof-pdf.ts';

// A real local EVM chain: anvil, from the @foundry-rs/anvil npm package (its binary ships in a
// platform package; no install script needed). Its first two dev accounts are funded.
const repo = path.resolve(import.meta.dirname, '../..');
const PLATFORM_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const STRANGER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

/** Sends a zero-value self-transaction carrying `data` from `key`; returns its anchor. */
async function selfSend(url: string, key: string, data: string) {
  const rpc = jsonRpc(url);
  const wallet = new Wallet(key);
  const nonce = Number(await rpc('eth_getTransactionCount', [wallet.address, 'pending']));
  const gasPrice = BigInt((await rpc('eth_gasPrice', [])) as string) * 2n;
  const raw = await wallet.signTransaction({ type: 0, chainId: 1337n, nonce, to: wallet.address, value: 0n, data, gasPrice, gasLimit: 100_000n });
  const hash = (await rpc('eth_sendRawTransaction', [raw])) as string;
  let receipt: { blockNumber: string } | null = null;
  for (let i = 0; i < 100 && !receipt; i++) {
    receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string } | null;
    if (!receipt) await new Promise((r) => setTimeout(r, 50));
  }
  if (!receipt) throw new Error(`${hash} was not mined`);
  return { chain_id: 1337, tx_hash: hash, block_number: Number(BigInt(receipt.blockNumber)) };
}

let chain: { url: string; stop(): void };
let h: Harness;
beforeAll(async () => {
  chain = await startAnvil();
  Object.assign(process.env, { ANCHOR_RPC_URL: chain.url, ANCHOR_PRIVATE_KEY: PLATFORM_KEY, ANCHOR_INTERVAL: '1h' });
  try {
    h = await startHarness();
  } finally {
    delete process.env.ANCHOR_RPC_URL;
    delete process.env.ANCHOR_PRIVATE_KEY;
    delete process.env.ANCHOR_INTERVAL;
  }
});
afterAll(async () => {
  await h?.close();
  chain?.stop();
});

describe('checkpoint anchoring', () => {
  it('anchors the newest checkpoint once per interval, and certificates carry it, bound to the published address', async () => {
    const platform = new Wallet(PLATFORM_KEY).address.toLowerCase();
    const dnas: string[] = [];
    for (const content of ['anchored one', 'anchored two']) {
      dnas.push((await h.app.registerEntry({ fileHash: `0x${sha(content)}`, enterpriseName: 'Anchor Ltd', registrantUserId: null, kind: 'asset' })).dna);
      await h.app.ledger.sealNow(); // two blocks, one anchor
    }
    // Certificates wait for an anchored checkpoint.
    await h.app.proofs.drain();
    expect((await h.app.db.selectFrom('proofs').select('status').where('dna', '=', dnas[0]!).executeTakeFirstOrThrow()).status).toBe(2);
    await h.app.anchoring!.tick();
    await h.app.anchoring!.tick(); // nothing new: no second transaction
    await h.app.proofs.drain();

    const anchors = (await h.request({ method: 'GET', url: '/api/v1/ledger/anchors' })).json().data;
    expect(anchors.address).toBe(platform);
    expect(anchors.anchors).toHaveLength(1);
    const published = anchors.anchors[0];
    expect(published).toMatchObject({ height: h.app.ledger.headBlock!.height, address: platform, chain_id: 1337 });
    // The whole answer (the response schema keeps every field).
    expect(anchors).toEqual({ address: platform, interval_ms: expect.any(Number), data_format: expect.any(String), time_tolerance_ms: expect.any(Number), anchors: [expect.any(Object)] });
    expect(published).toEqual({ height: expect.any(Number), tree_size: expect.any(Number), checkpoint: expect.any(String), checkpoint_hash: expect.any(String), chain_id: 1337, address: platform, tx_hash: expect.any(String), block_number: expect.any(Number), anchored_at: expect.any(Number) });

    const pdfs = await Promise.all(dnas.map(async (dna) => new Uint8Array((await readProofPdf(h.app.db, h.app.fileStore.driver, dna))!)));
    const packages = await Promise.all(pdfs.map(async (pdf) => decodePackage((await extractPackageNode(pdf))!)));
    const pkg = packages[0]!;
    expect(pkg.anchor).toEqual({ chain_id: 1337, tx_hash: published.tx_hash, block_number: published.block_number });
    expect(packages[1]!.anchor).toEqual(pkg.anchor); // one transaction covers both blocks
    expect(pkg.statement.anchor_address).toBe(platform);
    expect(pkg.checkpoint!.note).toBe(published.checkpoint);

    // On the chain: from the platform's address, the tag and this checkpoint's hash.
    const rpc = jsonRpc(chain.url);
    const tx = (await rpc('eth_getTransactionByHash', [published.tx_hash])) as { from: string; input: string };
    expect(tx.from.toLowerCase()).toBe(platform);
    expect(tx.input).toBe(`0x${CHECKPOINT_ANCHOR_TAG_HEX}${checkpointHash(parseSignedNote(published.checkpoint)!.text)}`);

    // Checked against the chain: valid. Trust fails closed: the verifier pins the platform's published roots.
    const roots = ((await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string }[]).map((r) => r.fingerprint);
    const checked = await verifyCertificate(pdfs[0]!, extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: rpc, isAnchorRequired: true });
    expect(checked.isValid, JSON.stringify(checked.checks)).toBe(true);
    expect(checked.checks.find((c) => c.id === 'anchor')).toMatchObject({ isOk: true, detail: expect.stringContaining('carries this checkpoint') });

    const verify = (p: ProofPackage) => encodePackage(p).then((bytes) => verifyPackage(bytes, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: rpc, isAnchorRequired: true }));
    // Attack: a self-send carrying the same data from an account that is not the platform's.
    const stranger = await selfSend(chain.url, STRANGER_KEY, tx.input);
    expect(await verify({ ...pkg, anchor: stranger })).toMatchObject({ isValid: false, failedCheck: 'anchor', message: 'anchor_sender_unknown' });
    // The address is in the signed statement: dropping it breaks the platform's signature.
    const { anchor_address: _dropped, signature: _signature, ...unbound } = pkg.statement;
    expect(await verify({ ...pkg, statement: { ...unbound, signature: pkg.statement.signature } })).toMatchObject({ isValid: false, failedCheck: 'statement_signature' });
    // A statement signed without an address (as before address binding): a self-send from anyone
    // would pass, so with --rpc it fails.
    const resigned = { ...unbound, signature: await signText(h.app.ledger.key.signer.sign, encodeStatement(unbound)) };
    expect(await verify({ ...pkg, statement: resigned, anchor: stranger })).toMatchObject({ isValid: false, failedCheck: 'anchor', message: 'anchor_sender_unknown' });
    // A transaction from the expected sender with data that is not this checkpoint.
    const hash = checkpointHash(parseSignedNote(pkg.checkpoint!.note)!.text);
    const other = await selfSend(chain.url, STRANGER_KEY, `0x${CHECKPOINT_ANCHOR_TAG_HEX}${'ab'.repeat(32)}`);
    const strangerAddress = new Wallet(STRANGER_KEY).address;
    expect(await checkCheckpointAnchor(other, { address: strangerAddress, checkpointHash: hash, sealedAt: 0 }, rpc)).toMatchObject({ isOk: false, failure: 'anchor_data_mismatch' });
    expect(await checkCheckpointAnchor(stranger, { address: strangerAddress, checkpointHash: hash, sealedAt: 0 }, rpc)).toMatchObject({ isOk: true });
    // A block sealed long after the chain block that "anchors" it: the anchor predates it.
    expect(await checkCheckpointAnchor(pkg.anchor!, { address: platform, checkpointHash: hash, sealedAt: Date.now() + 3_600_000 }, rpc)).toMatchObject({ isOk: false, failure: 'anchor_time_invalid' });
    expect(await checkCheckpointAnchor({ ...pkg.anchor!, tx_hash: `0x${'cd'.repeat(32)}` }, { address: platform, checkpointHash: hash, sealedAt: 0 }, rpc)).toMatchObject({ isOk: false, failure: 'anchor_not_found' });
    expect(await checkCheckpointAnchor({ ...pkg.anchor!, chain_id: 1 }, { address: platform, checkpointHash: hash, sealedAt: 0 }, rpc)).toMatchObject({ isOk: false, failure: 'anchor_not_found' });

    // An unreachable node: a failure when the anchor is required, a stated skip otherwise.
    const nowhere = jsonRpc('http://127.0.0.1:9/', 2000);
    expect(await verifyCertificate(pdfs[0]!, extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: nowhere, isAnchorRequired: true })).toMatchObject({ isValid: false, failedCheck: 'anchor' });
    const optional = await verifyCertificate(pdfs[0]!, extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: nowhere });
    expect(optional.isValid).toBe(true);
    expect(optional.checks.find((c) => c.id === 'anchor')).toMatchObject({ isSkipped: true, detail: expect.stringContaining('could not ask the chain') });

    // The §7 verify API checks it with the platform's own node.
    const form = new FormData();
    form.append('hash', `0x${sha('anchored one')}`);
    form.append('file', new Blob([pdfs[0]!], { type: 'application/pdf' }), 'proof.pdf');
    const body = new Response(form);
    const res = await h.app.inject({ method: 'PUT', url: '/verify-api/v1/public/zkp-proof-verify', payload: Buffer.from(await body.arrayBuffer()), headers: { 'content-type': body.headers.get('content-type')! } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data.checks as { id: string; ok: boolean; skipped: boolean }[]).find((c) => c.id === 'anchor')).toMatchObject({ ok: true, skipped: false });

    // The explorer shows the anchor at the checkpoint's height.
    expect((await h.request({ method: 'GET', url: `/api/v1/explorer/blocks/${published.height}` })).json().data.anchor).toEqual(pkg.anchor);
  });

  it('ledger:verify compares the database with the chain anchors', async () => {
    const env = { PATH: process.env.PATH, DATA_DIR: h.app.env.dataDir, DATABASE_URL: h.app.env.databaseUrl ?? '', ANCHOR_RPC_URL: chain.url, ANCHOR_PRIVATE_KEY: PLATFORM_KEY };
    const run = () => spawnSync(process.execPath, [path.join(repo, 'scripts/ledger-verify.ts')], { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });
    const ok = run();
    expect(ok.status, `${ok.stdout}${ok.stderr}`).toBe(0);
    expect(ok.stdout).toContain('1 anchors');
    // The attack: the database loses its newest anchor record (and with it the tail it covered).
    const newest = await h.app.db.selectFrom('ledger_checkpoint_anchors').selectAll().orderBy('height', 'desc').executeTakeFirstOrThrow();
    await h.app.db.deleteFrom('ledger_checkpoint_anchors').where('height', '=', newest.height).execute();
    const after = run();
    expect(after.status).toBe(1);
    expect(after.stderr).toMatch(/the newest \d+ are missing from the database/);
  });
});

describe('a node that hangs', () => {
  it('never blocks sealing or checkpoints; the anchoring attempt times out and gives up until the next interval', { timeout: 60_000 }, async () => {
    const sockets: net.Socket[] = [];
    const hang = net.createServer((s) => void sockets.push(s)); // accepts, never answers
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(hang.address() as net.AddressInfo).port}`;
    Object.assign(process.env, { ANCHOR_RPC_URL: url, ANCHOR_PRIVATE_KEY: PLATFORM_KEY, ANCHOR_INTERVAL: '1h', ANCHOR_RPC_TIMEOUT_MS: '1000' });
    let stuck: Harness;
    try {
      stuck = await startHarness();
    } finally {
      for (const k of ['ANCHOR_RPC_URL', 'ANCHOR_PRIVATE_KEY', 'ANCHOR_INTERVAL', 'ANCHOR_RPC_TIMEOUT_MS']) delete process.env[k];
    }
    try {
      await stuck.app.registerEntry({ fileHash: `0x${sha('hung')}`, enterpriseName: 'Hang Ltd', registrantUserId: null, kind: 'asset' });
      await stuck.app.ledger.sealNow();
      let isTickDone = false;
      const tick = stuck.app.anchoring!.tick().then(() => (isTickDone = true));
      // While the anchor attempt is stuck on the node, blocks and checkpoints go on.
      await stuck.app.registerEntry({ fileHash: `0x${sha('hung 2')}`, enterpriseName: 'Hang Ltd', registrantUserId: null, kind: 'asset' });
      const block = await stuck.app.ledger.sealNow();
      expect(isTickDone).toBe(false);
      expect(block?.height).toBe(2);
      const cp = await stuck.request({ method: 'GET', url: '/api/v1/ledger/checkpoint' });
      expect(cp.body).toContain(`\n${block!.tree_size}\n`);
      await tick; // timed out and retried, then gave up without throwing
      expect(await stuck.app.db.selectFrom('ledger_checkpoint_anchors').selectAll().execute()).toHaveLength(0);
      // As the job the leader schedules, the same failure is recorded for operators and retried.
      await stuck.app.jobs.send('ledger.anchor');
      let job: { state: string; attempts: number; last_error: string | null } | undefined;
      for (let i = 0; i < 300 && !(job && job.state === 'retry'); i++) {
        job = (await stuck.app.jobs.list()).find((j) => j.name === 'ledger.anchor');
        if (job?.state !== 'retry') await new Promise((r) => setTimeout(r, 50));
      }
      expect(job).toMatchObject({ state: 'retry', attempts: 1 });
      expect(job!.last_error).toBeTruthy();
    } finally {
      await stuck.close();
      for (const s of sockets) s.destroy();
      hang.close();
    }
  });
});
