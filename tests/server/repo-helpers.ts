import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommitRecord } from '../../core/repos.ts';

/** Runs git in `dir` with a fixed identity and dates, so tests do not depend on the machine's git config. */
export function git(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_SYSTEM: '/dev/null',
      GIT_AUTHOR_NAME: 'Test Author',
      GIT_AUTHOR_EMAIL: 'author@example.com',
      GIT_COMMITTER_NAME: 'Test Committer',
      GIT_COMMITTER_EMAIL: 'committer@example.com',
      GIT_AUTHOR_DATE: '2024-01-02T03:04:05+0800',
      GIT_COMMITTER_DATE: '2024-01-02T03:04:05+0800',
      ...env,
    },
  }).trim();
}

/** A new repository in a temporary directory, on branch main. */
export function newRepo(options: { objectFormat?: 'sha1' | 'sha256' } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-repo-'));
  git(dir, ['init', '-q', '-b', 'main', ...(options.objectFormat ? [`--object-format=${options.objectFormat}`] : [])]);
  return dir;
}

/** Writes files and commits them; returns the new commit id. */
export function commitFiles(dir: string, files: Record<string, string | Buffer>, message: string, env: Record<string, string> = {}): string {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', message], env);
  return git(dir, ['rev-parse', 'HEAD']);
}

/** Clones the Underscore.js history (≈ 2 900 commits) into a temporary directory. */
export function cloneFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-underscore-'));
  execFileSync('git', ['clone', '-q', fixtureBundle(), dir], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
  return dir;
}

/** The fixture beside the checkout (CI: ../shared; worktrees: ../../shared). */
export const fixtureBundle = (): string => {
  const candidates = [path.resolve('../shared/fixtures/repos/underscore.bundle'), path.resolve('../../shared/fixtures/repos/underscore.bundle')];
  return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
};

const hex = (n: number) => randomBytes(n).toString('hex');

/** A well-formed record of a commit that exists nowhere (for the API's own checks). */
export function fakeRecord(overrides: Partial<CommitRecord> = {}): CommitRecord {
  return {
    v: 1,
    format: 'provena-git-commit',
    object_format: 'sha1',
    commit: hex(20),
    tree: hex(20),
    parents: [],
    author: { name: '张三', email_sha256: createHash('sha256').update('a@example.com').digest('hex'), time: 1_700_000_000, tz: '+0800' },
    committer: { name: '张三', email_sha256: createHash('sha256').update('a@example.com').digest('hex'), time: 1_700_000_000, tz: '+0800' },
    message_sha256: hex(32),
    commit_sha256: hex(32),
    tree_sha256: hex(32),
    file_count: 3,
    ...overrides,
  };
}
