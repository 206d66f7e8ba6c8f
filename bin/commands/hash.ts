import { parseArgs } from 'node:util';
import { fileIdentity } from '../../core/file-identity.ts';
import { HASH_ENGINES, sha256File, type HashEngine } from './sha256-file.ts';

const HELP = `  --engine node|wasm  node: node:crypto (default, the CPU's SHA instructions where present);
                      wasm: the WebAssembly core the browser uses (same digests)
`;

/** `provena hash <files…>`: one identity per line (`<identity>  <path>`), streaming each file. */
export const hashCommand = {
  summary: 'print the identity (0x + SHA-256 + extension) of each file',
  usage: 'hash [--engine node|wasm] <files…>',
  help: HELP,
  async run(args: string[]): Promise<number> {
    let files: string[];
    let engine: HashEngine;
    try {
      const parsed = parseArgs({ args, allowPositionals: true, options: { engine: { type: 'string', default: 'node' } } });
      files = parsed.positionals;
      if (!HASH_ENGINES.includes(parsed.values.engine as HashEngine)) throw new Error(`--engine must be one of ${HASH_ENGINES.join(', ')}`);
      engine = parsed.values.engine as HashEngine;
    } catch (error) {
      process.stderr.write(`provena hash: ${(error as Error).message}\nusage: provena ${this.usage}\n${HELP}`);
      return 2;
    }
    if (files.length === 0) {
      process.stderr.write('provena hash: name at least one file\n');
      return 2;
    }
    let failures = 0;
    for (const file of files) {
      try {
        process.stdout.write(`${fileIdentity(await sha256File(file, engine), file)}  ${file}\n`);
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
