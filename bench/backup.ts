/**
 * `provena backup` then `provena restore` of a SQLite deployment whose local object store holds
 * `--mib` MiB (in 128 MiB objects, plus 200 small ones): wall time, and peak RSS from GNU time
 * (/usr/bin/time) when it is installed, to show memory does not grow with the data. Prints JSON.
 *   node bench/backup.ts [--mib 512]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/db/database.ts';

const { values } = parseArgs({ options: { mib: { type: 'string', default: '512' } } });
const mib = Number(values.mib);
const root = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bench-backup-'));
const dataDir = path.join(work, 'data');
try {
  const { db } = await openDatabase({ dataDir });
  await db.destroy();
  const objects = path.join(dataDir, 'blobs', 'objects', 'stored');
  fs.mkdirSync(objects, { recursive: true });
  for (let left = mib, i = 0; left > 0; left -= 128, i++) {
    const fd = fs.openSync(path.join(objects, `big${i}`), 'w');
    for (let m = 0; m < Math.min(128, left); m++) fs.writeSync(fd, randomBytes(1024 * 1024));
    fs.closeSync(fd);
  }
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(objects, `small${i}`), randomBytes(4096));
  const pass = path.join(work, 'pass');
  fs.writeFileSync(pass, 'bench passphrase 0123\n', { mode: 0o600 });
  const hasTime = fs.existsSync('/usr/bin/time');
  const run = (args: string[], env: Record<string, string>) => {
    const command = hasTime ? '/usr/bin/time' : process.execPath;
    const argv = hasTime ? ['-f', 'maxrss_kb=%M', process.execPath, 'bin/provena.ts', ...args] : ['bin/provena.ts', ...args];
    const started = performance.now();
    const r = spawnSync(command, argv, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`provena ${args[0]} failed: ${r.stderr}`);
    return { seconds: Math.round((performance.now() - started) / 10) / 100, peak_rss_mb: hasTime ? Math.round(Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1]) / 1024) : null };
  };
  const archive = path.join(work, 'b.provena-backup');
  const backup = run(['backup', '--out', archive, '--passphrase-file', pass, '--json'], { DATA_DIR: dataDir });
  const restore = run(['restore', '--in', archive, '--passphrase-file', pass, '--json'], { DATA_DIR: path.join(work, 'restored') });
  console.log(JSON.stringify({ object_store_mib: mib, archive_bytes: fs.statSync(archive).size, backup, restore, cpus: os.cpus().length, load_average: os.loadavg().map((l) => Math.round(l * 10) / 10) }));
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
