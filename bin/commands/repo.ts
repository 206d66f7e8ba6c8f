import fs from 'node:fs';
import path from 'node:path';
import { readCommitRecord, readCommitRecords, RepoReadError } from '../../core/repos-git.ts';
import { COMMIT_BATCH_MAX, commitRecordDigest, PROJECT_TOKEN_PATTERN, REFS_MAX, type CommitBatchResponse, type CommitRecord, type RefsUpdateResponse } from '../../core/repos.ts';
import { areFlagsValid, EXIT, parseVerifyArgs, trustedRootsFor, verifyAndReport, VERIFY_HELP } from './verify.ts';

/** The `.git` directory of a working tree, a bare repository, or a worktree/submodule (`.git` file). */
export function findGitdir(dir: string): string | null {
  const dotGit = path.join(dir, '.git');
  try {
    const stat = fs.statSync(dotGit);
    if (stat.isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    if (m) return path.resolve(dir, (m[1] as string).trim());
  } catch {
    /* not a working tree: maybe bare */
  }
  return fs.existsSync(path.join(dir, 'HEAD')) && fs.existsSync(path.join(dir, 'objects')) ? dir : null;
}

const PUSH_HELP = `  --project <id>   the project's number (on its page in the platform)
  --url <platform> the platform's address (default: PROVENA_URL)
  <repo dir>       the repository (default: the current directory); every branch and tag is read
Environment: PROVENA_TOKEN, a project token made on the project page (shown once; revocable).
Only the commits the platform does not have yet are computed and sent, each with its changed
paths and line counts; then the branches and tags, so that a rewritten history (force-push)
is flagged on the project. Only hashes and metadata leave this machine (docs/repos.md).
Exit codes: 0 pushed (or nothing new), 1 refused by the platform, 2 usage or unreadable repository.
`;

type PushOptions = { url: string; token: string; projectId: number; dir: string; log?: (line: string) => void };

async function api<T>(o: PushOptions, method: string, pathName: string, body?: unknown): Promise<T> {
  const res = await fetch(`${o.url.replace(/\/+$/, '')}/api/v1/repos/${o.projectId}${pathName}`, {
    method,
    headers: { authorization: `Bearer ${o.token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: { data?: T; message?: string; field_name?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) throw new PushError(`${method} ${pathName}: ${res.status} ${json.message ?? text.slice(0, 200)}${json.field_name ? ` (${json.field_name})` : ''}`);
  return json.data as T;
}

export class PushError extends Error {}

/** Reads the repository, asks which commits are known, and sends the others' records in batches, oldest first. */
export async function pushRepository(o: PushOptions): Promise<{ registered: number; already: number; computed: number; forcePushes: RefsUpdateResponse['force_pushes'] }> {
  const gitdir = findGitdir(o.dir);
  if (!gitdir) throw new RepoReadError(`${o.dir} is not a git repository`, 'not_a_repository');
  const known = new Set(await api<string[]>(o, 'GET', '/known-commits'));
  const started = Date.now();
  const { records, tips, changes } = await readCommitRecords({ fs, gitdir, known, withChanges: true });
  o.log?.(`${records.length} new commit(s) to register (${known.size} already registered), computed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let registered = 0;
  let already = 0;
  for (let i = 0; i < records.length; i += COMMIT_BATCH_MAX) {
    // Each record travels with its changed paths (informational, beside what is registered).
    const batch = records.slice(i, i + COMMIT_BATCH_MAX).map((r) => ({ ...r, changes: changes.get(r.commit) }));
    const answer = await api<CommitBatchResponse>(o, 'POST', '/commits', { commits: batch });
    registered += answer.registered;
    already += answer.already;
  }
  // Then the branches and tags: the platform lists them and flags a rewritten history.
  const refs = tips.filter((t) => t.ref !== 'HEAD');
  const forcePushes: RefsUpdateResponse['force_pushes'] = [];
  for (let i = 0; i < refs.length || i === 0; i += REFS_MAX) {
    const answer = await api<RefsUpdateResponse>(o, 'PUT', '/refs', { refs: refs.slice(i, i + REFS_MAX) });
    forcePushes.push(...answer.force_pushes);
  }
  for (const f of forcePushes) o.log?.(`force-push on ${f.ref_name}: ${f.orphaned} registered commit(s) no longer reachable (their proofs stay valid)`);
  return { registered, already: already + known.size, computed: records.length, forcePushes };
}

/** `provena repo push --project <id> [--url <platform>] [<repo dir>]`. */
export const repoCommand = {
  summary: 'register the new commits of a git repository (CI)',
  usage: 'repo push --project <id> [--url <platform>] [<repo dir>]',
  async run(args: string[]): Promise<number> {
    const [sub, ...rest] = args;
    if (sub === '--help' || sub === '-h' || (sub === 'push' && rest.some((a) => a === '--help' || a === '-h'))) {
      process.stdout.write(`usage: provena ${this.usage}\n${PUSH_HELP}`);
      return EXIT.valid;
    }
    if (sub !== 'push') {
      process.stderr.write(`usage: provena ${this.usage}\n${PUSH_HELP}`);
      return EXIT.usage;
    }
    let projectId = NaN;
    let url = process.env.PROVENA_URL ?? '';
    const positional: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i] as string;
      if (a === '--project') projectId = Number(rest[++i]);
      else if (a === '--url') url = rest[++i] ?? '';
      else positional.push(a);
    }
    const token = process.env.PROVENA_TOKEN ?? '';
    const problems = [
      !Number.isSafeInteger(projectId) || projectId < 1 ? '--project <id> is required (a whole number)' : null,
      !/^https?:\/\/\S+$/.test(url) ? '--url or PROVENA_URL must be the platform address (http:// or https://)' : null,
      !PROJECT_TOKEN_PATTERN.test(token) ? 'PROVENA_TOKEN must hold a project token (pvt_…), made on the project page' : null,
      positional.length > 1 ? 'one repository directory at most' : null,
    ].filter(Boolean);
    if (problems.length) {
      process.stderr.write(`provena repo push: ${problems.join('; ')}\nusage: provena ${this.usage}\n${PUSH_HELP}`);
      return EXIT.usage;
    }
    const dir = path.resolve(positional[0] ?? '.');
    try {
      const result = await pushRepository({ url, token, projectId, dir, log: (line) => process.stdout.write(`${line}\n`) });
      process.stdout.write(`registered ${result.registered} new commit(s); ${result.already} already registered\n`);
      return EXIT.valid;
    } catch (error) {
      if (error instanceof RepoReadError) {
        process.stderr.write(`provena repo push: ${error.message}\n`);
        return EXIT.usage;
      }
      process.stderr.write(`provena repo push: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT.failed;
    }
  },
};

/** `provena verify-commit <repo dir> <commit> <proof.pdf>`: recomputes the commit's record from the clone and runs every proof check on it. */
export const verifyCommitCommand = {
  summary: "check a commit of a local clone against its PDF proof, offline",
  usage: 'verify-commit <repo dir> <commit> <proof.pdf> [--trust-root <fp>]… [--json]',
  async run(args: string[]): Promise<number> {
    const flags = parseVerifyArgs(args);
    if (flags.isHelp) {
      process.stdout.write(`usage: provena ${this.usage}\n${VERIFY_HELP}`);
      return EXIT.valid;
    }
    const roots = trustedRootsFor('verify-commit', flags);
    if (!roots) return EXIT.usage;
    const [dir, commit, proof] = flags.positional;
    if (!dir || !commit || !proof || flags.positional.length !== 3 || !areFlagsValid(flags)) {
      process.stderr.write(`usage: provena ${this.usage}\n${VERIFY_HELP}`);
      return EXIT.usage;
    }
    const gitdir = findGitdir(path.resolve(dir));
    if (!gitdir) {
      process.stderr.write(`provena verify-commit: ${dir} is not a git repository\n`);
      return EXIT.usage;
    }
    let record: CommitRecord;
    let pdf: Uint8Array;
    try {
      record = await readCommitRecord(fs, gitdir, commit.toLowerCase());
      pdf = new Uint8Array(fs.readFileSync(proof));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      process.stderr.write(`provena verify-commit: ${e instanceof RepoReadError ? e.message : `cannot read ${e.path ?? proof}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`}\n`);
      return EXIT.usage;
    }
    const digest = await commitRecordDigest(record);
    if (!flags.isJson) process.stdout.write(`commit ${record.commit}\ntree   ${record.tree} (${record.file_count} files, SHA-256 tree digest ${record.tree_sha256})\nrecord SHA-256 ${digest}\n\n`);
    return verifyAndReport('verify-commit', pdf, digest, flags, roots);
  },
};
