import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import ganache from 'ganache';
import { JsonRpcProvider } from 'ethers';
import { startHarness, type Harness } from './harness.ts';
import { decodePackage, verifyCertificate } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { ANCHOR_TAG_HEX } from '../../server/ledger/anchor.ts';
import { checkAnchor, jsonRpc } from '../../core/ledger/anchor-check.ts';

// An in-process EVM chain (ganache) with a funded, deterministic account.
const port = 20000 + Math.floor(Math.random() * 20000);
const chain = ganache.server({ logging: { quiet: true }, wallet: { deterministic: true }, chain: { chainId: 1337 } } as never);
const FUNDED_KEY = '0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d';

let h: Harness;
let cookie: string;
let userId: number;
beforeAll(async () => {
  await chain.listen(port);
  process.env.ANCHOR_RPC_URL = `http://127.0.0.1:${port}`;
  process.env.ANCHOR_PRIVATE_KEY = FUNDED_KEY;
  try {
    h = await startHarness();
  } finally {
    delete process.env.ANCHOR_RPC_URL;
    delete process.env.ANCHOR_PRIVATE_KEY;
  }
  const phone = `136${String(process.pid % 10000).padStart(4, '0')}0001`;
  cookie = await h.register(phone);
  userId = Number((await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', phone).executeTakeFirstOrThrow()).id);
});
afterAll(async () => {
  await h?.close();
  await chain.close();
});

describe('EVM anchoring', () => {
  it('anchors each sealed block once, and certificates carry the anchor transaction', async () => {
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    const dnas: string[] = [];
    for (const content of ['anchored one', 'anchored two']) {
      // The ledger's in-process registration service, as a feature service calls it after its checks.
      const registration = await h.app.registerEntry({ fileHash: `0x${sha(content)}`, enterpriseName: 'Anchor Ltd', registrantUserId: userId, kind: 'file' });
      dnas.push(registration.dna);
    }
    const block = await h.app.ledger.sealNow();
    await h.app.proofs.drain();

    const pdfs = await Promise.all(dnas.map((dna) => h.request({ method: 'GET', url: `/verify-api/v1/public/zkp-proof-request?zkp_register_dna=${dna}`, cookie })));
    const packages = await Promise.all(pdfs.map(async (p) => decodePackage((await extractPackageNode(new Uint8Array(p.rawPayload)))!)));
    const anchor = packages[0]!.anchor!;
    expect(anchor).toMatchObject({ chain_id: 1337 });
    expect(packages[1]!.anchor).toEqual(anchor); // one transaction per block

    // The transaction on the chain carries the tag and this block's hash.
    const provider = new JsonRpcProvider(`http://127.0.0.1:${port}`);
    const tx = await provider.getTransaction(anchor.tx_hash);
    expect(tx?.data).toBe(`0x${ANCHOR_TAG_HEX}${block!.hash}`);
    expect(tx?.blockNumber).toBe(anchor.block_number);
    provider.destroy();

    const explorer = (await h.request({ method: 'GET', url: `/api/v1/explorer/blocks/${block!.height}` })).json().data;
    expect(explorer.anchor).toEqual(anchor);

    // Trust fails closed: the verifier pins the platform's published roots.
    const roots = ((await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string }[]).map((r) => r.fingerprint);
    const verdict = await verifyCertificate(new Uint8Array(pdfs[0]!.rawPayload), extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots });
    expect(verdict.isValid).toBe(true);
    expect(verdict.checks.find((c) => c.id === 'anchor')?.detail).toContain(anchor.tx_hash);

    // Asked of a node of the chain, the anchor is checked, not only reported.
    const rpc = jsonRpc(`http://127.0.0.1:${port}`);
    const checked = await verifyCertificate(new Uint8Array(pdfs[0]!.rawPayload), extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: rpc, isAnchorRequired: true });
    expect(checked.isValid).toBe(true);
    const anchorCheck = checked.checks.find((c) => c.id === 'anchor')!;
    expect(anchorCheck.isSkipped).toBeFalsy();
    expect(anchorCheck.detail).toContain('carries this block hash');

    // The same anchor against another block's hash, another block number, another chain,
    // a transaction that does not exist; and an unreachable node, required or not.
    expect(await checkAnchor(anchor, 'ab'.repeat(32), rpc)).toMatchObject({ isOk: false, detail: expect.stringContaining('does not carry this block hash') });
    expect(await checkAnchor({ ...anchor, block_number: anchor.block_number + 1 }, block!.hash, rpc)).toMatchObject({ isOk: false });
    expect(await checkAnchor({ ...anchor, chain_id: 1 }, block!.hash, rpc)).toMatchObject({ isOk: false, detail: expect.stringContaining('chain 1337') });
    expect(await checkAnchor({ ...anchor, tx_hash: `0x${'cd'.repeat(32)}` }, block!.hash, rpc)).toMatchObject({ isOk: false, detail: expect.stringContaining('is not on chain') });
    const nowhere = jsonRpc('http://127.0.0.1:9/', 2000);
    const required = await verifyCertificate(new Uint8Array(pdfs[0]!.rawPayload), extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: nowhere, isAnchorRequired: true });
    expect(required).toMatchObject({ isValid: false, failedCheck: 'anchor' });
    const optional = await verifyCertificate(new Uint8Array(pdfs[0]!.rawPayload), extractPackageNode, { fileSha256: sha('anchored one'), now: Date.now(), trustedRootFingerprints: roots, anchorRpc: nowhere });
    expect(optional.isValid).toBe(true);
    expect(optional.checks.find((c) => c.id === 'anchor')).toMatchObject({ isSkipped: true, detail: expect.stringContaining('could not ask the chain') });

    // The server's §7 verify API checks it with the platform's own node.
    const form = new FormData();
    form.append('hash', `0x${sha('anchored one')}`);
    form.append('file', new Blob([new Uint8Array(pdfs[0]!.rawPayload)], { type: 'application/pdf' }), 'proof.pdf');
    const body = new Response(form);
    const res = await h.app.inject({ method: 'PUT', url: '/verify-api/v1/public/zkp-proof-verify', payload: Buffer.from(await body.arrayBuffer()), headers: { 'content-type': body.headers.get('content-type')! } });
    expect(res.statusCode, res.body).toBe(200);
    const apiAnchor = (res.json().data.checks as { id: string; ok: boolean; skipped: boolean; detail: string }[]).find((c) => c.id === 'anchor')!;
    expect(apiAnchor).toMatchObject({ ok: true, skipped: false });
  });
});
