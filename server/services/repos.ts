import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { canSeeEnterpriseData, isAdminRole } from '../../core/enterprise.ts';
import { isProofStatusGenerated } from '../../core/vault.ts';
import { PROJECT_TOKEN_PREFIX, type CommitRecord, type RepoCommitDto, type RepoProjectDto } from '../../core/repos.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';

/**
 * Source-code projects. §6: a plain member sees the projects they own; roles 1, 2
 * and 3 all of the enterprise's. Commits are registered (and tokens managed) by the owner or
 * an administrator; the confidentiality officer reads.
 */
export type RepoViewer = { userId: number; role: number };

export function seesAllRepos(viewer: RepoViewer): boolean {
  return canSeeEnterpriseData(viewer.role);
}

export function managesRepo(viewer: RepoViewer, ownerUserId: number): boolean {
  return viewer.userId === ownerUserId || isAdminRole(viewer.role);
}

/** A new project token: shown once; only its SHA-256 is stored. */
export function newProjectToken(): { token: string; sha256: string; prefix: string } {
  const token = `${PROJECT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, sha256: tokenSha256(token), prefix: token.slice(0, 10) };
}

export function tokenSha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The canonical text a project's creation entry commits to (its SHA-256 is the entry's file hash). */
export function projectRecordText(p: { enterpriseName: string; name: string; description: string; url: string; createdAt: number }): string {
  return JSON.stringify({ v: 1, format: 'provena-repo-project', enterprise_name: p.enterpriseName, name: p.name, description: p.description, url: p.url, created_at: p.createdAt });
}

export function visibleProjects(db: Kysely<Database>, enterpriseId: number, viewer: RepoViewer) {
  let q = db.selectFrom('repo_projects as p').innerJoin('users as u', 'u.id', 'p.owner_user_id').where('p.enterprise_id', '=', enterpriseId);
  if (!seesAllRepos(viewer)) q = q.where('p.owner_user_id', '=', viewer.userId);
  return q;
}

export const PROJECT_COLUMNS = ['p.id', 'p.name', 'p.description', 'p.url', 'p.dna', 'p.owner_user_id', 'p.created_at', 'u.real_name', 'u.name as user_name'] as const;
export type ProjectRow = { id: number; name: string; description: string; url: string; dna: string; owner_user_id: number; created_at: number; real_name: string; user_name: string };

export async function projectDtos(db: Kysely<Database>, viewer: RepoViewer, rows: ProjectRow[]): Promise<RepoProjectDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const stats = await db
    .selectFrom('repo_commits')
    .select(['project_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('author_time').as('last')])
    .where('project_id', 'in', ids)
    .groupBy('project_id')
    .execute();
  const byId = new Map(stats.map((s) => [Number(s.project_id), s]));
  return rows.map((r) => {
    const s = byId.get(Number(r.id));
    return {
      project_id: Number(r.id),
      dip_id: r.dna,
      name: r.name,
      description: r.description,
      url: r.url,
      owner_user_id: Number(r.owner_user_id),
      owner_name: r.real_name || r.user_name,
      commit_count: s ? Number(s.n) : 0,
      last_commit_at: s?.last === null || s?.last === undefined ? null : Number(s.last),
      created_at: Number(r.created_at),
      can_manage: managesRepo(viewer, Number(r.owner_user_id)),
    };
  });
}

export function commitRows(db: Kysely<Database>, projectId: number) {
  return db
    .selectFrom('repo_commits as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('ledger_entries as e', 'e.dna', 'c.dna')
    .innerJoin('proofs as pr', 'pr.dna', 'c.dna')
    .leftJoin('ledger_blocks as b', 'b.height', 'e.block_height')
    .where('c.project_id', '=', projectId);
}

export const COMMIT_COLUMNS = ['c.id', 'c.commit_id', 'c.dna', 'c.record', 'c.record_sha256', 'c.created_at', 'u.real_name', 'u.name as user_name', 'e.block_height', 'e.registered_at', 'pr.status'] as const;
export type CommitRow = { id: number; commit_id: string; dna: string; record: string; record_sha256: string; created_at: number; real_name: string; user_name: string; block_height: number | null; registered_at: number; status: number };

export function commitDto(r: CommitRow): RepoCommitDto {
  const record = JSON.parse(r.record) as CommitRecord;
  return {
    commit_id: r.commit_id,
    dip_id: r.dna,
    tree_id: record.tree,
    parents: record.parents,
    author_name: record.author.name,
    author_time: record.author.time * 1000,
    author_tz: record.author.tz,
    committer_name: record.committer.name,
    committer_time: record.committer.time * 1000,
    message_sha256: record.message_sha256,
    tree_sha256: record.tree_sha256,
    file_count: record.file_count,
    record_sha256: r.record_sha256,
    record,
    proof_status: Number(r.status),
    is_generated: isProofStatusGenerated(Number(r.status)),
    block_height: r.block_height === null ? null : Number(r.block_height),
    registered_at: Number(r.registered_at),
    registrant_name: r.real_name || r.user_name,
  };
}

/**
 * The navbar search hook (§3 entity_type 2 project, 3 commit): a project DNA, a commit DNA or
 * a full commit id, within the viewer's enterprise and §6 view.
 */
export async function findRepoByKeyword(
  db: Kysely<Database>,
  enterpriseId: number,
  viewer: RepoViewer,
  keyword: string,
): Promise<{ entity_type: 2 | 3; dip_id: string; project_id: number; commit_id?: string } | null> {
  const text = keyword.trim().toLowerCase().replace(/^0x/, '');
  if (DNA_PATTERN.test(text)) {
    let p = db.selectFrom('repo_projects').select(['id', 'dna']).where('enterprise_id', '=', enterpriseId).where('dna', '=', text);
    if (!seesAllRepos(viewer)) p = p.where('owner_user_id', '=', viewer.userId);
    const project = await p.executeTakeFirst();
    if (project) return { entity_type: 2, dip_id: project.dna, project_id: Number(project.id) };
  }
  const isCommitId = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
  if (!DNA_PATTERN.test(text) && !isCommitId) return null;
  let c = db
    .selectFrom('repo_commits as c')
    .innerJoin('repo_projects as p', 'p.id', 'c.project_id')
    .select(['c.dna', 'c.project_id', 'c.commit_id'])
    .where('c.enterprise_id', '=', enterpriseId);
  if (!seesAllRepos(viewer)) c = c.where('p.owner_user_id', '=', viewer.userId);
  c = DNA_PATTERN.test(text) ? c.where('c.dna', '=', text) : c.where('c.commit_id', '=', text);
  const commit = await c.orderBy('c.id').executeTakeFirst();
  return commit ? { entity_type: 3, dip_id: commit.dna, project_id: Number(commit.project_id), commit_id: commit.commit_id } : null;
}
