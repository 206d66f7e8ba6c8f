/**
 * Source-code (copyright) projects: the commit record, its canonical encoding and
 * the API shapes, shared by the server, the CLI and the browser worker. Source code never
 * leaves the user's machine: a record holds only hashes and metadata (docs/proof-format.md,
 * "Commit records").
 */
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from './constants.ts';
import type { ErrorKey } from './errors.ts';
import { checkOptionalText, checkRequiredText } from './validation.ts';

/** The ledger kind of a commit's entry, and of a project's creation entry. */
export const COMMIT_LEDGER_KIND = 'commit';
export const PROJECT_LEDGER_KIND = 'repo_project';

/** The most commit records one POST carries (the CLI and the browser send larger histories in several). */
export const COMMIT_BATCH_MAX = 1000;
/** A repository URL, optional, http(s) or ssh-like, at most this many characters. */
export const REPO_URL_MAX = 300;
export const COMMIT_RECORD_FORMAT = 'provena-git-commit';
/** The prefix of a project token (`pvt_` + 43 base64url characters): easy to spot in a leaked log. */
export const PROJECT_TOKEN_PREFIX = 'pvt_';
export const PROJECT_TOKEN_PATTERN = /^pvt_[A-Za-z0-9_-]{43}$/;

/** A person line of a commit: the name as written, the e-mail only as its SHA-256. */
export type CommitPerson = {
  name: string;
  /** Hex SHA-256 of the e-mail address exactly as written between < and > (UTF-8). */
  email_sha256: string;
  /** Seconds since the epoch, as git stores it. */
  time: number;
  /** The time zone offset as git writes it: +0800, -0130. */
  tz: string;
};

/** What is registered for one commit (its SHA-256 is the ledger entry's file hash). */
export type CommitRecord = {
  v: 1;
  format: typeof COMMIT_RECORD_FORMAT;
  /** The repository's object format: commit, tree and parent ids are 40 (sha1) or 64 (sha256) hex. */
  object_format: 'sha1' | 'sha256';
  commit: string;
  tree: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  /** SHA-256 of the commit message bytes (everything after the header's blank line). */
  message_sha256: string;
  /** SHA-256 of the whole commit object content (headers, signature and message), as stored by git. */
  commit_sha256: string;
  /** SHA-256 of the tree listing: "mode SP sha256(blob) SP path NUL" per file, sorted by path bytes. */
  tree_sha256: string;
  /** How many entries the tree listing holds (files, links and submodules). */
  file_count: number;
};

const HEX64 = /^[0-9a-f]{64}$/;
const TZ = /^[+-]\d{4}$/;

function personJson(p: CommitPerson): CommitPerson {
  return { name: p.name, email_sha256: p.email_sha256, time: p.time, tz: p.tz };
}

/** The exact bytes whose SHA-256 is registered: JSON in this key order, no spaces. */
export function encodeCommitRecord(r: CommitRecord): string {
  return JSON.stringify({
    v: r.v,
    format: r.format,
    object_format: r.object_format,
    commit: r.commit,
    tree: r.tree,
    parents: r.parents,
    author: personJson(r.author),
    committer: personJson(r.committer),
    message_sha256: r.message_sha256,
    commit_sha256: r.commit_sha256,
    tree_sha256: r.tree_sha256,
    file_count: r.file_count,
  });
}

