import fs from 'node:fs';
import { openWithPassphrase, sealWithPassphrase, type OfflineEnvelope } from '../keys/passphrase-seal.ts';
import path from 'node:path';
import http from 'node:http';
import { equalBytes, fromBase64 } from '../../core/ledger/bytes.ts';
import { parseCheckpointBody, parseSignedNote, verifyCheckpoint } from '../../core/ledger/checkpoint.ts';
import { EMPTY_ROOT, verifyConsistency } from '../../core/ledger/merkle.ts';
import { cosign } from '../../core/ledger/witness.ts';

/**
 * A C2SP tlog-witness (add-checkpoint) for Provena logs: it cosigns a checkpoint only
 * when the log's key signed it and it is consistent with the last one it cosigned for
 * that origin, so a log that rewinds or forks is caught by anyone who checks for its
 * cosignature. State is one JSON file (latest size and root per origin), written and
 * renamed before answering; requests are handled one at a time, so the check of the old
 * size and the update are atomic. Runs standalone: `node scripts/witness.ts`.
 */
export type WitnessOptions = {
  name: string;
  privateKey: CryptoKey;
  publicKey: Uint8Array;
  /** Origin → the log's ECDSA public keys (DER SPKI) the witness trusts for it. */
  logs: Map<string, Uint8Array[]>;
  stateFile: string;
};

type State = Record<string, { size: number; root: string }>;
export type WitnessAnswer = { status: number; contentType: string; body: string };

export function createWitness(opts: WitnessOptions) {
  let queue: Promise<unknown> = Promise.resolve();
  const readState = (): State => {
    try {
      return JSON.parse(fs.readFileSync(opts.stateFile, 'utf8')) as State;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
  };
  const writeState = (state: State) => {
    const temp = `${opts.stateFile}.${process.pid}.tmp`;
    fs.mkdirSync(path.dirname(opts.stateFile), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
    fs.renameSync(temp, opts.stateFile);
  };
  const text = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): WitnessAnswer => ({ status, contentType, body });

  async function addCheckpoint(request: string): Promise<WitnessAnswer> {
    const split = request.indexOf('\n\n');
    if (split < 0) return text(400, 'no empty line before the checkpoint\n');
    const head = request.slice(0, split).split('\n');
    const oldMatch = /^old (0|[1-9][0-9]{0,15})$/.exec(head[0] ?? '');
    if (!oldMatch || head.length - 1 > 63) return text(400, 'bad old size line or too many proof lines\n');
    const proof: Uint8Array[] = [];
    for (const line of head.slice(1)) {
      if (!/^[A-Za-z0-9+/]{43}=$/.test(line)) return text(400, 'bad consistency proof line\n');
      proof.push(fromBase64(line));
    }
    const oldSize = Number(oldMatch[1]);
    const note = request.slice(split + 2);
    const signed = parseSignedNote(note);
    const body = signed ? parseCheckpointBody(signed.text) : null;
    if (!signed || !body) return text(400, 'not a checkpoint\n');
    const keys = opts.logs.get(body.origin);
    if (!keys) return text(404, 'unknown log origin\n');
    let isSigned = false;
    for (const spki of keys) {
      const verdict = await verifyCheckpoint(note, spki, body.origin);
      if (verdict.isOk) isSigned = true;
      else if (verdict.detail !== 'checkpoint is not signed by the platform key') return text(403, `${verdict.detail}\n`);
    }
    if (!isSigned) return text(403, 'no signature from a trusted log key\n');
    if (oldSize > body.treeSize) return text(400, 'old size is larger than the checkpoint\n');

    const state = readState();
    const latest = state[body.origin] ?? { size: 0, root: '' };
    if (oldSize !== latest.size) return text(409, `${latest.size}\n`, 'text/x.tlog.size');
    if (body.treeSize === 0 && !equalBytes(body.root, EMPTY_ROOT)) return text(422, 'empty tree with a non-empty root\n');
    if (oldSize === 0) {
      if (proof.length !== 0) return text(422, 'a proof from size 0 must be empty\n');
    } else if (!verifyConsistency(oldSize, body.treeSize, fromBase64(latest.root), body.root, proof)) {
      return text(422, 'the consistency proof does not verify\n');
    }
    state[body.origin] = { size: body.treeSize, root: Buffer.from(body.root).toString('base64') };
    writeState(state);
    return text(200, await cosign(signed.text, { name: opts.name, privateKey: opts.privateKey, publicKey: opts.publicKey }));
  }

  return {
    /** Handles one add-checkpoint body; calls run one at a time. */
    addCheckpoint(request: string): Promise<WitnessAnswer> {
      const next = queue.catch(() => undefined).then(() => addCheckpoint(request));
      queue = next;
      return next;
    },
  };
}

/** An HTTP server for the witness: `POST <prefix>/add-checkpoint`, nothing else. */
export function witnessServer(witness: ReturnType<typeof createWitness>, prefix = ''): http.Server {
  return http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== `${prefix}/add-checkpoint`) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      witness
        .addCheckpoint(Buffer.concat(chunks).toString('utf8'))
        .then((a) => res.writeHead(a.status, { 'content-type': a.contentType }).end(a.body))
        .catch(() => res.writeHead(500).end());
    });
  });
}

/**
 * The witness's Ed25519 key, kept in `file` sealed under `passphrase` (PBES2, never as
 * plaintext), created 0600 on first use. A plaintext PKCS#8 file from an older version is
 * sealed in place.
 */
export async function loadOrCreateWitnessKey(file: string, passphrase: string): Promise<{ privateKey: CryptoKey; publicKey: Uint8Array }> {
  if (!passphrase) throw new Error('the witness key needs a passphrase (WITNESS_KEY_PASSPHRASE)');
  const label = 'provena-witness-key';
  let pkcs8: Uint8Array;
  try {
    const stored = fs.readFileSync(file);
    if (stored[0] === 0x7b /* { */) {
      try {
        pkcs8 = new Uint8Array(await openWithPassphrase(JSON.parse(stored.toString('utf8')) as OfflineEnvelope, passphrase, label));
      } catch (error) {
        if (error instanceof Error && error.name === 'OperationError') throw new Error(`${file} does not open with this WITNESS_KEY_PASSPHRASE`);
        throw error;
      }
    } else {
      pkcs8 = new Uint8Array(stored);
      const tmp = `${file}.sealing`;
      fs.writeFileSync(tmp, await sealWithPassphrase(pkcs8, passphrase, label), { mode: 0o600 });
      fs.renameSync(tmp, file);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
    pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, await sealWithPassphrase(pkcs8, passphrase, label), { mode: 0o600, flag: 'wx' });
  }
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8 as Uint8Array<ArrayBuffer>, 'Ed25519', true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', privateKey);
  const publicKey = fromBase64((jwk.x as string).replace(/-/g, '+').replace(/_/g, '/') + '=');
  return { privateKey, publicKey: publicKey };
}
