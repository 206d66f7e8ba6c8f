import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { applyDelta, ByteRing, PackReader } from './git-pack.ts';
import { cloneFixture } from '../tests/server/repo-helpers.ts';

vi.setConfig({ testTimeout: 120_000 });

const cleanup: string[] = [];
afterAll(() => {
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('the pack reader', () => {
  it('reads every object of the fixture pack as git stores it (its SHA-1 is its id), with a cache smaller than one chain', async () => {
    const dir = cloneFixture();
    cleanup.push(dir);
    const gitdir = path.join(dir, '.git');
    const listed = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch-check'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    expect(listed.length).toBeGreaterThan(10_000);
    // A tiny cache: most delta chains are walked down to their whole base.
    for (const cacheBytes of [64 * 2 ** 20, 64 * 1024]) {
      const reader = await PackReader.open(fs.promises as never, gitdir, cacheBytes);
      for (const line of cacheBytes === 64 * 1024 ? listed.filter((_, i) => i % 7 === 0) : listed) {
        const [oid, type, size] = line.split(' ') as [string, string, string];
        const object = reader.read(oid);
        expect(object?.type).toBe(type);
        expect(object!.content.length).toBe(Number(size));
        const id = createHash('sha1').update(`${type} ${size}\0`).update(object!.content).digest('hex');
        expect(id).toBe(oid);
      }
    }
  });

  it('answers null for an object in no pack (a loose one), which the recorder then asks isomorphic-git for', async () => {
    const dir = cloneFixture();
    cleanup.push(dir);
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'loose\n', encoding: 'utf8' }).trim();
    const reader = await PackReader.open(fs.promises as never, path.join(dir, '.git'));
    expect(reader.read(blob)).toBeNull();
    const empty = await PackReader.open(fs.promises as never, path.join(dir, 'no-such-gitdir'));
    expect(empty.read(blob)).toBeNull();
  });

  it('refuses a delta that does not fit its base', () => {
    // base size 3, result size 2, copy 2 bytes from offset 0
    expect(Array.from(applyDelta(Uint8Array.of(3, 2, 0x91, 0, 2), Uint8Array.of(7, 8, 9)))).toEqual([7, 8]);
    expect(() => applyDelta(Uint8Array.of(4, 2, 0x91, 0, 2), Uint8Array.of(7, 8, 9))).toThrow(/base/);
    expect(() => applyDelta(Uint8Array.of(3, 2, 0x91, 2, 2), Uint8Array.of(7, 8, 9))).toThrow(/range/);
  });

  it('hands out ring regions that stay valid until the ring has gone round once after them', () => {
    const ring = new ByteRing(100);
    const a = ring.alloc(20)!;
    a.bytes.fill(1);
    expect(ring.alloc(26)).toBeNull(); // more than a quarter: its own buffer
    const b = ring.alloc(25)!;
    expect([a.at, b.at]).toEqual([0, 20]);
    ring.alloc(25);
    ring.alloc(25);
    expect(ring.valid(a.at)).toBe(true);
    expect([...a.bytes].every((x) => x === 1)).toBe(true);
    const e = ring.alloc(10)!; // skips the 5 bytes left at the end, reuses a's place
    expect(e.at).toBe(100);
    expect(ring.valid(a.at)).toBe(false);
    expect(ring.valid(b.at)).toBe(true);
    expect(ring.survives(b.at, 5)).toBe(true);
    expect(ring.survives(b.at, 10)).toBe(false);
  });

  it('objects read earlier are reported overwritten once the ring reused their place, and read again right', async () => {
    const dir = cloneFixture();
    cleanup.push(dir);
    const listed = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch-check'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').slice(0, 400);
    const reader = await PackReader.open(fs.promises as never, path.join(dir, '.git'), 256 * 1024);
    const first = listed.map((line) => line.split(' ')[0]!).map((oid) => ({ oid, object: reader.read(oid)! }));
    const stale = first.filter(({ object }) => !reader.isValid(object));
    expect(stale.length).toBeGreaterThan(0);
    for (const { oid, object } of first) {
      const again = reader.read(oid)!;
      expect(reader.isValid(again)).toBe(true);
      const [type, size] = [again.type, again.content.length];
      expect(createHash('sha1').update(`${type} ${size}\0`).update(again.content).digest('hex')).toBe(oid);
      if (reader.isValid(object) && object.at >= 0) expect(object.content).toEqual(again.content);
    }
  });
});
