import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database, its WAL and SHM, stored blobs and key files: the folder is
 * 0700 and every file in it 0600. Created that way (the process umask is 077 from here
 * on, so SQLite's WAL/SHM and every blob inherit it), and repaired at boot when an older
 * version or an operator's copy left them looser. Returns what was repaired, for the
 * boot log's warning.
 */
export function secureDataDir(dir: string): string[] {
  process.umask(0o077);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const repaired: string[] = [];
  const fix = (p: string, mode: number) => {
    const current = fs.lstatSync(p).mode & 0o777;
    if ((current & 0o077) !== 0) {
      fs.chmodSync(p, mode);
      repaired.push(`${p} (${current.toString(8)} → ${mode.toString(8)})`);
    }
  };
  const walk = (d: string) => {
    fix(d, 0o700);
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) fix(p, 0o600);
    }
  };
  walk(dir);
  return repaired;
}
