/**
 * Crash test: registrations (digital assets of one member's enterprise, free by
 * configuration) stream into a real server that is killed with
 * SIGKILL again and again, at random moments, including mid-seal. Afterwards every
 * acknowledged registration (HTTP 200) must be in the ledger, sealed after one more boot,
 * and the whole chain must pass the ledger audit (npm run ledger:verify).
 *   node tests/crash/ledger-crash.ts [rounds=8]      (DATABASE_URL=postgres://… to run on PostgreSQL)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { openDatabase } from '../../server/db/database.ts';
import { auditLedger } from '../../server/ledger/audit.ts';
import { registeringMember, registrationFreeConfig, type Member } from '../../scripts/registering-member.ts';
import { freePort } from '../../scripts/local-servers.ts';

const rounds = Number(process.argv[2] ?? 8);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-crash-'));
const WRITERS = 8;
const configFile = registrationFreeConfig(dataDir);

// On PostgreSQL the run gets its own schema, dropped afterwards when all went well.
let databaseUrl: string | undefined;
let schema: string | undefined;
if (process.env.DATABASE_URL) {
  const pg = (await import('pg')).default;
  schema = `crash_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
}


async function boot(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/server.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PROVENA_CONFIG: configFile, LOG_LEVEL: 'warn', LEDGER_BLOCK_INTERVAL_MS: '100', LEDGER_BLOCK_MAX_ENTRIES: '50', APP_DIR: path.join(dataDir, 'none') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/config.json`);
      if (res.ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('server did not start');
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

const acknowledged = new Map<string, string>();
let sequence = 0;
let member: Member | null = null;
const started = performance.now();

for (let round = 1; round <= rounds; round++) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await boot(port);
  member ??= await registeringMember(base, { phone: '13912345678', enterpriseName: 'Crash Test Ltd' });
  member.useServer(base);
  const registrant = member;
  let isRunning = true;
  const writers = Array.from({ length: WRITERS }, async () => {
    while (isRunning) {
      const n = sequence++;
      const hash = createHash('sha256').update(`crash-${n}`).digest('hex');
      try {
        const r = await registrant.register(`0x${hash}.bin`, `crash-${n}.bin`);
        acknowledged.set(r.dna, hash);
      } catch {
        return; // the server died mid-request (or refused it): this one was never acknowledged
      }
    }
  });
  await new Promise((r) => setTimeout(r, 300 + Math.random() * 900));
  child.kill('SIGKILL');
  isRunning = false;
  await Promise.all(writers);
  await exited(child);
  console.log(`round ${round}: killed with SIGKILL; ${acknowledged.size} acknowledged so far`);
}

// One last clean boot seals whatever waits; then check from the database alone.
const port = await freePort();
const child = await boot(port);
await new Promise((r) => setTimeout(r, 1500));
child.kill('SIGTERM');
await exited(child);

const { db } = await openDatabase({ databaseUrl, dataDir });
let failures = 0;
const rows = await db.selectFrom('ledger_entries').select(['dna', 'file_hash', 'leaf_index']).execute();
const stored = new Map(rows.map((r) => [r.dna, r]));
for (const [dna, hash] of acknowledged) {
  const row = stored.get(dna);
  if (!row) {
    failures++;
    console.error(`LOST: acknowledged registration ${dna} is not in the ledger`);
  } else if (row.file_hash !== `0x${hash}.bin` || row.leaf_index === null) {
    failures++;
    console.error(`BAD: ${dna} stored as ${row.file_hash}, leaf ${row.leaf_index}`);
  }
}
const audit = await auditLedger(db);
await db.destroy();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (!audit.isOk) {
  failures++;
  console.error(`ledger audit failed: ${audit.problem}`);
}
console.log(`${rounds} SIGKILLs, ${acknowledged.size} acknowledged registrations, ${rows.length} stored (unacknowledged ones may also land), ${audit.isOk ? `${audit.blocks} blocks verified` : 'AUDIT FAILED'}; ${seconds} s`);
if (failures === 0) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (schema) {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}
else console.error(`data kept in ${dataDir}`);
process.exitCode = failures ? 1 : 0;
