import fs from 'node:fs';
import { loadSha256Node } from '../../wasm/load-node.ts';

/** Read size per step: large enough to amortise calls, small enough for bounded memory. */
const READ_BYTES = 8 * 1024 * 1024;

/** SHA-256 (hex) of a file with our WebAssembly core, streamed through one reused buffer: bounded memory for any size. */
export async function sha256File(file: string): Promise<string> {
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
  const stream = (await loadSha256Node()).stream();
  stream.init();
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
