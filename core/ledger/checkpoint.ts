/**
 * Checkpoints: the log's signed statement of its size and root after every sealed block,
 * in the C2SP tlog-checkpoint format, as a C2SP signed note.
 *
 *     <origin>\n<tree size>\n<base64 root>\n\n— <key name> base64(key ID[4] || signature)\n
 *
 * Signature type: 0x02 (ECDSA, as github.com/transparency-dev/witness implements it) —
 * the block-signing key is ECDSA P-256, and type 0x02 signs the note text itself with it:
 * ASN.1 DER ECDSA over SHA-256(note text), key ID = SHA-256(DER SPKI)[:4]. Type 0x05
 * (RFC 6962 TreeHeadSignature) would sign a CT-specific binary structure with a timestamp
 * instead of the note, and Ed25519 would need a second platform key to guard and rotate.
 * docs/proof-format.md "Checkpoint" describes it.
 */
import { concat, equalBytes, fromBase64, sha256, toBase64, toHex, utf8 } from './bytes.ts';
import { derToP1363, importPublicKey, p1363ToDer } from './block.ts';

/** Signs bytes with the platform's ECDSA P-256 key, SHA-256, returning r‖s (IEEE P1363, 64 bytes). */
export type P1363Sign = (data: Uint8Array) => Promise<Uint8Array>;

export type CheckpointBody = { origin: string; treeSize: number; root: Uint8Array };

export const SIG_TYPE_ECDSA = 0x02;
export const SIG_TYPE_COSIGNATURE_V1 = 0x04;

/** The origin line: the host of PUBLIC_URL (and its path, if any) + "/provena". */
export function checkpointOrigin(publicUrl: string): string {
  const u = new URL(publicUrl);
  return `${u.host}${u.pathname.replace(/\/+$/, '')}/provena`;
}

export function encodeCheckpointBody(b: CheckpointBody): string {
  if (!b.origin || /[\s+]/.test(b.origin)) throw new Error('checkpoint origin must be non-empty, without spaces or "+"');
  if (!Number.isSafeInteger(b.treeSize) || b.treeSize < 0) throw new Error('tree size must be a non-negative integer');
  if (b.root.length !== 32) throw new Error('root must be 32 bytes');
  return `${b.origin}\n${b.treeSize}\n${toBase64(b.root)}\n`;
}

/** Parses the note text of a checkpoint (extension lines are ignored). */
export function parseCheckpointBody(text: string): CheckpointBody | null {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') return null;
  const [origin, size, root] = lines as [string, string, string];
  if (!origin || !/^(0|[1-9][0-9]{0,15})$/.test(size) || !/^[A-Za-z0-9+/]{43}=$/.test(root)) return null;
  const treeSize = Number(size);
  if (!Number.isSafeInteger(treeSize)) return null;
  return { origin, treeSize, root: fromBase64(root) };
}

/** The signed-note key ID of an ECDSA (type 0x02) key: SHA-256 of its DER SPKI, first 4 bytes. */
export function ecdsaNoteKeyId(spki: Uint8Array): Uint8Array {
  return sha256(spki).subarray(0, 4);
}

/** The signed-note key ID of an Ed25519 key of the given type (0x01 note signer, 0x04 cosigner). */
export function ed25519NoteKeyId(name: string, type: number, publicKey: Uint8Array): Uint8Array {
  return sha256(concat(utf8.encode(name), new Uint8Array([0x0a, type]), publicKey)).subarray(0, 4);
}

export type NoteSignature = { name: string; keyId: Uint8Array; signature: Uint8Array };
export type SignedNote = { text: string; signatures: NoteSignature[] };

/** Splits a signed note into its text and signature lines; null when it is not one. */
export function parseSignedNote(note: string): SignedNote | null {
  const at = note.lastIndexOf('\n\n');
  if (at < 0 || !note.endsWith('\n')) return null;
  const text = note.slice(0, at + 1);
  const signatures: NoteSignature[] = [];
  for (const line of note.slice(at + 2, -1).split('\n')) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) return null;
    let raw: Uint8Array;
    try {
      raw = fromBase64(m[2] as string);
    } catch {
      return null;
    }
    if (raw.length < 5) return null;
    signatures.push({ name: m[1] as string, keyId: raw.subarray(0, 4), signature: raw.subarray(4) });
  }
  return signatures.length ? { text, signatures } : null;
}

export function signatureLine(name: string, keyId: Uint8Array, signature: Uint8Array): string {
  return `\u2014 ${name} ${toBase64(concat(keyId, signature))}\n`;
}

/**
 * Signs a checkpoint with the platform key through `sign` (a software key, an HSM…):
 * the key name is the origin, the key ID that of type 0x02 for `spki`.
 */
export async function signCheckpoint(body: CheckpointBody, key: { spki: Uint8Array; sign: P1363Sign }): Promise<string> {
  const text = encodeCheckpointBody(body);
  const signature = p1363ToDer(await key.sign(utf8.encode(text)));
  return `${text}\n${signatureLine(body.origin, ecdsaNoteKeyId(key.spki), signature)}`;
}

/** P1363 signing with a WebCrypto private key: what signCheckpoint needs from a CryptoKey. */
export function cryptoKeySigner(privateKey: CryptoKey): P1363Sign {
  return async (data) => new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, data as Uint8Array<ArrayBuffer>));
}

export type CheckpointVerdict = { isOk: true; body: CheckpointBody; text: string } | { isOk: false; detail: string };

/** Verifies a checkpoint note against the platform key (SPKI): the origin's type-0x02 signature must verify. */
export async function verifyCheckpoint(note: string, spki: Uint8Array, expectedOrigin?: string): Promise<CheckpointVerdict> {
  const signed = parseSignedNote(note);
  if (!signed) return { isOk: false, detail: 'not a signed note' };
  const body = parseCheckpointBody(signed.text);
  if (!body) return { isOk: false, detail: 'not a tlog checkpoint' };
  if (expectedOrigin !== undefined && body.origin !== expectedOrigin) return { isOk: false, detail: `checkpoint origin is ${body.origin}, expected ${expectedOrigin}` };
  const id = ecdsaNoteKeyId(spki);
  const mine = signed.signatures.filter((s) => s.name === body.origin && equalBytes(s.keyId, id));
  if (mine.length === 0) return { isOk: false, detail: 'checkpoint is not signed by the platform key' };
  const key = await importPublicKey(spki);
  for (const s of mine) {
    let raw: Uint8Array;
    try {
      raw = derToP1363(s.signature);
    } catch {
      return { isOk: false, detail: 'checkpoint signature is malformed' };
    }
    if (!(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw as Uint8Array<ArrayBuffer>, utf8.encode(signed.text) as Uint8Array<ArrayBuffer>))) {
      return { isOk: false, detail: 'checkpoint signature does not verify' };
    }
  }
  return { isOk: true, body, text: signed.text };
}

/** What an anchor transaction carries for a checkpoint: SHA-256 of its note text (origin, size, root). */
export function checkpointHash(text: string): string {
  return toHex(sha256(utf8.encode(text)));
}
