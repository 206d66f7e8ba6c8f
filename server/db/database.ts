import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Database } from './schema.ts';
import type { Dialect } from './dialect.ts';
import { accounts } from './migrations/0001-accounts.ts';
import { ledger } from './migrations/0002-ledger.ts';
import { enterprises } from './migrations/0003-enterprises.ts';
import { anchors } from './migrations/0004-anchors.ts';
import { score } from './migrations/0008-score.ts';
import { storageDisclosures } from './migrations/0007-storage-disclosures.ts';
import { platformCa } from './migrations/0010-platform-ca.ts';
import { vault } from './migrations/0006-vault.ts';
import { credits } from './migrations/0011-credits.ts';
import { assets } from './migrations/0012-assets.ts';
import { home } from './migrations/0013-home.ts';
import { enterpriseKeys } from './migrations/0014-enterprise-keys.ts';
import { checkpointAnchors } from './migrations/0016-checkpoint-anchors.ts';
import { operatorSecurity } from './migrations/0017-operator-security.ts';
import { partners } from './migrations/0020-partners.ts';
import { memberNames } from './migrations/0021-member-names.ts';
import { sealedKeys } from './migrations/0022-sealed-keys.ts';
import { certificateLocale } from './migrations/0023-certificate-locale.ts';
import { repos } from './migrations/0024-repos.ts';
import { applications } from './migrations/0025-applications.ts';
import { gpt } from './migrations/0026-gpt.ts';
import { repoRefs } from './migrations/0028-repo-refs.ts';
import { sealerFencing } from './migrations/0030-sealer-fencing.ts';
import { scorePlatformCode } from './migrations/0035-score-platform-code.ts';
import { anchorIntents } from './migrations/0037-anchor-intents.ts';
import { proofPdfObjects } from './migrations/0036-proof-pdf-objects.ts';
import { uploadSessions } from './migrations/0040-upload-sessions.ts';
import { proofTermsOnEntries } from './migrations/0043-proof-terms-on-entries.ts';

export type Db = Kysely<Database>;

export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-accounts': accounts(dialect),
    '0002-ledger': ledger(dialect),
    '0003-enterprises': enterprises(dialect),
    '0004-anchors': anchors(),
    '0006-vault': vault(dialect),
    '0007-storage-disclosures': storageDisclosures(dialect),
    '0008-score': score(dialect),
    '0010-platform-ca': platformCa(),
    '0011-credits': credits(dialect),
    '0012-assets': assets(dialect),
    '0013-home': home(dialect),
    '0014-enterprise-keys': enterpriseKeys(dialect),
    '0016-checkpoint-anchors': checkpointAnchors(),
    '0017-operator-security': operatorSecurity(dialect),
    '0020-partners': partners(dialect),
    '0021-member-names': memberNames(),
    '0022-sealed-keys': sealedKeys(),
    '0023-certificate-locale': certificateLocale(),
    '0024-repos': repos(dialect),
    '0025-applications': applications(dialect),
    '0026-gpt': gpt(dialect),
    '0028-repo-refs': repoRefs(dialect),
    '0030-sealer-fencing': sealerFencing(),
    '0035-score-platform-code': scorePlatformCode(),
    '0037-anchor-intents': anchorIntents(),
    '0036-proof-pdf-objects': proofPdfObjects(),
    '0040-upload-sessions': uploadSessions(),
    '0043-proof-terms-on-entries': proofTermsOnEntries(),
  };
}

/**
 * SQLite transactions that take the write lock when they begin (BEGIN IMMEDIATE). Kysely
 * begins them DEFERRED: a transaction that reads first and writes later cannot wait for
 * another process's write that committed in between (its snapshot is stale), and SQLite
 * answers "database is locked" at once, whatever busy_timeout says. The command-line
 * tools (`provena keys rotate`, backups) write to the same file as a running server.
 * This process has one connection, so taking the lock early costs it nothing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #onCommit: () => void;
  constructor(config: SqliteDialectConfig, onCommit: () => void) {
    super(config);
    this.#onCommit = onCommit;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await super.commitTransaction(connection);
    this.#onCommit();
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #onCommit: () => void;
  constructor(config: SqliteDialectConfig, onCommit: () => void) {
    super(config);
    this.#config = config;
    this.#onCommit = onCommit;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#onCommit);
  }
}

/**
 * Opens the database named by DATABASE_URL (postgres://…) or, when unset, the
 * embedded SQLite file in DATA_DIR (WAL, foreign keys on), and brings its schema
 * up to date before anything else touches it.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; checkpoint?: CheckpointOptions }): Promise<{ db: Db; dialect: Dialect }> {
  let db: Db;
  let dialect: Dialect;
  if (opts.databaseUrl) {
    // int8 (bigint) comes back as a string by default; our times fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
    dialect = 'postgres';
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: opts.databaseUrl, max: 10 }) }),
    });
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(opts.dataDir, 'provena.sqlite');
    // Created 0600 before SQLite opens it; SQLite gives the WAL and SHM the same mode.
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    // Savepoints keep their undo pages in a sub-journal, which SQLite spills to a temporary file
    // past 64 KiB: a group of 16 registrations (a savepoint around its inserts, or one per
    // caller with work of its own) journaled ~40 pages there, two write() calls each, as many
    // system calls as its COMMIT. In memory they cost a copy, and they are only ever read
    // back by a ROLLBACK TO within the same transaction; a crash rolls back from the WAL, so
    // durability does not depend on them. Sorts still spill to files (SQLite's sorter opens
    // its own), only temporary tables and transient indices stay in memory.
    sqlite.pragma('temp_store = MEMORY');
    const checkpointer = checkpointerOnDemand(sqlite, file, opts.checkpoint);
    const database = cachingStatements(sqlite);
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect(
        {
          database: {
            prepare: database.prepare,
            close: () => {
              checkpointer.stop();
              database.close();
            },
          },
        },
        checkpointer.committed,
      ),
    });
  }
  // Kysely looks for its migration tables in every schema unless told which: name the
  // current one, so that databases in other schemas of the same PostgreSQL server (other
  // deployments, parallel test runs) are not mistaken for this one's.
  const migrationTableSchema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    // Migrations are numbered when a change is planned and may land out of order (0020 after
    // 0021): a database that already ran the later ones still gets the earlier newcomer.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { db, dialect };
}

export type CheckpointOptions = {
  /** How often the checkpointer looks at the WAL (ms). */
  intervalMs?: number;
  /** SQLite's own checkpoint inside a commit, only when the WAL reached this many pages: the safety net should the checkpointer stop or fall behind. */
  autocheckpointPages?: number;
  /** The WAL file is cut back to this many bytes when it restarts. */
  walSizeLimitBytes?: number;
  /**
   * The worker starts with the database's Nth committed transaction. A thread with its own
   * connection costs about 60 ms of CPU to start: a database that is opened for a few writes
   * (a command-line tool, a test's app) keeps SQLite's own checkpoint (every 1000 WAL pages,
   * which so few writes never reach); one that keeps writing (a server) gets the worker.
   */
  startAfterCommits?: number;
  /** Told of every checkpoint the worker ran (tests). */
  onCheckpoint?: (info: { runs: number; log: number; checkpointed: number; busy: number }) => void;
};

