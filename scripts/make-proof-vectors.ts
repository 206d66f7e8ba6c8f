/**
 * Generates the proof-format test vectors in tests/fixtures/proof/ with the real ledger
 * code on a throwaway SQLite database: an original, its certificate PDF, the package
 * (gzip and pretty JSON), an expired certificate, the platform key and root. ECDSA signatures
 * are randomised, so re-running gives different (equally valid) bytes.
 *   node scripts/make-proof-vectors.ts
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
import { extractPackageNode } from '../server/proofs/extract.ts';
import { gunzip } from '../core/ledger/package.ts';
import { toBase64 } from '../core/ledger/bytes.ts';

const out = path.resolve('tests/fixtures/proof');
fs.mkdirSync(out, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-vectors-'));
const { db } = await openDatabase({ dataDir: tmp });
attachKeyring(db, keyringFromProcessEnv(tmp));
const log = { info() {}, warn() {}, error: (o: object) => console.error(o) };
const ledger = new Ledger(db, { ...readLedgerConfig({}), publicUrl: 'https://provena.example' }, log);
await ledger.start({ isSealingTimerOn: false });
const jobs = new ProofJobs(db, ledger, log, null, undefined, localDriver(path.join(tmp, 'objects')));

const original = new TextEncoder().encode('Provena proof-format test vector: the original file.\n');
fs.writeFileSync(path.join(out, 'original.txt'), original);
const digest = createHash('sha256').update(original).digest('hex');
await ledger.register({ fileHash: `0x${createHash('sha256').update('filler one').digest('hex')}`, enterpriseName: 'Filler Ltd', registrantUserId: null, kind: 'file' });
const reg = await ledger.register({ fileHash: `0x${digest}.txt`, enterpriseName: '西安示例科技有限公司', registrantUserId: null, kind: 'file', validMs: 3650 * 86400_000 });
await ledger.register({ fileHash: `0x${createHash('sha256').update('filler two').digest('hex')}`, enterpriseName: 'Filler Ltd', registrantUserId: null, kind: 'file' });
const expired = await ledger.register({ fileHash: `0x${digest}.txt`, enterpriseName: '西安示例科技有限公司', registrantUserId: null, kind: 'file', validMs: 1 });
await ledger.sealNow();
await jobs.drain();

const pdfOf = async (dna: string) => new Uint8Array((await readProofPdf(db, jobs.storage, dna))!);
const pdf = await pdfOf(reg.dna);
fs.writeFileSync(path.join(out, 'proof.pdf'), pdf);
fs.writeFileSync(path.join(out, 'proof-expired.pdf'), await pdfOf(expired.dna));
const gz = (await extractPackageNode(pdf)) as Uint8Array;
fs.writeFileSync(path.join(out, 'provena-proof.json.gz'), gz);
fs.writeFileSync(path.join(out, 'provena-proof.json'), `${JSON.stringify(JSON.parse(new TextDecoder().decode(await gunzip(gz))), null, 2)}\n`);
fs.writeFileSync(path.join(out, 'platform-key.json'), `${JSON.stringify({ key_id: ledger.key.keyId, spki: toBase64(ledger.key.spki) }, null, 2)}\n`);
fs.writeFileSync(
  path.join(out, 'platform-key.pem'),
  `-----BEGIN PUBLIC KEY-----\n${toBase64(ledger.key.spki).match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`,
);
// The platform root: what `provena trust`, pdfsig (-nssdir) and `openssl ts -verify -CAfile` are given.
const root = await db.selectFrom('platform_roots').select('certificate').executeTakeFirstOrThrow();
fs.writeFileSync(path.join(out, 'platform-root.pem'), `-----BEGIN CERTIFICATE-----\n${root.certificate.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`);
await ledger.stop();
await db.destroy();
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`test vectors written to ${out}: asset DNA ${reg.dna}, expired ${expired.dna}`);
