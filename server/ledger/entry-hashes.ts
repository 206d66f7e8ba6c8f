import { createHash } from 'node:crypto';
import { toBase32 } from '../../core/ledger/bytes.ts';
import { COMMITMENT_TAG, DNA_TAG } from '../../core/ledger/record.ts';

/**
 * A new ledger entry's three SHA-256 values (commitment, DNA, leaf hash) with Node's native
 * hash: the same constructions as core's fileCommitment, assetDna and leafHash (which stay
 * the definition, and what verifiers and the audit run), computed without the portable
 * JavaScript SHA-256 and hex loop that core uses in every runtime. At registration they were
 * a fifth of the CPU time of bench:ledger's registrations. tests/server/entry-hashes.test.ts
 * checks that both give the same values.
 */
const LEAF_PREFIX = new Uint8Array([0]);

/** Hex SHA-256("provena-commitment-v1" ‖ 0x00 ‖ salt ‖ SHA-256(file)), as fileCommitment. */
export function fileCommitmentHex(salt: Uint8Array, fileSha256Hex: string): string {
  const digest = Buffer.from(fileSha256Hex, 'hex');
  if (salt.length !== 32 || digest.length !== 32) throw new Error('salt and file digest are 32 bytes each');
  return createHash('sha256').update(COMMITMENT_TAG).update(salt).update(digest).digest('hex');
}

/** "pv" + base32 of the first 100 bits of SHA-256("provena-dna-v1" ‖ 0x00 ‖ record), as assetDna. */
export function assetDnaOf(recordText: string): string {
  const digest = createHash('sha256').update(DNA_TAG).update(recordText, 'utf8').digest();
  return `pv${toBase32(digest.subarray(0, 13)).slice(0, 20)}`;
}

/** Hex RFC 6962 leaf hash SHA-256(0x00 ‖ record), as toHex(leafHash(utf8(record))). */
export function leafHashHex(recordText: string): string {
  return createHash('sha256').update(LEAF_PREFIX).update(recordText, 'utf8').digest('hex');
}