export const CHECKPOINT_DEFAULTS = { intervalMs: 100, autocheckpointPages: 10_000, walSizeLimitBytes: 16 * 1024 * 1024, startAfterCommits: 100 } as const;

/** The checkpointer of `startCheckpointer`, started by the `startAfterCommits`th commit (see CheckpointOptions). */
function checkpointerOnDemand(sqlite: SQLite.Database, file: string, options: CheckpointOptions = {}): { committed(): void; stop(): void } {
  let commits = 0;
  let running: { stop(): void } | null = null;
  let isStopped = false;
  const threshold = options.startAfterCommits ?? CHECKPOINT_DEFAULTS.startAfterCommits;
  const start = () => {
    if (!running && !isStopped) running = startCheckpointer(sqlite, file, options);
  };
  if (threshold <= 0) start();
  return {
    committed: () => {
      if (++commits >= threshold) start();
    },
    stop: () => {
      isStopped = true;
      running?.stop();
    },
  };
}

/**
 * Takes the WAL checkpoint out of the commit path. SQLite checkpoints by default inside the
 * commit that takes the WAL past 1000 pages: with batched registrations that was every 4th–5th
 * batch, 16–31 ms each (copying the pages back and the fsync of the database file), about a
 * fifth of the ingest time. Here a worker thread with its own connection runs PASSIVE
 * checkpoints on a timer (they never block a writer or a reader), the commits only append to
 * the WAL, and SQLite restarts the WAL from its beginning once everything in it was copied
 * back. Crash safety is SQLite's: a checkpoint from another connection is the same operation,
 * and a WAL that was not copied back yet is replayed when the file is opened next.
 * SQLite's own automatic checkpoint stays as a safety net at a higher mark
 * (`autocheckpointPages`, 40 MiB of 4 KiB pages), so the WAL stays bounded even if the worker
 * stopped; `journal_size_limit` cuts a WAL that grew during a burst back when it restarts.
 */
function startCheckpointer(sqlite: SQLite.Database, file: string, options: CheckpointOptions = {}): { stop(): void } {
  const { intervalMs, autocheckpointPages, walSizeLimitBytes } = { ...CHECKPOINT_DEFAULTS, ...options };
  sqlite.pragma(`wal_autocheckpoint = ${Math.trunc(autocheckpointPages)}`);
  sqlite.pragma(`journal_size_limit = ${Math.trunc(walSizeLimitBytes)}`);
  let worker: Worker | null = new Worker(new URL('./checkpointer-worker.ts', import.meta.url), { name: 'provena-sqlite-checkpointer', workerData: { file, intervalMs } });
  worker.unref();
  worker.on('message', (message: { type: string; runs: number; log: number; checkpointed: number; busy: number }) => {
    if (message.type === 'checkpoint') options.onCheckpoint?.(message);
  });
  // A worker that dies leaves SQLite's own checkpoint (the safety net) in charge: say so, do not stop the server.
  worker.on('error', (error) => {
    if (!worker) return; // stopped (the database closed) before its connection opened
    console.error(`the SQLite checkpointer stopped: ${error.message}; commits checkpoint themselves from ${autocheckpointPages} WAL pages`);
    worker = null;
  });
  return {
    stop: () => {
      worker?.postMessage({ type: 'stop' });
      worker = null;
    },
  };
}

/**
 * better-sqlite3 behind Kysely prepares every query again (parse + plan: a third of a
 * registration's CPU time in a profile). Kysely compiles the same SQL text for the same query
 * shape, so prepared statements are kept by their text (bounded; SQLite re-prepares a kept
 * statement itself after a schema change). A kept statement still being iterated (a streamed
 * select) is never handed out twice: a busy one gets a fresh statement.
 */
export function cachingStatements(sqlite: SQLite.Database, max = 500): { close(): void; prepare(sql: string): SQLite.Statement } {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      kept.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      const hit = kept.get(text);
      if (hit && !hit.busy) return hit;
      const statement = sqlite.prepare(text);
      if (hit) return statement;
      if (kept.size >= max) kept.delete(kept.keys().next().value as string);
      kept.set(text, statement);
      return statement;
    },
  };
}

/** True when an error is a unique-constraint violation in either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === '23505';
}
