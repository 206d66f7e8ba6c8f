import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';

// The WAL checkpoint runs in a worker beside the commits, not inside one of them: commits only
// append, the worker copies the WAL back, and the WAL stays bounded.
describe('SQLite WAL checkpointer', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('checkpoints off the commit path and keeps the WAL under its bound; nothing is lost on reopen', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-ckpt-'));
    dirs.push(dataDir);
    const checkpoints: { log: number; checkpointed: number }[] = [];
    const walLimit = 2 * 1024 * 1024;
    const { db } = await openDatabase({ dataDir, checkpoint: { startAfterCommits: 0, intervalMs: 20, walSizeLimitBytes: walLimit, onCheckpoint: (c) => checkpoints.push(c) } });
    const file = path.join(dataDir, 'provena.sqlite');
    const wal = `${file}-wal`;
    // The commits' own automatic checkpoint is only a safety net far above what the worker lets accumulate.
    const [auto] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows;
    expect(auto?.wal_autocheckpoint).toBe(10_000);
    await sql`create table ckpt (n integer not null, pad blob not null)`.execute(db);
    // The worker is up once it checkpointed the table's creation.
    for (let i = 0; i < 200 && checkpoints.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(checkpoints.length).toBeGreaterThan(0);

    // 80 batches of 100 rows of 1 KiB: ~8 MiB through the WAL, four times its size limit.
    const pad = new Uint8Array(1024).fill(1);
    let maxWal = 0;
    for (let b = 0; b < 80; b++) {
      await db.transaction().execute(async (trx) => {
        for (let k = 0; k < 100; k += 25) await sql`insert into ckpt (n, pad) values ${sql.join(Array.from({ length: 25 }, (_, j) => sql`(${b * 100 + k + j}, ${pad})`))}`.execute(trx);
      });
      maxWal = Math.max(maxWal, fs.statSync(wal).size);
      // Give the checkpointer a turn now and then, as the gaps between requests do.
      if (b % 8 === 7) await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(checkpoints.length).toBeGreaterThan(0);
    // Everything written was copied back by the worker at some point.
    expect(checkpoints.some((c) => c.checkpointed === c.log && c.log > 0)).toBe(true);
    // One more commit restarts the WAL at its beginning and cuts the file back to its limit.
    await sql`insert into ckpt (n, pad) values (${-1}, ${pad})`.execute(db);
    expect(fs.statSync(wal).size).toBeLessThanOrEqual(walLimit);
    // Bounded during the run too: well under the 8 MiB written (the worker kept up with the writer).
    expect(maxWal).toBeLessThan(6 * 1024 * 1024);
    await db.destroy();

    // A second connection sees every row (crash recovery itself: tests/crash/ledger-crash.ts).
    const check = new SQLite(file, { readonly: true });
    expect((check.prepare('select count(*) as n from ckpt').get() as { n: number }).n).toBe(8001);
    expect((check.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok');
    check.close();
  });

  it('the database file holds the data before the connection closes (the worker copied the WAL back)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-ckpt-'));
    dirs.push(dataDir);
    const { db } = await openDatabase({ dataDir, checkpoint: { startAfterCommits: 0, intervalMs: 20 } });
    const file = path.join(dataDir, 'provena.sqlite');
    await sql`create table ckpt (n integer not null)`.execute(db);
    await sql`insert into ckpt (n) values (1), (2), (3)`.execute(db);
    const before = fs.statSync(file).size;
    // The worker's first turn may come late on a loaded machine: wait up to 10 s for it.
    for (let i = 0; i < 400 && fs.statSync(file).size <= before; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    // The commits did not write the database file themselves; the worker did.
    expect(fs.statSync(file).size).toBeGreaterThan(before);
    await db.destroy();
  });

  it('starts with the 100th committed transaction: a database opened for a few writes never starts the thread', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-ckpt-'));
    dirs.push(dataDir);
    const checkpoints: unknown[] = [];
    const { db } = await openDatabase({ dataDir, checkpoint: { intervalMs: 20, onCheckpoint: (c) => checkpoints.push(c) } });
    const autocheckpoint = async () => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]?.wal_autocheckpoint;
    await sql`create table ckpt (n integer not null)`.execute(db);
    // The migrations committed some transactions already: count from here to the start.
    let commits = 0;
    while ((await autocheckpoint()) === 1000 && commits < 200) {
      await db.transaction().execute((trx) => sql`insert into ckpt (n) values (${commits})`.execute(trx));
      commits++;
    }
    // SQLite's own checkpoint (1000 pages) until then; then the worker, with the safety net raised.
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThanOrEqual(100);
    expect(await autocheckpoint()).toBe(10_000);
    for (let i = 0; i < 400 && checkpoints.length === 0; i++) {
      await db.transaction().execute((trx) => sql`insert into ckpt (n) values (${i})`.execute(trx));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(checkpoints.length).toBeGreaterThan(0);
    await db.destroy();
  });
});
