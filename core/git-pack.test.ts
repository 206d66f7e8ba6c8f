import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { applyDelta, PackReader } from './git-pack.ts';
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
});
