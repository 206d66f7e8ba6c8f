/**
 * What one ledger leaf holds, and the identifiers derived from it (docs/proof-format.md).
 * The record never holds the raw file hash: it holds a salted commitment, so the public
 * explorer does not let anyone test "was this file registered?". The proof package
 * carries the salt, which lets its holder open the commitment.
 */
import { concat, sha256, toBase32, toHex, utf8 } from './bytes.ts';

export type LedgerRecord = {
  v: 1;
  /** What was registered: file, vault, source, application … */
  kind: string;
  /** Hex SHA-256("provena-commitment-v1" ‖ 0x00 ‖ salt ‖ SHA-256(file)). */
  commitment: string;
  enterprise_name: string;
  /** Milliseconds since the epoch. */
  registered_at: number;
};

export const KIND_PATTERN = /^[a-z][a-z_]{0,31}$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** The exact bytes that are hashed into the leaf: JSON with this key order and no spaces. */
export function encodeRecord(r: LedgerRecord): string {
  return JSON.stringify({ v: r.v, kind: r.kind, commitment: r.commitment, enterprise_name: r.enterprise_name, registered_at: r.registered_at });
}

/** Parses a record, accepting only the canonical encoding (so one record has one leaf hash). */
export function parseRecord(text: string): LedgerRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  if (r.v !== 1 || typeof r.kind !== 'string' || !KIND_PATTERN.test(r.kind)) return null;
  if (typeof r.commitment !== 'string' || !HEX64.test(r.commitment)) return null;
  if (typeof r.enterprise_name !== 'string' || !Number.isSafeInteger(r.registered_at)) return null;
  const record = r as unknown as LedgerRecord;
  return encodeRecord(record) === text ? record : null;
}

/** Domain tags of the commitment and the DNA (exported for the server's native-hash twin, server/ledger/entry-hashes.ts). */
export const COMMITMENT_TAG = utf8.encode('provena-commitment-v1\0');
export const DNA_TAG = utf8.encode('provena-dna-v1\0');

export function fileCommitment(salt: Uint8Array, fileSha256: Uint8Array): string {
  if (salt.length !== 32 || fileSha256.length !== 32) throw new Error('salt and file digest are 32 bytes each');
  return toHex(sha256(concat(COMMITMENT_TAG, salt, fileSha256)));
}

/**
 * Asset DNA: "pv" + the first 100 bits of SHA-256("provena-dna-v1" ‖ 0x00 ‖ record) in
 * lowercase base32 (20 characters). Short, URL-safe, and recomputable by any verifier;
 * the random salt inside the commitment makes two registrations of one file differ.
 */
export function assetDna(recordText: string): string {
  const digest = sha256(concat(DNA_TAG, utf8.encode(recordText)));
  return `pv${toBase32(digest.subarray(0, 13)).slice(0, 20)}`;
}

export const DNA_PATTERN = /^pv[a-z2-7]{20}$/;
