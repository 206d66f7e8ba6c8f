import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommitRecorder, comparePaths, memoryFs, readCommitRecord, readCommitRecords, RepoReadError } from './repos-git.ts';
import { commitRecordDigest, encodeCommitRecord, parseCommitRecord, swhids, type CommitRecord } from './repos.ts';
import { cloneFixture, commitFiles, git, newRepo } from '../tests/server/repo-helpers.ts';

vi.setConfig({ testTimeout: 240_000 });

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const gitdirOf = (dir: string) => path.join(dir, '.git');
const cleanup: string[] = [];
afterAll(() => {
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});
const repo = () => {
  const dir = newRepo();
  cleanup.push(dir);
  return dir;
};

/** The record computed independently, with native git: what the documented format says, step by step. */
function nativeRecord(dir: string, commit: string): CommitRecord {
  const raw = execFileSync('git', ['cat-file', 'commit', commit], { cwd: dir });
  const split = raw.indexOf('\n\n');
  const header = raw.subarray(0, split).toString('utf8');
  const lines = header.split('\n').filter((l) => !l.startsWith(' '));
  const field = (k: string) => lines.filter((l) => l.startsWith(`${k} `)).map((l) => l.slice(k.length + 1));
  const person = (line: string) => {
    const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(line)!;
    return { name: m[1]!, email_sha256: sha256(m[2]!), time: Number(m[3]), tz: m[4]! };
  };
  const tree = field('tree')[0]!;
  const entries = execFileSync('git', ['ls-tree', '-r', '-z', '--full-tree', tree], { cwd: dir, maxBuffer: 1 << 28 })
    .toString('binary')
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [meta, pathBinary] = entry.split('\t') as [string, string];
      const [mode, type, oid] = meta.split(' ') as [string, string, string];
      return { mode, type, oid, pathBytes: Buffer.from(pathBinary, 'binary') };
    });
  // Every blob's bytes in one `git cat-file --batch`.
  const blobs = new Map<string, string>();
  const wanted = [...new Set(entries.filter((e) => e.type === 'blob').map((e) => e.oid))];
  if (wanted.length) {
    const out = execFileSync('git', ['cat-file', '--batch'], { cwd: dir, input: `${wanted.join('\n')}\n`, maxBuffer: 1 << 30 });
    let at = 0;
    while (at < out.length) {
      const eol = out.indexOf(10, at);
      const [oid, , size] = out.subarray(at, eol).toString('latin1').split(' ') as [string, string, string];
      blobs.set(oid, sha256(out.subarray(eol + 1, eol + 1 + Number(size))));
      at = eol + 1 + Number(size) + 1;
    }
  }
  const listing = entries
    .map((e) => {
      const digest = e.type === 'commit' ? e.oid : blobs.get(e.oid)!;
      return { line: Buffer.concat([Buffer.from(`${e.mode} ${digest} `), e.pathBytes, Buffer.from([0])]), pathBytes: e.pathBytes };
    })
    .sort((a, b) => Buffer.compare(a.pathBytes, b.pathBytes));
  return {
    v: 1,
    format: 'provena-git-commit',
    object_format: 'sha1',
    commit,
    tree,
    parents: field('parent'),
    author: person(field('author')[0]!),
    committer: person(field('committer')[0]!),
    message_sha256: sha256(raw.subarray(split + 2)),
    commit_sha256: sha256(raw),
    tree_sha256: sha256(Buffer.concat(listing.map((l) => l.line))),
    file_count: listing.length,
  };
}

/** The picked-folder path: every file of `.git` through the in-memory file system the browser worker uses. */
function memoryFsOf(dir: string) {
  const files: Array<{ path: string; size: number; read(): Promise<Uint8Array> }> = [];
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(abs, e.name), `${rel}/${e.name}`);
      else if (e.isFile()) {
        const full = path.join(abs, e.name);
        files.push({ path: `${rel}/${e.name}`, size: fs.statSync(full).size, read: async () => new Uint8Array(fs.readFileSync(full)) });
      }
    }
  };
  walk(gitdirOf(dir), '/picked/.git');
  return memoryFs(files);
}

