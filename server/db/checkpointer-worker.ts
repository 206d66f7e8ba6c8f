/**
 * The embedded SQLite database's WAL checkpointer (node:worker_threads), see `startCheckpointer`
 * in database.ts: its own connection runs PASSIVE checkpoints on a timer, so that copying the
 * WAL back into the database file (and its fsync) happens beside the server's commits instead
 * of inside one of them. PASSIVE never waits for a lock and never blocks a writer or a reader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

type Options = { file: string; intervalMs: number };
type CheckpointRow = { busy: number; log: number; checkpointed: number };

const { file, intervalMs } = workerData as Options;
const sqlite = new SQLite(file);
sqlite.pragma('busy_timeout = 0');
sqlite.pragma('synchronous = NORMAL');
// This connection never writes; it must not run SQLite's automatic checkpoint logic either.
sqlite.pragma('wal_autocheckpoint = 0');

let runs = 0;
let told = '';
const tick = () => {
  try {
    const [row] = sqlite.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
    // A frame count of 0: nothing written since the WAL was last reset. A WAL copied back whole
    // stays at the same counts until the next commit: the server is told once, not every tick.
    const state = row ? `${row.log}/${row.checkpointed}/${row.busy}` : '';
    if (row && row.log > 0 && state !== told) {
      told = state;
      runs++;
      parentPort?.postMessage({ type: 'checkpoint', runs, log: row.log, checkpointed: row.checkpointed, busy: row.busy });
    }
  } catch (error) {
    // SQLITE_BUSY/LOCKED (another checkpointer, a backup): the next tick tries again.
    const code = (error as { code?: string }).code;
    if (code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') throw error;
  }
};
const timer = setInterval(tick, intervalMs);
parentPort?.on('message', (message: { type: string }) => {
  if (message.type === 'stop') {
    clearInterval(timer);
    sqlite.close();
    parentPort?.close();
  } else if (message.type === 'now') tick();
});