/** Hex SHA-256 of the canonical record: what the ledger entry commits to. */
export async function commitRecordDigest(r: CommitRecord): Promise<string> {
  const bytes = new TextEncoder().encode(encodeCommitRecord(r));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function checkPerson(value: unknown, oidLength: number): CommitPerson | null {
  void oidLength;
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  if (typeof p.name !== 'string' || p.name.length > 256) return null;
  if (typeof p.email_sha256 !== 'string' || !HEX64.test(p.email_sha256)) return null;
  if (typeof p.time !== 'number' || !Number.isSafeInteger(p.time)) return null;
  if (typeof p.tz !== 'string' || !TZ.test(p.tz)) return null;
  return { name: p.name, email_sha256: p.email_sha256, time: p.time, tz: p.tz };
}

/** A record as sent by a client, checked field by field; null when anything is off. */
export function parseCommitRecord(value: unknown): CommitRecord | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  if (r.v !== 1 || r.format !== COMMIT_RECORD_FORMAT) return null;
  if (r.object_format !== 'sha1' && r.object_format !== 'sha256') return null;
  const oid = r.object_format === 'sha1' ? /^[0-9a-f]{40}$/ : HEX64;
  if (typeof r.commit !== 'string' || !oid.test(r.commit) || typeof r.tree !== 'string' || !oid.test(r.tree)) return null;
  if (!Array.isArray(r.parents) || r.parents.length > 64 || r.parents.some((p) => typeof p !== 'string' || !oid.test(p))) return null;
  const author = checkPerson(r.author, 0);
  const committer = checkPerson(r.committer, 0);
  if (!author || !committer) return null;
  for (const key of ['message_sha256', 'commit_sha256', 'tree_sha256'] as const) if (typeof r[key] !== 'string' || !HEX64.test(r[key] as string)) return null;
  if (typeof r.file_count !== 'number' || !Number.isSafeInteger(r.file_count) || r.file_count < 0) return null;
  return {
    v: 1,
    format: COMMIT_RECORD_FORMAT,
    object_format: r.object_format,
    commit: r.commit,
    tree: r.tree,
    parents: r.parents as string[],
    author,
    committer,
    message_sha256: r.message_sha256 as string,
    commit_sha256: r.commit_sha256 as string,
    tree_sha256: r.tree_sha256 as string,
    file_count: r.file_count,
  };
}

/** §5 project name (≤ 30) and description (≤ 200). */
export function checkRepoName(raw: string): ErrorKey | null {
  return checkRequiredText(raw, PROJECT_NAME_MAX);
}
export function checkRepoDescription(raw: string): ErrorKey | null {
  return checkOptionalText(raw, PROJECT_DESCRIPTION_MAX);
}
/** An optional repository address: https://…, http://…, ssh://… or git@host:path. */
export function checkRepoUrl(raw: string): ErrorKey | null {
  const text = raw.trim();
  if (!text) return null;
  if (text.length > REPO_URL_MAX) return 'lt';
  return /^(?:https?|ssh|git):\/\/[^\s]+$|^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+$/.test(text) ? null : 'invalid_param';
}

/** Software Heritage identifiers (SWHID) of a sha1 commit and its tree. */
export function swhids(commit: string, tree: string): { rev: string; dir: string } | null {
  if (!/^[0-9a-f]{40}$/.test(commit) || !/^[0-9a-f]{40}$/.test(tree)) return null;
  return { rev: `swh:1:rev:${commit}`, dir: `swh:1:dir:${tree}` };
}
export const SOFTWARE_HERITAGE_BROWSE = 'https://archive.softwareheritage.org/';

// ---- API shapes -------------------------------------------------------------------------

export type RepoProjectDto = {
  project_id: number;
  dip_id: string;
  name: string;
  description: string;
  url: string;
  owner_user_id: number;
  owner_name: string;
  commit_count: number;
  /** The newest registered commit's author time (ms), null before any. */
  last_commit_at: number | null;
  created_at: number;
  /** Whether the caller may create and revoke tokens (the owner, an administrator). */
  can_manage: boolean;
};

export type RepoCommitDto = {
  commit_id: string;
  dip_id: string;
  tree_id: string;
  parents: string[];
  author_name: string;
  author_time: number;
  author_tz: string;
  committer_name: string;
  committer_time: number;
  message_sha256: string;
  tree_sha256: string;
  file_count: number;
  /** SHA-256 of the canonical record: the ledger entry's file hash. */
  record_sha256: string;
  record: CommitRecord;
  proof_status: number;
  is_generated: boolean;
  block_height: number | null;
  registered_at: number;
  registrant_name: string;
  /** When a force-push left the commit unreachable from every reported ref (its proof stays valid); null otherwise. */
  orphaned_at: number | null;
  /** Changed paths against the first parent (the commit detail only; null when the reader sent none). */
  changes: CommitChanges | null;
};

/** GET /repos/overview (§2 repos/global): the enterprise's code at a glance, within the caller's §6 view. */
export type RepoOverviewDto = {
  projects: number;
  commits: number;
  developers: number;
  /** Commits by author week (Monday 00:00 UTC, seconds), oldest first. */
  weeks: Array<{ week: number; commits: number }>;
  /** Commit authors by the name they commit under, most commits first (at most 100). */
  by_developer: Array<{ name: string; commits: number; projects: number; last_commit_at: number }>;
  by_project: Array<{ project_id: number; name: string; commits: number; developers: number; last_commit_at: number | null }>;
};

