import { describe, expect, it } from 'vitest';
import type { AssetBatchResponse, AssetDto, AssetRegisterInput } from '../../../core/assets.ts';
import type { FilesHashOptions, HashResult } from '../../../workers/hash/hash-service.ts';
import { newBatchRows, runBatch, type BatchFile, type BatchRow } from './batch-runner.ts';

const abortError = () => new DOMException('cancelled', 'AbortError');
const idOf = (f: BatchFile) => `0x${f.name.replace(/\W/g, '').padEnd(64, '0').slice(0, 64)}.bin`;
const result = (f: BatchFile): HashResult => ({ hash: '', identity: idOf(f), bytes: f.size, ms: 1 });

/** A server that registers each identity once (later copies are hash_duplicate). */
function fakeServer(opts: { failCall?: number } = {}) {
  const seen = new Set<string>();
  const calls: AssetRegisterInput[][] = [];
  const register = async (items: AssetRegisterInput[]): Promise<AssetBatchResponse> => {
    calls.push(items);
    if (calls.length === opts.failCall) throw new Error('network down');
    const results = items.map((item, index) => {
      const digest = item.file_hash.slice(0, 66);
      if (seen.has(digest)) return { index, ok: false as const, message: 'hash_duplicate' as const, field_name: 'file_hash' };
      seen.add(digest);
      return { index, ok: true as const, asset: { dip_id: `pv-${item.name}`, name: item.name, type: item.type } as AssetDto };
    });
    return { results, registered: results.filter((r) => r.ok).length, refused: results.filter((r) => !r.ok).length };
  };
  return { register, calls };
}

const summary = (rows: readonly BatchRow[]) => rows.map((r) => [r.name, r.status, r.message ?? r.asset?.dip_id ?? null]);

describe('batch registration runner', () => {
  it('sends each fingerprint as it comes; a duplicate is refused on its own row, the others register', async () => {
    const files: BatchFile[] = [
      { name: 'a.png', size: 1 },
      { name: 'b.png', size: 2 },
      { name: 'a.png', size: 1 },
      { name: 'c.txt', size: 3 },
    ];
    const server = fakeServer();
    const hashFiles = async (fs: readonly BatchFile[], o: FilesHashOptions) => {
      for (const [i, f] of fs.entries()) {
        o.onFileProgress?.(i, 0);
        await new Promise((r) => setTimeout(r, 1));
        o.onFileHashed?.(i, result(f));
      }
      return fs.map(result);
    };
    const seenRows: BatchRow[][] = [];
    const rows = await runBatch(files, newBatchRows(files), { hashFiles, register: server.register }, { type: 3, signal: new AbortController().signal, onRows: (r) => seenRows.push([...r]) });
    expect(summary(rows)).toEqual([
      ['a.png', 'registered', 'pv-a.png'],
      ['b.png', 'registered', 'pv-b.png'],
      ['a.png', 'refused', 'hash_duplicate'],
      ['c.txt', 'registered', 'pv-c.txt'],
    ]);
    expect(server.calls.flat().map((i) => [i.name, i.type, i.size])).toEqual([
      ['a.png', 3, 1],
      ['b.png', 3, 2],
      ['a.png', 3, 1],
      ['c.txt', 3, 3],
    ]);
    // Rows moved through hashing and sending on the way.
    expect(seenRows.some((r) => r[0]?.status === 'hashing')).toBe(true);
    expect(seenRows.some((r) => r.some((x) => x.status === 'sending'))).toBe(true);
  });

  it('an unreadable file fails alone: the rest are hashed one by one and registered', async () => {
    const files: BatchFile[] = [
      { name: 'ok1', size: 1 },
      { name: 'unreadable', size: 1 },
      { name: 'ok2', size: 1 },
    ];
    const server = fakeServer();
    const hashFiles = async (fs: readonly BatchFile[], o: FilesHashOptions) => {
      for (const [i, f] of fs.entries()) {
        if (f.name === 'unreadable') throw new Error('NotReadableError');
        o.onFileHashed?.(i, result(f));
      }
      return fs.map(result);
    };
    const rows = await runBatch(files, newBatchRows(files), { hashFiles, register: server.register }, { type: 0, signal: new AbortController().signal, onRows: () => undefined });
    expect(rows.map((r) => r.status)).toEqual(['registered', 'failed', 'registered']);
    expect(String(rows[1]?.error)).toContain('NotReadableError');
  });

  it('a failed call fails its rows only; later fingerprints still go', async () => {
    const files: BatchFile[] = [
      { name: 'first', size: 1 },
      { name: 'second', size: 1 },
    ];
    const server = fakeServer({ failCall: 1 });
    const hashFiles = async (fs: readonly BatchFile[], o: FilesHashOptions) => {
      o.onFileHashed?.(0, result(fs[0]!));
      await new Promise((r) => setTimeout(r, 5));
      o.onFileHashed?.(1, result(fs[1]!));
      return fs.map(result);
    };
    const rows = await runBatch(files, newBatchRows(files), { hashFiles, register: server.register }, { type: 0, signal: new AbortController().signal, onRows: () => undefined });
    expect(rows.map((r) => r.status)).toEqual(['failed', 'registered']);
    expect(server.calls).toHaveLength(2);
  });

  it('cancel stops the remaining work: nothing more is hashed or sent, the rest is cancelled', async () => {
    const files: BatchFile[] = [
      { name: 'one', size: 1 },
      { name: 'two', size: 1 },
      { name: 'three', size: 1 },
    ];
    const server = fakeServer();
    const controller = new AbortController();
    let hashedAfterCancel = 0;
    const hashFiles = async (fs: readonly BatchFile[], o: FilesHashOptions) => {
      o.onFileHashed?.(0, result(fs[0]!));
      await new Promise<void>((resolve) => o.signal?.addEventListener('abort', () => resolve(), { once: true }));
      if (!o.signal?.aborted) hashedAfterCancel += 1;
      throw abortError();
    };
    const register = async (items: AssetRegisterInput[]) => {
      const answer = await server.register(items);
      controller.abort(); // the user cancels while the first call is in flight
      return answer;
    };
    const rows = await runBatch(files, newBatchRows(files), { hashFiles, register }, { type: 0, signal: controller.signal, onRows: () => undefined });
    // The call in flight finished (the server registered it); nothing else was done.
    expect(rows.map((r) => r.status)).toEqual(['registered', 'cancelled', 'cancelled']);
    expect(server.calls).toHaveLength(1);
    expect(hashedAfterCancel).toBe(0);
  });
});
