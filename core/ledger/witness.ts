/**
 * C2SP tlog-cosignature (cosignature/v1, Ed25519, signature type 0x04) and vkeys: what a
 * witness signs over a checkpoint, and how the log checks a witness's answer.
 */
import { concat, equalBytes, fromBase64, toBase64, toHex, utf8 } from './bytes.ts';
import { ed25519NoteKeyId, parseSignedNote, SIG_TYPE_COSIGNATURE_V1, signatureLine } from './checkpoint.ts';

export type Vkey = { name: string; keyId: Uint8Array; type: number; publicKey: Uint8Array };

/** `<name>+<8 hex key ID>+<base64(type ‖ public key)>` (C2SP signed-note vkey). */
export function parseVkey(vkey: string): Vkey | null {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(vkey.trim());
  if (!m) return null;
  let raw: Uint8Array;
  try {
    raw = fromBase64(m[3] as string);
  } catch {
    return null;
  }
  if (raw.length < 2) return null;
  const type = raw[0] as number;
  const publicKey = raw.subarray(1);
  const name = m[1] as string;
  const keyId = ed25519NoteKeyId(name, type, publicKey);
  if (toHex(keyId) !== m[2]) return null;
  return { name, keyId, type, publicKey };
}

export function encodeVkey(name: string, type: number, publicKey: Uint8Array): string {
  return `${name}+${toHex(ed25519NoteKeyId(name, type, publicKey))}+${toBase64(concat(new Uint8Array([type]), publicKey))}`;
}

/** The signed message: "cosignature/v1\ntime <t>\n" then the checkpoint's note text. */
export function cosignatureMessage(noteText: string, timestamp: number): Uint8Array {
  return utf8.encode(`cosignature/v1\ntime ${timestamp}\n${noteText}`);
}

function u64(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

/** A cosignature/v1 line for `noteText` by an Ed25519 key (timestamp in seconds). */
export async function cosign(noteText: string, key: { name: string; privateKey: CryptoKey; publicKey: Uint8Array }, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  const signature = new Uint8Array(await crypto.subtle.sign('Ed25519', key.privateKey, cosignatureMessage(noteText, timestamp) as Uint8Array<ArrayBuffer>));
  return signatureLine(key.name, ed25519NoteKeyId(key.name, SIG_TYPE_COSIGNATURE_V1, key.publicKey), concat(u64(timestamp), signature));
}

/**
 * The witness's verified cosignature lines on `noteText` among `lines` (signature lines as a
 * witness returns them). Lines from other keys are ignored; a line from this key that does
 * not verify makes the whole answer invalid (null).
 */
export async function verifyCosignatures(noteText: string, lines: string, witness: Vkey): Promise<{ lines: string[]; timestamps: number[] } | null> {
  if (witness.type !== SIG_TYPE_COSIGNATURE_V1 || witness.publicKey.length !== 32) return null;
  const parsed = parseSignedNote(`${noteText}\n${lines.endsWith('\n') ? lines : `${lines}\n`}`);
  if (!parsed || parsed.text !== noteText) return null;
  const key = await crypto.subtle.importKey('raw', witness.publicKey as Uint8Array<ArrayBuffer>, 'Ed25519', false, ['verify']);
  const good: string[] = [];
  const timestamps: number[] = [];
  for (const s of parsed.signatures) {
    if (s.name !== witness.name || !equalBytes(s.keyId, witness.keyId)) continue;
    if (s.signature.length !== 72) return null;
    const timestamp = Number(new DataView(s.signature.buffer, s.signature.byteOffset, 8).getBigUint64(0));
    if (!Number.isSafeInteger(timestamp) || timestamp === 0) return null;
    const isOk = await crypto.subtle.verify('Ed25519', key, s.signature.subarray(8) as Uint8Array<ArrayBuffer>, cosignatureMessage(noteText, timestamp) as Uint8Array<ArrayBuffer>);
    if (!isOk) return null;
    good.push(signatureLine(s.name, s.keyId, s.signature));
    timestamps.push(timestamp);
  }
  return good.length ? { lines: good, timestamps } : null;
}
