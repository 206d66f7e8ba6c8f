import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decryptor, Encryptor, newEnvelope, openKey, readHeader, type ArchiveKey, type EnvelopeHeader } from '../../server/backup/sealed-stream.ts';
import { localDriver, s3Driver } from '../../server/storage/drivers.ts';
import { findPgTool, schemaOfUrl } from '../../server/backup/backup.ts';
import { startS3 } from './storage-helpers.ts';

/** The backup archive's envelope (records sealed one by one) and the object stores' listing it walks. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-backup-archive-'));
let header: EnvelopeHeader;
let key: ArchiveKey;
beforeAll(async () => {
  ({ header, key } = await newEnvelope('unit test passphrase', { dialect: 'sqlite', createdAt: new Date(), chunkBytes: 1024 }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function seal(plain: Buffer): Promise<Buffer> {
  const file = path.join(dir, `a-${randomBytes(4).toString('hex')}`);
  // Written in uneven pieces, as a tar stream writes.
  const pieces: Buffer[] = [];
  for (let i = 0; i < plain.length; i += 333) pieces.push(plain.subarray(i, i + 333));
  await pipeline(Readable.from(pieces), new Encryptor(header, key), fs.createWriteStream(file));
  return fs.readFileSync(file);
}

async function open(sealed: Buffer, passphrase?: string): Promise<Buffer> {
  const file = path.join(dir, `o-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(file, sealed);
  const { header: h, headerBytes, offset } = await readHeader(file);
  // scrypt is slow on purpose: the key derived once serves every case but the passphrase one.
  const k = passphrase === undefined ? key : await openKey(passphrase, h);
  const out: Buffer[] = [];
  await pipeline(fs.createReadStream(file, { start: offset, highWaterMark: 700 }), new Decryptor(headerBytes, h, k), async (source: AsyncIterable<Buffer>) => {
    for await (const c of source) out.push(c);
  });
  return Buffer.concat(out);
}

/** Offsets of each record in a sealed archive (after the header). */
function records(sealed: Buffer): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let at = 12 + sealed.readUInt32BE(8);
  while (at < sealed.length) {
    const end = at + 5 + sealed.readUInt32BE(at) + 16;
    out.push({ start: at, end });
    at = end;
  }
  return out;
}

describe('backup archive envelope', () => {
  it('round-trips any length, in records of chunk_bytes, the last one marked', async () => {
    for (const size of [0, 1, 1023, 1024, 1025, 5000]) {
      const plain = randomBytes(size);
      const sealed = await seal(plain);
      expect((await open(sealed)).equals(plain), `size ${size}`).toBe(true);
      const rs = records(sealed);
      expect(rs.length).toBe(Math.max(1, Math.ceil(size / 1024)));
      expect(rs.map((r) => sealed[r.start + 4])).toEqual(rs.map((_, i) => (i === rs.length - 1 ? 1 : 0)));
    }
  });

  it('refuses a wrong passphrase, a dropped, swapped or changed record, a cut tail and bytes after the end', async () => {
    const plain = randomBytes(4000);
    const sealed = await seal(plain);
    const rs = records(sealed);
    await expect(open(sealed, 'another passphrase')).rejects.toThrow(/wrong passphrase/);
    const dropped = Buffer.concat([sealed.subarray(0, rs[1]!.start), sealed.subarray(rs[1]!.end)]);
    await expect(open(dropped)).rejects.toThrow(/does not authenticate/);
    const swapped = Buffer.concat([sealed.subarray(0, rs[0]!.start), sealed.subarray(rs[1]!.start, rs[1]!.end), sealed.subarray(rs[0]!.start, rs[0]!.end), sealed.subarray(rs[2]!.start)]);
    await expect(open(swapped)).rejects.toThrow(/does not authenticate/);
    const changed = Buffer.from(sealed);
    changed[rs[2]!.start + 100] = changed[rs[2]!.start + 100]! ^ 0x80;
    await expect(open(changed)).rejects.toThrow(/does not authenticate/);
    // Cut exactly at a record boundary: every remaining record authenticates, the last is missing.
    await expect(open(sealed.subarray(0, rs[2]!.end))).rejects.toThrow(/cut short/);
    await expect(open(Buffer.concat([sealed, sealed.subarray(rs[0]!.start, rs[0]!.end)]))).rejects.toThrow(/bytes follow its last record/);
    // The last-record flag cannot be set on an earlier record.
    const flagged = Buffer.from(sealed.subarray(0, rs[0]!.end));
    flagged[rs[0]!.start + 4] = 1;
    await expect(open(flagged)).rejects.toThrow(/does not authenticate/);
  });
});

describe('object store listing (what a backup walks)', () => {
  it('local: every key, nested, without the temp files of writes in progress', async () => {
    const objects = path.join(dir, 'objects');
    const driver = localDriver(objects);
    await driver.put('stored/0xab.bin', Readable.from([Buffer.from('a')]));
    await driver.put('checkpoints/000000000001', Readable.from([Buffer.from('b')]));
    fs.writeFileSync(path.join(objects, 'stored', '0xcd.bin.0123456789ab.tmp'), 'half');
    const keys: string[] = [];
    for await (const k of driver.list()) keys.push(k);
    expect(keys.sort()).toEqual(['checkpoints/000000000001', 'stored/0xab.bin']);
    const empty: string[] = [];
    for await (const k of localDriver(path.join(dir, 'none')).list()) empty.push(k);
    expect(empty).toEqual([]);
  });

  it('s3 (s3rver): the keys under its prefix only, without the prefix', { timeout: 60_000 }, async () => {
    const s3 = await startS3();
    try {
      const storage = s3.storage as Extract<typeof s3.storage, { kind: 's3' }>;
      const mine = s3Driver({ ...storage, prefix: 'mine/' });
      const other = s3Driver({ ...storage, prefix: 'other/' });
      await mine.put('stored/one', Readable.from([Buffer.from('1')]));
      await mine.put('checkpoints/000000000007', Readable.from([Buffer.from('2')]));
      await other.put('stored/two', Readable.from([Buffer.from('3')]));
      const keys: string[] = [];
      for await (const k of mine.list()) keys.push(k);
      expect(keys.sort()).toEqual(['checkpoints/000000000007', 'stored/one']);
    } finally {
      await s3.close();
    }
  });
});

describe('PostgreSQL tools', () => {
  it('says what to install when pg_dump is missing, and reads the schema from the search_path', () => {
    expect(() => findPgTool('pg_dump', { PATH: '/nonexistent' })).toThrow(/pg_dump is not on PATH.*postgresql-client.*PG_BIN/);
    expect(schemaOfUrl('postgres://u@h:5432/db?options=-c%20search_path%3Dt_abc')).toBe('t_abc');
    expect(schemaOfUrl('postgres://u@h:5432/db')).toBe('public');
  });
});
