import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';

// The embedded database is shared by the server and the command-line tools (`provena keys
// rotate`, `provena backup`…) running beside it. A transaction that reads, then writes, must
// wait for the other process's write instead of failing with "database is locked".
describe('SQLite shared by two processes', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a read-then-write transaction waits for the other writer instead of failing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-sqlite-conc-'));
    dirs.push(dataDir);
    const { db } = await openDatabase({ dataDir });
    await sql`create table contention (n integer not null)`.execute(db);

    // Another process writes as fast as it can for a while.
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(process.argv[1]); db.pragma('busy_timeout = 5000');
         const ins = db.prepare('insert into contention (n) values (?)'); const end = Date.now() + 1500; let i = 0;
         process.stdout.write('go\\n');
         while (Date.now() < end) ins.run(i++);`,
        path.join(dataDir, 'provena.sqlite'),
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
    const done = new Promise<number | null>((resolve) => writer.on('exit', resolve));

    const failures: string[] = [];
    let committed = 0;
    const until = Date.now() + 1200;
    while (Date.now() < until) {
      try {
        await db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ c: number }>`select count(*) as c from contention`.execute(trx);
          // Give the other process the chance to commit between this transaction's read and its write.
          await new Promise((r) => setTimeout(r, 1));
          await sql`insert into contention (n) values (${-(rows[0]?.c ?? 0)})`.execute(trx);
        });
        committed++;
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    expect(await done).toBe(0);
    await db.destroy();
    expect(failures).toEqual([]);
    expect(committed).toBeGreaterThan(0);
  });
});
