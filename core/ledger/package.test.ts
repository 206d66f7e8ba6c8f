import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromHex, toHex, utf8 } from './bytes.ts';
import { certificateFingerprint } from './platform-cert.ts';
import { blockHash, derToP1363, encodeHeader, p1363ToDer } from './block.ts';
import { leafHash, rootFromInclusionProof } from './merkle.ts';
import { assetDna, fileCommitment, parseRecord } from './record.ts';
import { decodePackage, encodePackage, gzip, verifyPackage, type ProofPackage } from './package.ts';

// The committed test vector (scripts/make-proof-vectors.ts; docs/proof-format.md walks through it).
const FIX = 'tests/fixtures/proof';
const gz = new Uint8Array(fs.readFileSync(`${FIX}/provena-proof.json.gz`));
const json = JSON.parse(fs.readFileSync(`${FIX}/provena-proof.json`, 'utf8')) as ProofPackage;
const keyId = JSON.parse(fs.readFileSync(`${FIX}/platform-key.json`, 'utf8')).key_id as string;
const original = new Uint8Array(fs.readFileSync(`${FIX}/original.txt`));
const digest = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', original)));
const FAR_PAST = Date.parse('2026-01-01T00:00:00Z');

describe('proof package v1 test vector', () => {
  it('decodes to the documented JSON', async () => {
    expect(await decodePackage(gz)).toEqual(json);
  });

  it('every derived value recomputes by hand, as docs/proof-format.md describes', () => {
    const record = parseRecord(json.record)!;
    expect(record.commitment).toBe(fileCommitment(fromHex(json.salt), fromHex(digest)));
    expect(assetDna(json.record)).toBe(json.asset_dna);
    const leaf = leafHash(utf8.encode(json.record));
    expect(toHex(rootFromInclusionProof(leaf, json.leaf_index, json.block.header.tree_size, json.inclusion.map(fromHex))!)).toBe(json.block.header.root);
    expect(blockHash(json.block.header)).toBe(json.block.hash);
    expect(encodeHeader(json.block.header)).toBe(JSON.stringify(json.block.header));
  });

  it('verifies with a pinned key and fails with each tamper', async () => {
    const ok = await verifyPackage(gz, { fileSha256: digest, now: FAR_PAST, trustedKeyIds: [keyId] });
    expect(ok.isValid).toBe(true);
    expect(ok.summary).toMatchObject({ asset_dna: json.asset_dna, enterprise_name: '西安示例科技有限公司' });

    const cases: [Partial<ProofPackage>, string, string][] = [
      [{ salt: '00'.repeat(32) }, 'commitment', 'file_hashes_inconsistent'],
      [{ asset_dna: 'pvaaaaaaaaaaaaaaaaaaaa' }, 'asset_dna', 'file_hashes_inconsistent'],
      [{ leaf_index: json.leaf_index + 1 }, 'inclusion', 'file_hashes_inconsistent'],
      [{ block: { ...json.block, signature: json.statement.signature } }, 'block_signature', 'file_hashes_inconsistent'],
      [{ statement: { ...json.statement, issued_at: json.statement.issued_at - 1 } }, 'statement_signature', 'file_hashes_inconsistent'],
      [{ platform_key: { ...json.platform_key, spki: 'AAAA' } }, 'platform_certificate', 'file_hashes_inconsistent'],
      [{ platform_key: { ...json.platform_key, spki: 'AAAA' }, platform_certificates: undefined }, 'platform_key', 'parse_pdf_failed'],
    ];
    for (const [patch, check, key] of cases) {
      const v = await verifyPackage(await encodePackage({ ...json, ...patch }), { fileSha256: digest, now: FAR_PAST, trustedKeyIds: [keyId] });
      expect(v.isValid, check).toBe(false);
      expect(v.checks.find((c) => !c.isOk)).toMatchObject({ id: check, message: key });
    }
    const wrongFile = await verifyPackage(gz, { fileSha256: 'ab'.repeat(32), now: FAR_PAST });
    expect(wrongFile).toMatchObject({ isValid: false, failedCheck: 'file_hash', message: 'hash_mismatch' });
    const late = await verifyPackage(gz, { fileSha256: digest, now: json.statement.expires_at + 1 });
    expect(late).toMatchObject({ isValid: false, failedCheck: 'expiry', message: 'expiration_time_verification_failed' });
    expect(await verifyPackage(new Uint8Array([1, 2, 3]), { fileSha256: digest, now: 0 })).toMatchObject({ message: 'gzip_invalid_header' });
    expect(await verifyPackage(await gzip(utf8.encode('[]')), { fileSha256: digest, now: 0 })).toMatchObject({ message: 'gzip_invalid_header' });
  });

  it('fails closed: intact but unpinned, or pinned to another key, is untrusted, never valid; a broken proof stays a failed check', async () => {
    const rootFingerprint = certificateFingerprint(fromBase64(json.platform_certificates![1]!));
    const chainless = await encodePackage({ ...json, platform_certificates: undefined });
    for (const pins of [{}, { trustedKeyIds: ['ab'.repeat(32)] }, { trustedRootFingerprints: ['cd'.repeat(32)] }]) {
      // With its certificate chain, the root is what is not trusted.
      const v = await verifyPackage(gz, { fileSha256: digest, now: FAR_PAST, ...pins });
      expect(v).toMatchObject({ isValid: false, isUntrusted: true, failedCheck: 'platform_certificate', message: 'proof_signer_untrusted', signer: { key_id: keyId, root_fingerprint: rootFingerprint } });
      expect(v.checks.filter((c) => !c.isOk).map((c) => c.id)).toEqual(['platform_certificate']);
      // A package from before chains is judged by its key alone.
      const old = await verifyPackage(chainless, { fileSha256: digest, now: FAR_PAST, ...pins });
      expect(old).toMatchObject({ isValid: false, isUntrusted: true, failedCheck: 'platform_key', message: 'proof_signer_untrusted', signer: { key_id: keyId, root_fingerprint: null } });
      expect(old.checks.filter((c) => !c.isOk).map((c) => c.id)).toEqual(['platform_key']);
    }
    expect((await verifyPackage(gz, { fileSha256: digest, now: FAR_PAST, trustedRootFingerprints: [rootFingerprint] })).isValid).toBe(true);
    // A failed check wins over the untrusted signer: the answer names what is broken.
    const wrongFile = await verifyPackage(gz, { fileSha256: 'ab'.repeat(32), now: FAR_PAST });
    expect(wrongFile).toMatchObject({ isValid: false, failedCheck: 'file_hash', message: 'hash_mismatch' });
    expect(wrongFile.isUntrusted).toBeUndefined();
  });

  it('converts ECDSA signatures between DER and r‖s both ways', () => {
    for (const first of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
      const raw = new Uint8Array(64).map((_, i) => (i === 0 || i === 32 ? first : (i * 37) & 255));
      expect(toHex(derToP1363(p1363ToDer(raw)))).toBe(toHex(raw));
    }
  });
});
