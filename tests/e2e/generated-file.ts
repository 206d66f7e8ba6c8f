import { createHash } from 'node:crypto';
import fs from 'node:fs';

export const MIB = 1024 * 1024;

/**
 * The e2e suite's generated files: `mib` parts of 1 MiB, each a 16-byte header (an 8-byte tag,
 * the part's index, the seed) and the same xorshift body. A page builds the same parts as a
 * File (or picks the file written by writeGenerated); Node hashes the sequence independently,
 * so the browser's fingerprint is checked, not trusted.
 */
export function bodyOf(seed: number): Uint8Array {
  const body = new Uint8Array(MIB - 16);
  let x = seed >>> 0 || 1;
  for (let i = 0; i + 4 <= body.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    body[i] = x & 255;
    body[i + 1] = (x >>> 8) & 255;
    body[i + 2] = (x >>> 16) & 255;
    body[i + 3] = (x >>> 24) & 255;
  }
  return body;
}

/** The header of part `index`; `tag` is 8 ASCII characters. */
export function headerOf(tag: string, index: number, seed: number): Uint8Array {
  const h = new Uint8Array(16);
  h.set(new TextEncoder().encode(tag));
  new DataView(h.buffer).setUint32(8, index);
  new DataView(h.buffer).setUint32(12, seed);
  return h;
}

/** §3 identity of the generated file: 0x + SHA-256 + the extension. */
export function identityOfGenerated(tag: string, mib: number, seed: number, ext: string): string {
  const hash = createHash('sha256');
  const body = bodyOf(seed);
  for (let i = 0; i < mib; i++) hash.update(headerOf(tag, i, seed)).update(body);
  return `0x${hash.digest('hex')}${ext}`;
}

/** Writes the generated file to disk, for a page to pick like a user does. */
export function writeGenerated(file: string, tag: string, mib: number, seed: number): void {
  const fd = fs.openSync(file, 'w');
  const body = bodyOf(seed);
  try {
    for (let i = 0; i < mib; i++) {
      fs.writeSync(fd, headerOf(tag, i, seed));
      fs.writeSync(fd, body);
    }
  } finally {
    fs.closeSync(fd);
  }
}
