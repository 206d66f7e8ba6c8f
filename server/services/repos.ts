import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { canSeeEnterpriseData, isAdminRole } from '../../core/enterprise.ts';
import { isProofStatusGenerated } from '../../core/vault.ts';
import { COMMIT_PREFIX_PATTERN, PROJECT_TOKEN_PREFIX, refKind, type CommitChanges, type CommitRecord, type RefsUpdateResponse, type RepoRefDto, type RepoRefsDto, type RepoCommitDto, type RepoProjectDto } from '../../core/repos.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { proofStatusColumn } from '../proofs/proof-status-sql.ts';

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
    .leftJoin('proofs as pr', 'pr.dna', 'c.dna')
    .leftJoin('ledger_blocks as b', 'b.height', 'e.block_height')
    .where('c.project_id', '=', projectId);
}

export const COMMIT_COLUMNS = ['c.id', 'c.commit_id', 'c.dna', 'c.record', 'c.record_sha256', 'c.created_at', 'c.orphaned_at', 'u.real_name', 'u.name as user_name', 'e.block_height', 'e.registered_at', proofStatusColumn('pr')] as const;
export type CommitRow = { id: number; commit_id: string; dna: string; record: string; record_sha256: string; created_at: number; orphaned_at: number | null; real_name: string; user_name: string; block_height: number | null; registered_at: number; status: number; changes?: string | null };

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
    orphaned_at: r.orphaned_at === null || r.orphaned_at === undefined ? null : Number(r.orphaned_at),
    changes: r.changes ? (JSON.parse(r.changes) as CommitChanges) : null,
  };
}

// ---- the stored commit graph: branches, reachability, force-pushes -------------------------

/** Each registered commit of a project with its parents, from the stored records. */
export async function commitGraph(db: Kysely<Database> | Transaction<Database>, projectId: number): Promise<Map<string, string[]>> {
  const rows = await db.selectFrom('repo_commits').select(['commit_id', 'record']).where('project_id', '=', projectId).execute();
  const graph = new Map<string, string[]>();
  for (const r of rows) graph.set(r.commit_id, (JSON.parse(r.record) as CommitRecord).parents);
  return graph;
}

/** The registered commits reachable from `tips` through parents (a parent not registered ends the walk there). */
export function reachableFrom(graph: ReadonlyMap<string, string[]>, tips: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...tips].filter((t) => graph.has(t));
  while (stack.length) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    for (const p of graph.get(oid) ?? []) if (graph.has(p) && !seen.has(p)) stack.push(p);
  }
  return seen;
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
  const isPrefix = !isCommitId && COMMIT_PREFIX_PATTERN.test(text);
  if (!DNA_PATTERN.test(text) && !isCommitId && !isPrefix) return null;
  let c = db
    .selectFrom('repo_commits as c')
    .innerJoin('repo_projects as p', 'p.id', 'c.project_id')
    .select(['c.dna', 'c.project_id', 'c.commit_id'])
    .where('c.enterprise_id', '=', enterpriseId);
  if (!seesAllRepos(viewer)) c = c.where('p.owner_user_id', '=', viewer.userId);
  if (isPrefix) {
    // A prefix (git's short ids): found only when it names one commit the viewer sees.
    const matches = await c.where('c.commit_id', 'like', `${text}%`).orderBy('c.id').limit(2).execute();
    const only = matches.length === 1 ? matches[0]! : null;
    return only ? { entity_type: 3, dip_id: only.dna, project_id: Number(only.project_id), commit_id: only.commit_id } : null;
  }
  c = DNA_PATTERN.test(text) ? c.where('c.dna', '=', text) : c.where('c.commit_id', '=', text);
  const commit = await c.orderBy('c.id').executeTakeFirst();
  return commit ? { entity_type: 3, dip_id: commit.dna, project_id: Number(commit.project_id), commit_id: commit.commit_id } : null;
}

/**
 * Records the refs a push reports (after its commits are registered) and detects force-pushes:
 * a ref that moved to a commit its previous commit is not an ancestor of. The commits the old
 * tip reached and no reported ref reaches any more are marked orphaned (their entries and proofs
 * are untouched: they stay valid); an orphaned commit reachable again is unmarked. Refs a push
 * does not report are kept (a CI checkout may carry one branch), so a deleted branch orphans
 * nothing. A ref whose commit is not registered in the project is skipped and named back.
 * One transaction: concurrent pushes serialise on the project's rows.
 */
