/**
 * Generates tests/fixtures/forged/: a proof a forger makes by running their own copy of the
 * ledger on a throwaway database, which creates its own "Provena Platform Root CA". Every
 * check of the proof passes; only trust tells it apart from the real platform's proofs (the
 * browser's "issued by another platform" test, tests/e2e/verify-untrusted.spec.ts).
 *   node scripts/make-forged-proof.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { openDatabase } from '../server/db/database.ts';
import { keyringFromProcessEnv } from '../server/keys/keyring.ts';
import { attachKeyring } from '../server/keys/platform-keys.ts';
import { Ledger } from '../server/ledger/ledger.ts';
import { ProofJobs } from '../server/proofs/jobs.ts';
import { localDriver } from '../server/storage/drivers.ts';
import { readProofPdf } from '../server/services/proof-pdf.ts';
import { readLedgerConfig } from '../server/ledger/config.ts';

const out = path.resolve('tests/fixtures/forged');
fs.mkdirSync(out, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-forged-'));
const { db } = await openDatabase({ dataDir: tmp });
attachKeyring(db, keyringFromProcessEnv(tmp));
const log = { info() {}, warn() {}, error: (o: object) => console.error(o) };
const ledger = new Ledger(db, { ...readLedgerConfig({}), publicUrl: 'https://provena.example' }, log);
await ledger.start({ isSealingTimerOn: false });
const jobs = new ProofJobs(db, ledger, log, null, undefined, localDriver(path.join(tmp, 'objects')));

const original = new TextEncoder().encode('A file registered on a forger\'s own copy of the ledger.\n');
fs.writeFileSync(path.join(out, 'original.txt'), original);
const digest = createHash('sha256').update(original).digest('hex');
const reg = await ledger.register({ fileHash: `0x${digest}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file', validMs: 20 * 365 * 86400_000 });
await ledger.sealNow();
await jobs.drain();
fs.writeFileSync(path.join(out, 'proof.pdf'), new Uint8Array((await readProofPdf(db, jobs.storage, reg.dna))!));
const root = await db.selectFrom('platform_roots').select('fingerprint').executeTakeFirstOrThrow();
fs.writeFileSync(path.join(out, 'root.json'), `${JSON.stringify({ fingerprint: root.fingerprint, asset_dna: reg.dna }, null, 2)}\n`);
await ledger.stop();
await db.destroy();
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`wrote ${out}: proof ${reg.dna} under root ${root.fingerprint}`);
