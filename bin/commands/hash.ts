import fs from 'node:fs';
import { fileIdentity } from '../../core/file-identity.ts';
import { loadSha256Node } from '../../wasm/load-node.ts';

/** Read size per step: large enough to amortise calls, small enough for bounded memory. */
const READ_BYTES = 8 * 1024 * 1024;

/** `provena hash <files…>`: one identity per line (`<identity>  <path>`), streaming each file. */
export const hashCommand = {
  summary: 'print the identity (0x + SHA-256 + extension) of each file',
  usage: 'hash <files…>',
  async run(files: string[]): Promise<number> {
    if (files.length === 0) {
      process.stderr.write('provena hash: name at least one file\n');
      return 2;
    }
    const sha = await loadSha256Node();
    const stream = sha.stream();
    let failures = 0;
    for (const file of files) {
      try {
        const stat = fs.statSync(file);
        if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
        stream.init();
        // One reused buffer: memory stays bounded whatever the file size.
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
        process.stdout.write(`${fileIdentity(stream.digestHex(), file)}  ${file}\n`);
      } catch (error) {
        failures += 1;
        const code = (error as NodeJS.ErrnoException).code;
        const reason =
          code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory, not a file' : (error as Error).message;
        process.stderr.write(`provena hash: cannot read ${file}: ${reason}\n`);
      }
    }
    return failures ? 1 : 0;
  },
};
