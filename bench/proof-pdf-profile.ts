/**
 * node bench/proof-pdf-profile.ts [count] — only the proof PDF section of bench:ledger, warmed up:
 * registers `count` entries, seals them, then times ProofJobs.generate (the job handler) and
 * renderCertificate signed / unsigned after a warm-up of 10 each, and the event loop's delay
 * while generating (PROOF_RENDER_WORKERS=0 renders on it). For `node --cpu-prof`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../server/db/database.ts';
import { keyringFromProcessEnv } from '../server/keys/keyring.ts';
import { attachKeyring, loadPlatformSigner } from '../server/keys/platform-keys.ts';
import { Ledger } from '../server/ledger/ledger.ts';
import { ProofJobs } from '../server/proofs/jobs.ts';
import { localDriver } from '../server/storage/drivers.ts';
import { readProofPdf } from '../server/services/proof-pdf.ts';
import { readLedgerConfig } from '../server/ledger/config.ts';
import { extractPackageNode } from '../server/proofs/extract.ts';
import { renderCertificate } from '../server/proofs/pdf.ts';
import { decodePackage } from '../core/ledger/package.ts';

const COUNT = Number(process.argv[2] ?? 40);
const WARM = 10;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-proofbench-'));
const { db } = await openDatabase({ dataDir });
attachKeyring(db, keyringFromProcessEnv(dataDir));
const quiet = { info() {}, warn() {}, error: (o: object) => console.error(o) };
const ledger = new Ledger(db, { ...readLedgerConfig({}), maxBlockEntries: COUNT + WARM + 1 }, quiet);
await ledger.start({ isSealingTimerOn: false });
const jobs = new ProofJobs(db, ledger, quiet, null, undefined, localDriver(path.join(dataDir, 'objects')));
for (let i = 0; i < COUNT + WARM; i++) await ledger.register({ fileHash: `0x${createHash('sha256').update(`p-${i}`).digest('hex')}.txt`, enterpriseName: '基准测试有限公司', registrantUserId: null, kind: 'file' });
while (await ledger.sealNow()) { /* seal all */ }
const dnas = (await db.selectFrom('ledger_entries').select('dna').orderBy('id').execute()).map((r) => r.dna);
for (const dna of dnas.slice(0, WARM)) await jobs.generate(dna);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const g0 = performance.now();
const c0 = process.cpuUsage();
for (const dna of dnas.slice(WARM)) await jobs.generate(dna);
const generateMs = performance.now() - g0;
delay.disable();
const eventLoopDelayMs = { p50: +(delay.percentile(50) / 1e6).toFixed(1), p99: +(delay.percentile(99) / 1e6).toFixed(1), max: +(delay.max / 1e6).toFixed(1) };
const generateCpu = process.cpuUsage(c0);
const samplePdf = new Uint8Array((await readProofPdf(db, jobs.storage, dnas[0]!))!);
if (process.env.PROOF_PDF_OUT) fs.writeFileSync(process.env.PROOF_PDF_OUT, samplePdf);
const pkg = await decodePackage((await extractPackageNode(samplePdf.slice()))!);
const signing = { proof: await loadPlatformSigner(db, 'proof'), tsa: await loadPlatformSigner(db, 'tsa') };
const args = { pkg, verifyUrl: 'https://provena.example/verify-file', fontFile: ledger.config.fontFile, fallbackFontFile: ledger.config.fallbackFontFile };
const cpuMs: Record<string, number> = {};
const time = async (signed: boolean) => {
  for (let i = 0; i < WARM; i++) await renderCertificate({ ...args, signing: signed ? signing : null });
  const t = performance.now();
  const c = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) await renderCertificate({ ...args, signing: signed ? signing : null });
  const cpu = process.cpuUsage(c);
  cpuMs[signed ? 'signed' : 'unsigned'] = +((cpu.user + cpu.system) / 1000 / COUNT).toFixed(1);
  return performance.now() - t;
};
const unsignedMs = await time(false);
const signedMs = await time(true);
const per = (ms: number) => +((COUNT / ms) * 1000).toFixed(1);
console.log(JSON.stringify({ count: COUNT, generatePerSecond: per(generateMs), generateMsEach: +(generateMs / COUNT).toFixed(1), renderUnsignedPerSecond: per(unsignedMs), renderSignedPerSecond: per(signedMs), eventLoopDelayMsWhileGenerating: eventLoopDelayMs, renderWorkers: process.env.PROOF_RENDER_WORKERS ?? 'default', generateCpuMsEach: +((generateCpu.user + generateCpu.system) / 1000 / COUNT).toFixed(1), renderCpuMsEach: cpuMs, pdfBytes: samplePdf.length }));
await jobs.close();
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