export type RepoTokenDto = { token_id: number; prefix: string; created_by_name: string; created_at: number; revoked_at: number | null; last_used_at: number | null };

export type CommitBatchResponse = { registered: number; already: number; commits: Array<{ commit_id: string; dip_id: string; is_new: boolean }> };

// ---- refs, force-pushes and changed paths (migration 0028) ----------------------------------

/** A ref a push reports: branches, tags and remote branches, each with the commit it points to (tags peeled). */
export type RepoRefInput = { ref: string; commit: string };
export const REF_NAME_PATTERN = /^refs\/(?:heads|tags|remotes)\/[^\s\0]{1,250}$/;
/** The most refs one PUT /refs carries. */
export const REFS_MAX = 5000;

export type RepoRefDto = { name: string; kind: 'branch' | 'tag' | 'remote'; short_name: string; commit_id: string; updated_at: number };
export type RepoForcePushDto = { ref_name: string; old_commit: string; new_commit: string; orphaned: string[]; detected_at: number; user_name: string };
export type RepoRefsDto = { refs: RepoRefDto[]; force_pushes: RepoForcePushDto[]; orphaned_count: number };
export type RefsUpdateResponse = { updated: number; skipped: string[]; force_pushes: Array<{ ref_name: string; orphaned: number }> };

export function refKind(name: string): { kind: RepoRefDto['kind']; short_name: string } {
  if (name.startsWith('refs/heads/')) return { kind: 'branch', short_name: name.slice(11) };
  if (name.startsWith('refs/tags/')) return { kind: 'tag', short_name: name.slice(10) };
  return { kind: 'remote', short_name: name.replace(/^refs\/remotes\//, '') };
}

/**
 * One changed path of a commit against its first parent (all paths added for a root commit),
 * as the reader computed it from `.git`: informational metadata next to the record, not part of
 * what is registered. The SHA-256 are the blob digests of the tree listings (tree_sha256 of this
 * commit and of its parent commits to them); the line counts are a line diff (LCS) of the two
 * blob versions, null for a binary or very large file.
 */
export type CommitChange = {
  path: string;
  /** A added, D deleted, M modified (content or mode). */
  status: 'A' | 'D' | 'M';
  sha256: string | null;
  old_sha256: string | null;
  added: number | null;
  removed: number | null;
};
/** At most this many changed paths are kept per commit (the totals count them all). */
export const COMMIT_CHANGES_MAX = 500;
export type CommitChanges = { files: number; added: number; removed: number; paths: CommitChange[]; truncated: boolean };

const CHANGE_STATUS = new Set(['A', 'D', 'M']);
const count = (v: unknown) => v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
const digestOrNull = (v: unknown) => v === null || (typeof v === 'string' && HEX64.test(v));

/** The changes sent beside a record, checked; null when anything is off (the batch is refused on that item). */
export function parseCommitChanges(value: unknown): CommitChanges | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  if (!count(c.files) || !count(c.added) || !count(c.removed) || c.files === null || c.added === null || c.removed === null) return null;
  if (!Array.isArray(c.paths) || c.paths.length > COMMIT_CHANGES_MAX || typeof c.truncated !== 'boolean') return null;
  const paths: CommitChange[] = [];
  for (const item of c.paths as unknown[]) {
    if (typeof item !== 'object' || item === null) return null;
    const p = item as Record<string, unknown>;
    if (typeof p.path !== 'string' || p.path.length === 0 || p.path.length > 4096) return null;
    if (typeof p.status !== 'string' || !CHANGE_STATUS.has(p.status)) return null;
    if (!digestOrNull(p.sha256) || !digestOrNull(p.old_sha256) || !count(p.added) || !count(p.removed)) return null;
    paths.push({ path: p.path, status: p.status as CommitChange['status'], sha256: p.sha256 as string | null, old_sha256: p.old_sha256 as string | null, added: p.added as number | null, removed: p.removed as number | null });
  }
  return { files: c.files as number, added: c.added as number, removed: c.removed as number, paths, truncated: c.truncated };
}

/** A commit id prefix the commit list and the search accept: 7 to 64 hex digits. */
export const COMMIT_PREFIX_PATTERN = /^[0-9a-f]{7,64}$/;
