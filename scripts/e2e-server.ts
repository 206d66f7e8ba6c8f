import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { buildIfStale } from './build-if-stale.ts';

/** The server Playwright starts: a fresh database every run, the built app, the SMS outbox. */
// E2E_NO_BUILD=1 serves the dist/app already built (e.g. with another Vite config).
if (!process.env.E2E_NO_BUILD) buildIfStale();
// E2E_DATA_DIR: a folder the test owns and keeps across a restart of this server (the crash specs); else a fresh one per process.
const keptDataDir = process.env.E2E_DATA_DIR;
const dataDir = keptDataDir ?? path.join(os.tmpdir(), `provena-e2e-${process.pid}`);
if (!keptDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.PORT = process.env.E2E_PORT ?? '8181';
process.env.HOST = '127.0.0.1';
// Every browser test comes from 127.0.0.1: per-address ceilings would trip across the suite.
// The per-phone rules stay as they are (the server suite tests the per-address ones).
process.env.ADDRESS_LIMIT_FACTOR = process.env.ADDRESS_LIMIT_FACTOR ?? '50';
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn';
// The applications spec's webhook receiver listens on loopback, as an intranet deployment's would.
process.env.APPLICATION_WEBHOOK_ALLOW_PRIVATE = process.env.APPLICATION_WEBHOOK_ALLOW_PRIVATE ?? '1';
if (!keptDataDir) process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
// Seeded demo enterprises with scored history for the map and score specs (E2E_DEMO_ENTERPRISES, default 300; 0 = none; ~1 s).
const demoEnterprises = Number(process.env.E2E_DEMO_ENTERPRISES ?? '300');
if (demoEnterprises > 0 && !keptDataDir) {
  const { seedDemoDatabase } = await import('../server/score/demo.ts');
  await seedDemoDatabase({ dataDir, enterprises: demoEnterprises });
}
await import('../server/server.ts');
