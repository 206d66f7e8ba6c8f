import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { loadSha256Node } from '../../wasm/load-node.ts';

/** Read size per step: large enough to amortise calls, small enough for bounded memory. */
const READ_BYTES = 8 * 1024 * 1024;

/**
 * Which SHA-256 computes a file's identity in Node. `node` (the default): node:crypto, i.e.
 * OpenSSL, which uses the CPU's SHA instructions where present (3.5–3.9× our WebAssembly here:
 * the "node" suite of `npm run bench`). `wasm`: the same WebAssembly core the browser
 * hashes with, kept selectable for the bench and for the tests that prove both agree.
 */
export type HashEngine = 'node' | 'wasm';
export const HASH_ENGINES: readonly HashEngine[] = ['node', 'wasm'];

type Stream = { update(bytes: Uint8Array): void; digestHex(): string };

async function streamOf(engine: HashEngine): Promise<Stream> {
  if (engine === 'node') {
    const h = createHash('sha256');
    return { update: (bytes) => h.update(bytes), digestHex: () => h.digest('hex') };
  }
  const s = (await loadSha256Node()).stream();
  s.init();
  return s;
}

/** SHA-256 (hex) of a file, streamed through one reused buffer: bounded memory for any size. */
export async function sha256File(file: string, engine: HashEngine = 'node'): Promise<string> {
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
  const stream = await streamOf(engine);
  const buffer = new Uint8Array(READ_BYTES);
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, READ_BYTES, null);
      if (n === 0) break;
      stream.update(buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return stream.digestHex();
}
