import { fileIdentity } from '../../core/file-identity.ts';
import { sha256File } from './sha256-file.ts';

/** `provena hash <files…>`: one identity per line (`<identity>  <path>`), streaming each file. */
export const hashCommand = {
  summary: 'print the identity (0x + SHA-256 + extension) of each file',
  usage: 'hash <files…>',
  async run(files: string[]): Promise<number> {
    if (files.length === 0) {
      process.stderr.write('provena hash: name at least one file\n');
      return 2;
    }
    let failures = 0;
    for (const file of files) {
      try {
        process.stdout.write(`${fileIdentity(await sha256File(file), file)}  ${file}\n`);
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