describe('commit records of small repositories', () => {
  it('a merge, a rename, a binary file, non-ASCII paths and authors: each record equals the native computation', async () => {
    const dir = repo();
    const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
    commitFiles(dir, { 'a.txt': 'one\n', 'logo.bin': binary, 'z/深/文件.md': '中文内容\n', 'ä.txt': 'umlaut\n', 'a-b.txt': 'dash\n', 'a/b.txt': 'slash\n' }, '首次提交');
    git(dir, ['checkout', '-q', '-b', 'feature']);
    git(dir, ['mv', 'a.txt', 'renamed.txt']);
    git(dir, ['commit', '-q', '-m', 'rename'], { GIT_AUTHOR_NAME: '山田 太郎', GIT_AUTHOR_EMAIL: 'taro@例え.jp', GIT_AUTHOR_DATE: '2024-02-03T04:05:06-0130' });
    git(dir, ['checkout', '-q', 'main']);
    commitFiles(dir, { 'main.txt': 'main side\n' }, 'main work');
    git(dir, ['merge', '-q', '--no-ff', '-m', 'merge feature', 'feature']);
    git(dir, ['tag', '-a', 'v1', '-m', 'annotated']);
    const { records, tips } = await readCommitRecords({ fs, gitdir: gitdirOf(dir) });
    expect(records).toHaveLength(4);
    expect(tips.map((t) => t.ref)).toEqual(expect.arrayContaining(['refs/heads/main', 'refs/heads/feature', 'refs/tags/v1', 'HEAD']));
    // Parents before children: the merge is last.
    const merge = records[3]!;
    expect(merge.parents).toHaveLength(2);
    for (const r of records) expect(r).toEqual(nativeRecord(dir, r.commit));
    const renamed = records.find((r) => r.author.name === '山田 太郎')!;
    expect(renamed.author).toMatchObject({ tz: '-0130', email_sha256: sha256('taro@例え.jp') });
    expect(renamed.committer.name).toBe('Test Committer');
    // The record round-trips through the API's parser, and its encoding is canonical.
    for (const r of records) expect(parseCommitRecord(JSON.parse(encodeCommitRecord(r)))).toEqual(r);
    expect(await commitRecordDigest(merge)).toBe(sha256(encodeCommitRecord(merge)));
    expect(swhids(merge.commit, merge.tree)).toEqual({ rev: `swh:1:rev:${merge.commit}`, dir: `swh:1:dir:${merge.tree}` });
  });

  it('changed paths against the first parent: the same paths and line counts as git diff-tree --numstat', async () => {
    const dir = repo();
    const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
    commitFiles(dir, { 'a.txt': 'one\ntwo\nthree\n', 'src/deep/x.ts': 'x\n', 'logo.bin': binary, '文档/说明.md': '中文\n' }, 'root');
    commitFiles(dir, { 'a.txt': 'zero\none\nthree!\n', 'src/deep/y.ts': 'y\ny\n' }, 'edit');
    git(dir, ['rm', '-q', 'src/deep/x.ts']);
    fs.writeFileSync(path.join(dir, 'logo.bin'), Buffer.concat([binary, Buffer.from([0, 1])]));
    commitFiles(dir, { '文档/说明.md': '中文\n更多\n' }, 'delete, binary, non-ASCII');
    git(dir, ['checkout', '-q', '-b', 'side', 'HEAD~1']);
    commitFiles(dir, { 'side.txt': 's\n' }, 'side');
    git(dir, ['checkout', '-q', 'main']);
    git(dir, ['merge', '-q', '--no-ff', '-m', 'merge', 'side']);
    const { records, changes } = await readCommitRecords({ fs, gitdir: gitdirOf(dir), withChanges: true });
    expect(records).toHaveLength(5);
    for (const r of records) {
      const native = git(dir, ['-c', 'core.quotepath=off', 'diff-tree', '--numstat', '-r', '--no-renames', ...(r.parents[0] ? [r.parents[0], r.commit] : ['--root', r.commit])])
        .split('\n')
        .filter((l) => /\t/.test(l))
        .map((l) => {
          const [added, removed, p] = l.split('\t') as [string, string, string];
          return { path: p, added: added === '-' ? null : Number(added), removed: removed === '-' ? null : Number(removed) };
        });
      const ours = changes.get(r.commit)!;
      expect(ours.paths.map((c) => ({ path: c.path, added: c.added, removed: c.removed })).sort((a, b) => (a.path < b.path ? -1 : 1)), r.commit).toEqual(native.sort((a, b) => (a.path < b.path ? -1 : 1)));
      expect(ours.files).toBe(native.length);
    }
    const edit = changes.get(records[1]!.commit)!;
    expect(edit).toMatchObject({ files: 2, added: 4, removed: 2, truncated: false });
    const y = edit.paths.find((c) => c.path === 'src/deep/y.ts')!;
    expect(y).toMatchObject({ status: 'A', old_sha256: null, sha256: sha256('y\ny\n') });
    const third = changes.get(records[2]!.commit)!;
    expect(third.paths.find((c) => c.path === 'src/deep/x.ts')).toMatchObject({ status: 'D', sha256: null, old_sha256: sha256('x\n'), added: 0, removed: 1 });
    expect(third.paths.find((c) => c.path === 'logo.bin')).toMatchObject({ status: 'M', added: null, removed: null });
  });

  it('known commits are not walked again: one new commit gives one record', async () => {
    const dir = repo();
    commitFiles(dir, { 'a.txt': '1' }, 'one');
    commitFiles(dir, { 'a.txt': '2' }, 'two');
    const first = await readCommitRecords({ fs, gitdir: gitdirOf(dir) });
    const newest = commitFiles(dir, { 'a.txt': '3' }, 'three');
    const second = await readCommitRecords({ fs, gitdir: gitdirOf(dir), known: new Set(first.records.map((r) => r.commit)) });
    expect(second.records.map((r) => r.commit)).toEqual([newest]);
  });

  it('one byte changed in one file changes the tree digest (and nothing else of an unrelated commit)', async () => {
    const a = repo();
    const b = repo();
    for (const [dir, text] of [
      [a, 'hello world\n'],
      [b, 'hello world!'.slice(0, 11) + '\n'],
    ] as const) commitFiles(dir, { 'x.txt': text, 'y.txt': 'same\n' }, 'c');
    fs.writeFileSync(path.join(b, 'x.txt'), 'hellO world\n');
    git(b, ['commit', '-q', '--amend', '-a', '--no-edit']);
    const [ra] = (await readCommitRecords({ fs, gitdir: gitdirOf(a) })).records;
    const [rb] = (await readCommitRecords({ fs, gitdir: gitdirOf(b) })).records;
    expect(ra!.tree_sha256).not.toBe(rb!.tree_sha256);
    expect(ra!.message_sha256).toBe(rb!.message_sha256);
  });

  it('an empty repository has no commits; a folder that is not a repository is refused', async () => {
    const dir = repo();
    expect((await readCommitRecords({ fs, gitdir: gitdirOf(dir) })).records).toEqual([]);
    const notRepo = fs.mkdtempSync(path.join(path.dirname(dir), 'provena-not-repo-'));
    cleanup.push(notRepo);
    await expect(readCommitRecords({ fs, gitdir: path.join(notRepo, '.git') })).rejects.toBeInstanceOf(RepoReadError);
  });

  it('SHA-256 object format: isomorphic-git cannot read it, so it is refused by name rather than recorded wrongly', async () => {
    const dir = newRepo({ objectFormat: 'sha256' });
    cleanup.push(dir);
    commitFiles(dir, { 'a.txt': 'x' }, 'sha256 commit');
    const error = await readCommitRecords({ fs, gitdir: gitdirOf(dir) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RepoReadError);
    expect((error as RepoReadError).reason).toBe('object_format_unsupported');
  });

  it('the in-memory file system of a picked folder gives the same records as the disk, and can be cancelled', async () => {
    const dir = repo();
    commitFiles(dir, { 'a.txt': 'a', 'b/c.txt': 'c' }, 'one');
    commitFiles(dir, { 'a.txt': 'aa' }, 'two');
    git(dir, ['gc', '-q']); // a packfile, not loose objects
    commitFiles(dir, { 'd.txt': 'd' }, 'three (loose)');
    const disk = await readCommitRecords({ fs, gitdir: gitdirOf(dir) });
    const memory = await readCommitRecords({ fs: memoryFsOf(dir), gitdir: '/picked/.git' });
    expect(memory.records).toEqual(disk.records);
    const controller = new AbortController();
    controller.abort();
    await expect(readCommitRecords({ fs: memoryFsOf(dir), gitdir: '/picked/.git', signal: controller.signal })).rejects.toMatchObject({ reason: 'cancelled' });
    const one = await readCommitRecord(fs, gitdirOf(dir), disk.records[1]!.commit.slice(0, 8));
    expect(one).toEqual(disk.records[1]);
  });
});

describe('the Underscore.js history (fixture)', () => {
  let dir: string;
  beforeAll(() => {
    dir = cloneFixture();
    cleanup.push(dir);
  });

  it('gives one record per commit of every branch and tag, parents first, matching native git', async () => {
    const progress: number[] = [];
    const started = performance.now();
    const { records, changes } = await readCommitRecords({ fs, gitdir: gitdirOf(dir), onProgress: (p) => progress.push(p.done), withChanges: true });
    const seconds = (performance.now() - started) / 1000;
    // Byte for byte what the reader computed before it read pack files itself (isomorphic-git's
    // readObject for every object, at commit db9516d): records already proven must not change.
    const digestOf = (values: unknown[]) => sha256(values.map((v) => `${JSON.stringify(v)}\n`).join(''));
    expect(digestOf(records)).toBe('974c6f7fa874bbd58fd3fcbcdafe0c3d37c74b7c9ff43339d8ae4e8d61f57091');
    expect(digestOf(records.map((r) => changes.get(r.commit) ?? null))).toBe('19085184986c1c4d34b2d956c8b7843d9c050e653282c4188f3f900535a9ff84');
    const all = execFileSync('git', ['rev-list', '--all', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    expect(records.length).toBe(new Set(all).size);
    expect(new Set(records.map((r) => r.commit))).toEqual(new Set(all));
    const position = new Map(records.map((r, i) => [r.commit, i]));
    for (const r of records) for (const p of r.parents) expect(position.get(p)!).toBeLessThan(position.get(r.commit)!);
    expect(progress.at(-1)).toBe(records.length);
    // Cross-checked with native git on a spread of commits: the root, merges, the tip.
    const sample = [records[0]!, ...records.filter((r) => r.parents.length > 1).slice(0, 3), records[Math.floor(records.length / 2)]!, records.at(-1)!];
    for (const r of sample) expect(r).toEqual(nativeRecord(dir, r.commit));
    console.info(`underscore: ${records.length} commit records in ${seconds.toFixed(1)} s (Node, disk)`);
  });
});

describe('comparePaths', () => {
  it('orders paths as their UTF-8 bytes do, surrogate pairs included', () => {
    const chars = ['a', 'B', '/', '.', 'é', '中', '\uE000', '\uFFFD', '😀', '𠀀', '~'];
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    let seed = 3;
    const pick = () => chars[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % chars.length]!;
    const paths = Array.from({ length: 300 }, () => Array.from({ length: 1 + (seed % 4) }, pick).join(''));
    const sign = (n: number) => Math.sign(n);
    for (let i = 0; i + 1 < paths.length; i++) expect(sign(comparePaths(paths[i]!, paths[i + 1]!))).toBe(sign(Buffer.compare(bytes(paths[i]!), bytes(paths[i + 1]!))));
  });
});

describe('CommitRecorder', () => {
  it('hashes each blob once across commits', async () => {
    const dir = repo();
    commitFiles(dir, { 'big.txt': 'x'.repeat(100_000) }, 'one');
    commitFiles(dir, { 'small.txt': 'y' }, 'two');
    const recorder = new CommitRecorder(fs, gitdirOf(dir));
    const log = git(dir, ['log', '--format=%H']).split('\n');
    for (const c of log) await recorder.record(c);
    expect(recorder.bytes).toBe(100_001);
  });
});
