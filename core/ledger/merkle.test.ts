import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes.ts';
import { EMPTY_ROOT, MerkleLog, leafHash, nodeHash, verifyConsistency, verifyInclusion } from './merkle.ts';

// RFC 6962 reference data as published with the Certificate Transparency implementations
// (certificate-transparency-go merkletree tests; transparency-dev/merkle testonly).
const LEAF_DATA = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(fromHex);
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const INCLUSION = [
  { index: 0, size: 8, path: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { index: 5, size: 8, path: ['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
];
const CONSISTENCY = [
  { first: 2, second: 8, proof: ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { first: 6, second: 8, proof: ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
  { first: 2, second: 5, proof: ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'] },
];

function referenceLog(): MerkleLog {
  const log = new MerkleLog();
  for (const d of LEAF_DATA) log.append(leafHash(d));
  return log;
}

/** The RFC's recursive definition, written naively, as an independent oracle. */
function naiveRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_ROOT;
  if (leaves.length === 1) return leaves[0] as Uint8Array;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(naiveRoot(leaves.slice(0, k)), naiveRoot(leaves.slice(k)));
}

describe('RFC 6962 Merkle tree', () => {
  it('hashes the empty tree and single leaves as the RFC says', () => {
    expect(toHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(leafHash(new Uint8Array()))).toBe(ROOTS[0]);
  });

  it('matches the reference root for every size 1..8', () => {
    const log = referenceLog();
    for (let n = 1; n <= 8; n++) expect(toHex(log.root(n)), `size ${n}`).toBe(ROOTS[n - 1]);
  });

  it('produces and verifies the reference audit paths', () => {
    const log = referenceLog();
    for (const v of INCLUSION) {
      expect(log.inclusionProof(v.index, v.size).map(toHex)).toEqual(v.path);
      expect(verifyInclusion(leafHash(LEAF_DATA[v.index] as Uint8Array), v.index, v.size, v.path.map(fromHex), fromHex(ROOTS[v.size - 1] as string))).toBe(true);
    }
  });

  it('produces and verifies the reference consistency proofs', () => {
    const log = referenceLog();
    for (const v of CONSISTENCY) {
      expect(log.consistencyProof(v.first, v.second).map(toHex)).toEqual(v.proof);
      expect(verifyConsistency(v.first, v.second, fromHex(ROOTS[v.first - 1] as string), fromHex(ROOTS[v.second - 1] as string), v.proof.map(fromHex))).toBe(true);
    }
  });

  const many = Array.from({ length: 70 }, (_, i) => leafHash(new Uint8Array([i, (i * 7) & 255, i >> 3])));
  const log = new MerkleLog();
  for (const h of many) log.append(h);

  it('agrees with the naive recursive definition for sizes 0..70', () => {
    for (let n = 0; n <= many.length; n++) expect(toHex(log.root(n))).toBe(toHex(naiveRoot(many.slice(0, n))));
  });

  it('every inclusion proof in every tree size verifies, and tampered ones do not', () => {
    for (let n = 1; n <= 40; n++) {
      const root = log.root(n);
      for (let i = 0; i < n; i++) {
        const path = log.inclusionProof(i, n);
        expect(verifyInclusion(many[i] as Uint8Array, i, n, path, root)).toBe(true);
        if (n > 1) {
          expect(verifyInclusion(many[i] as Uint8Array, (i + 1) % n, n, path, root)).toBe(false);
          expect(verifyInclusion(many[(i + 1) % n] as Uint8Array, i, n, path, root)).toBe(false);
          const bad = path.map((p) => p.slice());
          (bad[0] as Uint8Array)[0] ^= 1;
          expect(verifyInclusion(many[i] as Uint8Array, i, n, bad, root)).toBe(false);
          expect(verifyInclusion(many[i] as Uint8Array, i, n, path.slice(1), root)).toBe(false);
        }
      }
    }
  });

  it('every consistency proof between two sizes verifies, and wrong roots do not', () => {
    for (let m = 1; m <= 30; m++) {
      for (let n = m; n <= 33; n++) {
        const proof = log.consistencyProof(m, n);
        expect(verifyConsistency(m, n, log.root(m), log.root(n), proof), `${m}→${n}`).toBe(true);
        if (m < n) {
          expect(verifyConsistency(m, n, log.root(m === 1 ? 2 : m - 1), log.root(n), proof)).toBe(false);
          expect(verifyConsistency(m, n, log.root(m), log.root(n - 1), proof)).toBe(false);
        }
      }
    }
  });

  it('truncating the log forgets cached subtrees past the cut', () => {
    const l = new MerkleLog();
    for (const h of many.slice(0, 16)) l.append(h);
    const r16 = toHex(l.root());
    l.truncate(10);
    for (const h of many.slice(20, 26)) l.append(h);
    expect(toHex(l.root())).toBe(toHex(naiveRoot([...many.slice(0, 10), ...many.slice(20, 26)])));
    expect(toHex(l.root())).not.toBe(r16);
  });
});
