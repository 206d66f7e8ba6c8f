import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';
import { startS3 } from './storage-helpers.ts';
import type { StorageEnv } from '../../server/env.ts';
import type { ObjectDriver } from '../../server/storage/drivers.ts';
import { ProofJobs } from '../../server/proofs/jobs.ts';
import { moveLegacyProofPdfs, ProofPdfIntegrityError, proofPdfKeyOf, readProofPdf } from '../../server/services/proof-pdf.ts';
import { localDriver } from '../../server/storage/drivers.ts';
import { migrations } from '../../server/db/database.ts';

// Certificates are rendered and signed for real; several per driver.
vi.setConfig({ testTimeout: 120_000 });

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const newIdentity = () => `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}.psd`;

async function readObject(driver: ObjectDriver, key: string): Promise<Buffer | null> {
  const stream = await driver.get(key);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
const putObject = (driver: ObjectDriver, key: string, bytes: Uint8Array) => driver.put(key, Readable.from([Buffer.from(bytes)]));

type Case = { name: string; setup(): Promise<{ storage: StorageEnv; close(): Promise<void> }> };
const cases: Case[] = [
  {
    name: 'local folder',
    async setup() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-proof-objects-'));
      return { storage: { kind: 'local', dir }, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  { name: 's3 (s3rver)', setup: () => startS3() },
];

describe.each(cases)('certificate PDFs in the object store: $name', ({ setup }) => {
  let h: Harness;
  let closeStorage: () => Promise<void>;
  let owner: { cookie: string; phone: string };
  let driver: ObjectDriver;
  beforeAll(async () => {
    const s = await setup();
    closeStorage = s.close;
    h = await startHarness({}, { storage: s.storage });
    // Blocks are sealed when a test says so.
    await h.app.ledger.stop();
    driver = h.app.fileStore.driver;
    owner = await ownerWithEnterprise(h, `对象存储测试${randomBytes(3).toString('hex')}有限公司`);
    await creditsForAssets(h, owner, owner, 6);
  });
  afterAll(async () => {
    await h?.close();
    await closeStorage?.();
  });

  const certify = async () => {
    const a = await registerAsset(h, owner, newIdentity(), 'design.psd');
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
    return a.asset_dna;
  };
  const row = (dna: string) => h.app.db.selectFrom('proofs').select(['status', 'generation', 'pdf', 'pdf_key', 'pdf_size', 'pdf_sha256']).where('dna', '=', dna).executeTakeFirstOrThrow();
  /** The two download routes the registrant has for an asset: the asset's proof and the verify API's. */
  const downloads = async (dna: string) => [
    await h.request({ method: 'GET', url: `/api/v1/assets/${dna}/proof`, cookie: owner.cookie }),
    await h.request({ method: 'GET', url: `/verify-api/v1/public/zkp-proof-request?zkp_register_dna=${dna}`, cookie: owner.cookie }),
  ];

  it('a rendered certificate is an object in the store; the row holds its key, size and SHA-256, not the bytes; every route serves the same bytes', async () => {
    const dna = await certify();
    const r = await row(dna);
    expect(r.status).toBeGreaterThanOrEqual(5);
    expect(r.pdf).toBeNull();
    expect(r.pdf_key).toBe(proofPdfKeyOf(dna, 1));
    expect(r.pdf_key).toBe(`proofs/${dna}/1.pdf`);
    const stored = (await readObject(driver, r.pdf_key!))!;
    expect(stored.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(r.pdf_size)).toBe(stored.length);
    expect(r.pdf_sha256).toBe(sha256(stored));
    expect(await readProofPdf(h.app.db, driver, dna)).toEqual(stored);
    for (const res of await downloads(dna)) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(Number(res.headers['content-length'])).toBe(stored.length);
      expect(res.rawPayload.equals(stored)).toBe(true);
    }
  });

  it('before the certificate is generated the routes answer proof_record_not_found, as before', async () => {
    const a = await registerAsset(h, owner, newIdentity(), 'waiting.psd');
    const [asset, verify] = await downloads(a.asset_dna);
    expect(asset!.statusCode).toBe(400);
    expect(asset!.json()).toEqual({ message: 'proof_record_not_found', field_name: 'asset_id' });
    expect(verify!.json()).toEqual({ message: 'proof_record_not_found', field_name: 'zkp_register_dna' });
    expect(await readProofPdf(h.app.db, driver, a.asset_dna)).toBeNull();
    await h.app.ledger.sealNow();
    await h.app.proofs.drain();
  });

  it('refuses an object that is not the certificate its row records (changed byte, other size, missing): its own error key, logged, and rendered again', async () => {
    const dna = await certify();
    const attempts: Array<[string, (good: Buffer) => Buffer | null, RegExp]> = [
      ['one byte changed', (good) => {
        const flipped = Buffer.from(good);
        flipped[flipped.length - 10]! ^= 0xff;
        return flipped;
      }, /SHA-256 .* its record says/],
      ['truncated', (good) => good.subarray(0, good.length - 1), /holds \d+ bytes, its record says/],
      ['grown', (good) => Buffer.concat([good, Buffer.from('%%EOF\n')]), /holds more than \d+ bytes/],
      ['missing', () => null, /missing from the object store/],
    ];
    for (const [label, damage, message] of attempts) {
      const r = await row(dna);
      const good = (await readObject(driver, r.pdf_key!))!;
      const bytes = damage(good);
      if (bytes) await putObject(driver, r.pdf_key!, bytes);
      else await driver.remove(r.pdf_key!);
      await expect(readProofPdf(h.app.db, driver, dna), label).rejects.toThrow(ProofPdfIntegrityError);
      await expect(readProofPdf(h.app.db, driver, dna), label).rejects.toThrow(message);
      const [first] = await downloads(dna);
      // Its own §8 key (localized in the browser), not the generic "server error"; never PDF bytes.
      expect(first!.statusCode, label).toBe(500);
      expect(first!.json(), label).toEqual({ message: 'proof_certificate_damaged' });
      expect(first!.rawPayload.includes(Buffer.from('%PDF-')), label).toBe(false);
      // The row is recoverable (its entry is sealed): it went back to the certificate job, which
      // renders the same generation again under the same key.
      const again = await vi.waitFor(
        async () => {
          await h.app.proofs.drain();
          const now = await row(dna);
          expect(now.pdf_sha256, label).not.toBe(r.pdf_sha256);
          return now;
        },
        { timeout: 20_000, interval: 200 },
      );
      expect(again.status, label).toBe(r.status);
      expect(again.generation, label).toBe(r.generation);
      expect(again.pdf_key, label).toBe(r.pdf_key);
      const fresh = (await readObject(driver, again.pdf_key!))!;
      expect(sha256(fresh), label).toBe(again.pdf_sha256);
      for (const res of await downloads(dna)) expect(res.rawPayload.equals(fresh), label).toBe(true);
    }
  });

  it('a regeneration writes the next generation under a new key, then deletes the old object', async () => {
    const dna = await certify();
    const first = await row(dna);
    await h.app.proofs.regenerate(dna, 30 * 86400_000);
    await h.app.proofs.drain();
    const second = await row(dna);
    expect(second).toMatchObject({ status: 6, generation: 2, pdf: null, pdf_key: `proofs/${dna}/2.pdf` });
    expect(await driver.size(first.pdf_key!)).toBeNull();
    const bytes = (await readObject(driver, second.pdf_key!))!;
    expect(second.pdf_sha256).toBe(sha256(bytes));
    expect(second.pdf_sha256).not.toBe(first.pdf_sha256);
    for (const res of await downloads(dna)) expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('a row written before migration 0036 (bytes in its pdf column) is served from the column, and the backfill moves it to the store', async () => {
    const dna = await certify();
    const r = await row(dna);
    const bytes = (await readObject(driver, r.pdf_key!))!;
    // The row as the old code wrote it: the certificate in the column, no object.
    await h.app.db.updateTable('proofs').set({ pdf: bytes, pdf_key: null, pdf_size: null, pdf_sha256: null }).where('dna', '=', dna).execute();
    await driver.remove(r.pdf_key!);
    for (const res of await downloads(dna)) {
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(bytes.length);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
    expect(await h.app.proofs.moveLegacyPdfs()).toBe(1);
    const moved = await row(dna);
    expect(moved).toMatchObject({ pdf: null, pdf_key: `proofs/${dna}/1.pdf`, pdf_sha256: sha256(bytes) });
    expect(Number(moved.pdf_size)).toBe(bytes.length);
    expect((await readObject(driver, moved.pdf_key!))!.equals(bytes)).toBe(true);
    for (const res of await downloads(dna)) expect(res.rawPayload.equals(bytes)).toBe(true);
    // Idempotent: nothing left to move.
    expect(await h.app.proofs.moveLegacyPdfs()).toBe(0);
  });

  it('the backfill runs at a worker start, in batches, until the column is empty', async () => {
    // Legacy rows beyond one batch (20): certificates of other deployments' shape, small bytes.
    const legacy = Array.from({ length: 45 }, (_, i) => ({ dna: `pv${randomBytes(12).toString('hex').replace(/[^a-z2-7]/g, 'a').slice(0, 20)}`, bytes: Buffer.from(`%PDF-1.7 legacy certificate ${i} ${randomBytes(8).toString('hex')}`) }));
    const now = Date.now();
    await h.app.db
      .insertInto('proofs')
      .values(legacy.map((l) => ({ dna: l.dna, status: 5, valid_ms: 86400_000, issued_at: now, expires_at: now + 86400_000, pdf: l.bytes, error: null, updated_at: now, page_signed: 1 })))
      .execute();
    // A worker starting: a new job runner's first pass moves them.
    const jobs = new ProofJobs(h.app.db, h.app.ledger, { error() {} }, null, 0, driver);
    try {
      await jobs.drain();
    } finally {
      await jobs.close();
    }
    const rows = await h.app.db.selectFrom('proofs').select(['dna', 'pdf', 'pdf_key', 'pdf_size', 'pdf_sha256']).where('dna', 'in', legacy.map((l) => l.dna)).execute();
    expect(rows).toHaveLength(legacy.length);
    for (const l of legacy) {
      const r = rows.find((x) => x.dna === l.dna)!;
      expect(r).toMatchObject({ pdf: null, pdf_key: `proofs/${l.dna}/1.pdf`, pdf_sha256: sha256(l.bytes) });
      expect(await readProofPdf(h.app.db, driver, l.dna)).toEqual(l.bytes);
    }
    expect(await h.app.db.selectFrom('proofs').select('dna').where('pdf', 'is not', null).execute()).toEqual([]);
    await h.app.db.deleteFrom('proofs').where('dna', 'in', legacy.map((l) => l.dna)).execute();
  });
});

describe('migration 0036-proof-pdf-objects on a database written before it', () => {
  it('adds the object columns to existing rows (null), which are served from their pdf column until the backfill moves them', async () => {
    const { Kysely, SqliteDialect } = await import('kysely');
    const { Migrator } = await import('kysely/migration');
    const SQLite = (await import('better-sqlite3')).default;
    const all = migrations('sqlite');
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0036-proof-pdf-objects'));
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-proof-migration-'));
    try {
      expect((await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()).error).toBeUndefined();
      const bytes = Array.from({ length: 3 }, (_, i) => Buffer.from(`%PDF-1.7 written by the old code ${i}`));
      const dnas = ['pvaaaaaaaaaaaaaaaaaaaa', 'pvbbbbbbbbbbbbbbbbbbbb', 'pvcccccccccccccccccccc'];
      await db
        .insertInto('proofs')
        .values(dnas.map((dna, i) => ({ dna, status: 5, generation: i + 1, valid_ms: 1000, issued_at: 1, expires_at: 1001, pdf: bytes[i], error: null, updated_at: 1, page_signed: 1 })))
        .execute();
      expect((await new Migrator({ db, provider: { getMigrations: async () => all } }).migrateToLatest()).error).toBeUndefined();
      const driver = localDriver(dir);
      const rows = await db.selectFrom('proofs').select(['dna', 'pdf_key', 'pdf_size', 'pdf_sha256']).orderBy('dna').execute();
      expect(rows.map((r) => [r.pdf_key, r.pdf_size, r.pdf_sha256])).toEqual(dnas.map(() => [null, null, null]));
      for (const [i, dna] of dnas.entries()) expect(await readProofPdf(db, driver, dna)).toEqual(bytes[i]);
      // Batches of two: two, then one, then none.
      expect(await moveLegacyProofPdfs(db, driver, { error() {} }, 2)).toBe(2);
      expect(await moveLegacyProofPdfs(db, driver, { error() {} }, 2)).toBe(1);
      expect(await moveLegacyProofPdfs(db, driver, { error() {} }, 2)).toBe(0);
      for (const [i, dna] of dnas.entries()) {
        const r = await db.selectFrom('proofs').select(['pdf', 'pdf_key', 'pdf_sha256']).where('dna', '=', dna).executeTakeFirstOrThrow();
        expect(r).toEqual({ pdf: null, pdf_key: `proofs/${dna}/${i + 1}.pdf`, pdf_sha256: sha256(bytes[i]!) });
        expect(await readProofPdf(db, driver, dna)).toEqual(bytes[i]);
      }
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
