import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { createHash } from 'node:crypto';
import { startHarness, type Harness } from './harness.ts';
import { createWitness, loadOrCreateWitnessKey, witnessServer } from '../../server/witness/witness.ts';
import { encodeVkey, parseVkey, verifyCosignatures } from '../../core/ledger/witness.ts';
import { checkpointOrigin, parseSignedNote, signCheckpoint, SIG_TYPE_COSIGNATURE_V1 } from '../../core/ledger/checkpoint.ts';
import { checkpointKeyOf } from '../../server/ledger/checkpoints.ts';
import { fromHex, toBase64 } from '../../core/ledger/bytes.ts';

// A real witness (the same code `node scripts/witness.ts` runs) over HTTP on a local port.
const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-witness-'));
const logs = new Map<string, Uint8Array[]>();
let server: net.Server;
let url: string;
let vkey: string;
let h: Harness;

beforeAll(async () => {
  const key = await loadOrCreateWitnessKey(path.join(dir, 'witness.key'), 'a witness passphrase');
  expect(fs.statSync(path.join(dir, 'witness.key')).mode & 0o777).toBe(0o600);
  const witness = createWitness({ name: 'witness.test/w1', ...key, logs, stateFile: path.join(dir, 'state.json') });
  server = witnessServer(witness);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/add-checkpoint`;
  vkey = encodeVkey('witness.test/w1', SIG_TYPE_COSIGNATURE_V1, key.publicKey);
  process.env.WITNESS_URLS = `${url} ${vkey}`;
  try {
    h = await startHarness();
  } finally {
    delete process.env.WITNESS_URLS;
  }
});
afterAll(async () => {
  await h?.close();
  server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function post(body: string) {
  const res = await fetch(url, { method: 'POST', body });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('witness cosigning (C2SP tlog-witness)', () => {
  it('the platform sends each checkpoint with a consistency proof; the witness cosigns; the cosignature verifies', async () => {
    // The witness trusts this platform's checkpoint key; the platform sends to the witness.
    const origin = checkpointOrigin(h.app.ledger.config.publicUrl);
    logs.set(origin, [h.app.ledger.key.spki]);
    for (const label of ['w one', 'w two', 'w three']) {
      await h.app.registerEntry({ fileHash: `0x${sha(label)}`, enterpriseName: 'Witness Ltd', registrantUserId: null, kind: 'asset' });
      await h.app.ledger.sealNow();
    }
    const cp = (await h.app.ledger.currentCheckpoint())!;
    // Sealing does not wait for witnesses: the cosigned checkpoint appears at the route shortly after.
    let cosigned = '';
    for (let i = 0; i < 400 && !cosigned.includes('witness.test/w1'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      cosigned = (await h.request({ method: 'GET', url: '/api/v1/ledger/checkpoint' })).body;
    }
    expect(cosigned.startsWith(cp.note)).toBe(true);
    await h.app.witnessing!.idle();
    const text = parseSignedNote(cp.note)!.text;
    const lines = cosigned.slice(cp.note.length);
    expect(lines).toMatch(/^— witness\.test\/w1 /);
    expect(await verifyCosignatures(text, lines, parseVkey(vkey)!)).not.toBeNull();
    // Stored write-once beside the checkpoint.
    const stored = fs.readFileSync(path.join(h.app.env.dataDir, 'blobs', 'objects', `${checkpointKeyOf(cp.height)}.cosigned`), 'utf8');
    expect(stored).toBe(cosigned);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8'))[origin].size).toBe(cp.treeSize);

    // The witness holds the log to what it cosigned.
    const note = cp.note;
    const size = cp.treeSize;
    // A submission from a stale old size: 409 with the size it holds.
    expect(await post(`old 1\n\n${note}`)).toMatchObject({ status: 409, type: 'text/x.tlog.size', text: `${size}\n` });
    // A forked log: a checkpoint of a larger tree signed by the platform key but not
    // consistent with the cosigned one.
    const forged = await signCheckpoint({ origin, treeSize: size + 1, root: new Uint8Array(32).fill(9) }, h.app.ledger.checkpointKey);
    const proof = h.app.ledger.consistencyProof(size - 1, size).map((x) => `${toBase64(fromHex(x))}\n`).join('');
    expect((await post(`old ${size}\n${proof}\n${forged}`)).status).toBe(422);
    // A checkpoint signed by another key: 403. An unknown origin: 404. Garbage: 400.
    const otherPair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const other = await signCheckpoint({ origin, treeSize: size, root: fromHex(h.app.ledger.rootAt(size)) }, {
      spki: new Uint8Array(await crypto.subtle.exportKey('spki', otherPair.publicKey)),
      sign: async (d) => new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, otherPair.privateKey, d as Uint8Array<ArrayBuffer>)),
    });
    expect((await post(`old ${size}\n\n${other}`)).status).toBe(403);
    expect((await post(`old 0\n\n${note.replaceAll(origin, 'elsewhere.example/log')}`)).status).toBe(404);
    expect((await post('nonsense')).status).toBe(400);
    // The same checkpoint again is fine (old = size, same root).
    expect((await post(`old ${size}\n\n${note}`)).status).toBe(200);
  });

  it('WITNESS_URLS is validated: a URL with a vkey that is not an Ed25519 cosigner key is refused at boot', async () => {
    const { readLedgerConfig } = await import('../../server/ledger/config.ts');
    expect(() => readLedgerConfig({ WITNESS_URLS: 'http://w.example/add-checkpoint not-a-vkey' })).toThrow(/WITNESS_URLS/);
    expect(readLedgerConfig({ WITNESS_URLS: `${url} ${vkey}` }).witnesses).toHaveLength(1);
  });
});
