import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HashLostError, RunningHash, stopHashThread } from '../../server/storage/running-hash.ts';

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

describe('RunningHash (SHA-256 of an upload on its own thread)', () => {
  it('gives the digest node:crypto gives, for no bytes, small pieces and pieces larger than a slot', async () => {
    expect(await new RunningHash().digest()).toBe(sha256());
    const parts = [randomBytes(1), randomBytes(65_536), randomBytes(3 * 1024 * 1024 + 17), Buffer.alloc(0), randomBytes(1024 * 1024)];
    const hash = new RunningHash();
    for (const part of parts) void hash.update(part);
    expect(await hash.digest()).toBe(sha256(...parts));
  });

  it('copies the bytes when called while slots are free: the caller may refill its buffer at once', async () => {
    const buffer = randomBytes(256 * 1024);
    const first = Buffer.from(buffer);
    const hash = new RunningHash();
    void hash.update(buffer);
    buffer.fill(7);
    void hash.update(buffer);
    expect(await hash.digest()).toBe(sha256(first, Buffer.alloc(256 * 1024, 7)));
  });

  it('keeps hashes apart when their updates interleave', async () => {
    const a = new RunningHash();
    const b = new RunningHash();
    const pa = [randomBytes(5000), randomBytes(70_000)];
    const pb = [randomBytes(123), randomBytes(2 * 1024 * 1024)];
    void a.update(pa[0]!);
    void b.update(pb[0]!);
    void a.update(pa[1]!);
    void b.update(pb[1]!);
    expect(await Promise.all([b.digest(), a.digest()])).toEqual([sha256(...pb), sha256(...pa)]);
  });

  it('more bytes than the shared slots hold, from several hashes at once, wait for free slots and hash right', async () => {
    const big = [randomBytes(12 * 1024 * 1024 + 5), randomBytes(9 * 1024 * 1024)];
    const small = randomBytes(70_000);
    const hashes = [new RunningHash(), new RunningHash(), new RunningHash()];
    await Promise.all([hashes[0]!.update(big[0]!), hashes[1]!.update(big[1]!), hashes[2]!.update(small)]);
    expect(await Promise.all(hashes.map((hash) => hash.digest()))).toEqual([sha256(big[0]!), sha256(big[1]!), sha256(small)]);
  });

  it('updates not awaited, past what the slots hold, are hashed in the order made; the digest waits for them', async () => {
    const parts = Array.from({ length: 5 }, (_, i) => randomBytes(3 * 1024 * 1024 + i));
    const other = randomBytes(6 * 1024 * 1024);
    const busy = new RunningHash();
    const hash = new RunningHash();
    void busy.update(other);
    for (const part of parts) void hash.update(part);
    expect(await hash.digest()).toBe(sha256(...parts));
    expect(await busy.digest()).toBe(sha256(other));
  });

  it('a hash dropped while its updates wait for slots settles them and leaves the slots to the others', async () => {
    const dropped = new RunningHash();
    const waiting = [dropped.update(randomBytes(8 * 1024 * 1024)), dropped.update(randomBytes(4 * 1024 * 1024))];
    dropped.drop();
    await expect(Promise.all(waiting)).resolves.toEqual([undefined, undefined]);
    const next = new RunningHash();
    const bytes = randomBytes(10 * 1024 * 1024);
    await next.update(bytes);
    expect(await next.digest()).toBe(sha256(bytes));
  });

  it('a dropped hash settles the updates still queued and refuses further use', async () => {
    const hash = new RunningHash();
    const queued = [hash.update(randomBytes(1024 * 1024)), hash.update(randomBytes(1024 * 1024))];
    hash.drop();
    await expect(Promise.all(queued)).resolves.toEqual([undefined, undefined]);
    await expect(hash.update(randomBytes(1))).rejects.toThrow();
    await expect(hash.digest()).rejects.toThrow();
  });

  it('a hash whose thread stops is lost (digest rejects with HashLostError); the next hash runs on a new thread', async () => {
    const hash = new RunningHash();
    const updated = hash.update(randomBytes(2 * 1024 * 1024));
    await stopHashThread();
    await expect(updated).resolves.toBeUndefined();
    expect(hash.isLost).toBe(true);
    await expect(hash.update(randomBytes(10))).resolves.toBeUndefined();
    await expect(hash.digest()).rejects.toBeInstanceOf(HashLostError);
    const next = new RunningHash();
    const bytes = randomBytes(4096);
    void next.update(bytes);
    expect(next.isLost).toBe(false);
    expect(await next.digest()).toBe(sha256(bytes));
  });
});
