import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toHex, utf8 } from '../../core/ledger/bytes.ts';
import { leafHash } from '../../core/ledger/merkle.ts';
import { assetDna, encodeRecord, fileCommitment } from '../../core/ledger/record.ts';
import { fromHex } from '../../core/ledger/bytes.ts';
import { assetDnaOf, fileCommitmentHex, leafHashHex } from '../../server/ledger/entry-hashes.ts';

describe("the server's native entry hashes", () => {
  it('give the same commitment, DNA and leaf hash as core for any salt, file digest and record', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }),
        fc.nat(),
        (salt, file, enterpriseName, registeredAt) => {
          const commitment = fileCommitmentHex(salt, toHex(file));
          expect(commitment).toBe(fileCommitment(salt, file));
          const record = encodeRecord({ v: 1, kind: 'file', commitment, enterprise_name: enterpriseName, registered_at: registeredAt });
          expect(assetDnaOf(record)).toBe(assetDna(record));
          expect(leafHashHex(record)).toBe(toHex(leafHash(utf8.encode(record))));
        },
      ),
    );
  });

  it('refuse a salt or digest of the wrong length, as core does', () => {
    expect(() => fileCommitmentHex(new Uint8Array(31), '00'.repeat(32))).toThrow();
    expect(() => fileCommitmentHex(new Uint8Array(32), '00'.repeat(31))).toThrow();
    expect(() => fileCommitment(new Uint8Array(32), fromHex('00'.repeat(31)))).toThrow();
  });
});
