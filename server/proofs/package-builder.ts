import { toBase64, toHex, utf8 } from '../../core/ledger/bytes.ts';
import { signText } from '../../core/ledger/block.ts';
import { leafHash } from '../../core/ledger/merkle.ts';
import { encodeStatement, PACKAGE_FORMAT, PACKAGE_VERSION, type Anchor, type ProofPackage, type ProofStatement } from '../../core/ledger/package.ts';
import type { Ledger, BlockRow } from '../ledger/ledger.ts';

export type EntryRow = {
  dna: string;
  record: string;
  file_hash: string;
  salt: string;
  leaf_index: number | null;
  block_height: number | null;
  enterprise_name: string;
  registered_at: number;
};

/**
 * Builds and signs the proof package of a sealed entry. The audit path is taken to the
 * entry's own block, whose header and signature travel with it; the statement binds the
 * issue and expiry times to the entry and block under the platform's signature.
 */
export async function buildProofPackage(ledger: Ledger, entry: EntryRow, block: BlockRow, times: { issuedAt: number; expiresAt: number; anchor?: Anchor | null; anchorAddress?: string; checkpoint?: ProofPackage['checkpoint'] }): Promise<ProofPackage> {
  if (entry.leaf_index === null) throw new Error(`entry ${entry.dna} is not sealed yet`);
  const leafIndex = Number(entry.leaf_index);
  const header = JSON.parse(block.header) as ProofPackage['block']['header'];
  // The key that signed the block signs the statement and travels in the package (a rotated key included).
  const key = await ledger.keyFor(header.key_id);
  const statement: ProofStatement = {
    v: 1,
    asset_dna: entry.dna,
    leaf_hash: toHex(leafHash(utf8.encode(entry.record))),
    block_height: block.height,
    block_hash: block.hash,
    issued_at: times.issuedAt,
    expires_at: times.expiresAt,
    ...(times.anchorAddress ? { anchor_address: times.anchorAddress.toLowerCase() } : {}),
    // Every certificate is signed (PAdES) from here on: a copy without its signature was stripped.
    page: 'pades',
  };
  return {
    format: PACKAGE_FORMAT,
    version: PACKAGE_VERSION,
    asset_dna: entry.dna,
    file_hash: entry.file_hash,
    salt: entry.salt,
    record: entry.record,
    leaf_index: leafIndex,
    block: { header, hash: block.hash, signature: block.signature },
    inclusion: ledger.inclusionProof(leafIndex, Number(block.tree_size)),
    platform_key: { key_id: key.keyId, algorithm: 'ECDSA-P256-SHA256', spki: toBase64(key.spki) },
    platform_certificates: key.certificates.map(toBase64),
    statement: { ...statement, signature: await signText(key.signer.sign, encodeStatement(statement)) },
    ...(times.checkpoint ? { checkpoint: times.checkpoint } : {}),
    anchor: times.anchor ?? null,
    explorer_url: `${ledger.config.publicUrl}/explorer/entries/${entry.dna}`,
  };
}