export async function updateRefs(
  db: Kysely<Database>,
  projectId: number,
  userId: number,
  reported: ReadonlyArray<{ ref: string; commit: string }>,
): Promise<RefsUpdateResponse> {
  return db.transaction().execute(async (trx) => {
    const graph = await commitGraph(trx, projectId);
    const now = Date.now();
    const skipped: string[] = [];
    const wanted = new Map<string, string>();
    for (const r of reported) {
      if (!graph.has(r.commit)) skipped.push(r.ref);
      else wanted.set(r.ref, r.commit);
    }
    const existing = new Map((await trx.selectFrom('repo_refs').select(['name', 'commit_id']).where('project_id', '=', projectId).execute()).map((r) => [r.name, r.commit_id]));
    const forced: Array<{ ref: string; old: string; next: string }> = [];
    let updated = 0;
    for (const [ref, commit] of wanted) {
      const old = existing.get(ref);
      if (old === commit) continue;
      updated++;
      if (old === undefined) {
        await trx.insertInto('repo_refs').values({ project_id: projectId, name: ref, commit_id: commit, updated_at: now }).execute();
      } else {
        await trx.updateTable('repo_refs').set({ commit_id: commit, updated_at: now }).where('project_id', '=', projectId).where('name', '=', ref).execute();
        // A fast-forward keeps the old tip among the new one's ancestors; anything else rewrote history.
        if (!graph.has(old) || !reachableFrom(graph, [commit]).has(old)) forced.push({ ref, old, next: commit });
      }
      existing.set(ref, commit);
    }
    const live = reachableFrom(graph, existing.values());
    const answer: RefsUpdateResponse['force_pushes'] = [];
    for (const f of forced) {
      const orphaned = [...reachableFrom(graph, [f.old])].filter((c) => !live.has(c)).sort();
      await trx.insertInto('repo_force_pushes').values({ project_id: projectId, ref_name: f.ref, old_commit: f.old, new_commit: f.next, orphaned: JSON.stringify(orphaned), user_id: userId, detected_at: now }).execute();
      for (let i = 0; i < orphaned.length; i += 500) {
        await trx.updateTable('repo_commits').set({ orphaned_at: now }).where('project_id', '=', projectId).where('orphaned_at', 'is', null).where('commit_id', 'in', orphaned.slice(i, i + 500)).execute();
      }
      answer.push({ ref_name: f.ref, orphaned: orphaned.length });
    }
    // Orphaned commits a ref reaches again (the rewrite was undone, or a branch brought them back).
    const marked = await trx.selectFrom('repo_commits').select('commit_id').where('project_id', '=', projectId).where('orphaned_at', 'is not', null).execute();
    const back = marked.map((m) => m.commit_id).filter((c) => live.has(c));
    for (let i = 0; i < back.length; i += 500) {
      await trx.updateTable('repo_commits').set({ orphaned_at: null }).where('project_id', '=', projectId).where('commit_id', 'in', back.slice(i, i + 500)).execute();
    }
    return { updated, skipped, force_pushes: answer };
  });
}

/** The project's refs (branches, then tags, then remote branches, by name) and its force-pushes, newest first. */
export async function projectRefs(db: Kysely<Database>, projectId: number): Promise<RepoRefsDto> {
  const rows = await db.selectFrom('repo_refs').select(['name', 'commit_id', 'updated_at']).where('project_id', '=', projectId).orderBy('name').execute();
  const order = { branch: 0, tag: 1, remote: 2 } as const;
  const refs: RepoRefDto[] = rows
    .map((r) => ({ name: r.name, ...refKind(r.name), commit_id: r.commit_id, updated_at: Number(r.updated_at) }))
    .sort((a, b) => order[a.kind] - order[b.kind] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const pushes = await db
    .selectFrom('repo_force_pushes as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.ref_name', 'f.old_commit', 'f.new_commit', 'f.orphaned', 'f.detected_at', 'u.real_name', 'u.name'])
    .where('f.project_id', '=', projectId)
    .orderBy('f.id', 'desc')
    .limit(50)
    .execute();
  const orphaned = await db.selectFrom('repo_commits').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('orphaned_at', 'is not', null).executeTakeFirstOrThrow();
  return {
    refs,
    force_pushes: pushes.map((p) => ({ ref_name: p.ref_name, old_commit: p.old_commit, new_commit: p.new_commit, orphaned: JSON.parse(p.orphaned) as string[], detected_at: Number(p.detected_at), user_name: p.real_name || p.name })),
    orphaned_count: Number(orphaned.n),
  };
}
