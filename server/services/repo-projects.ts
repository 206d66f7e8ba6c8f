import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import {
  PROJECT_LEDGER_KIND,
  PROJECT_TOKEN_PATTERN,
  checkRepoDescription,
  checkRepoName,
  checkRepoUrl,
  type RepoOverviewDto,
  type RepoProjectDto,
  type RepoTokenDto,
} from '../../core/repos.ts';
import { sha256, toHex, utf8 } from '../../core/ledger/bytes.ts';
import type { Paged } from '../../core/api-types.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { EMPLOYEE_STATUS } from '../../core/enterprise.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import type { MemberContext } from '../plugins/enterprises.ts';
import type { CertificateLocale } from '../locale.ts';
import { requireConfirmedMembership } from './credits.ts';
import { PROJECT_COLUMNS, managesRepo, newProjectToken, projectDtos, projectRecordText, seesAllRepos, tokenSha256, visibleProjects, type ProjectRow, type RepoViewer } from './repos.ts';

/**
 * Source-code projects, their overview and their CI tokens, and who may reach a project: the
 * routes parse and resolve the caller; these functions decide, read and write.
 */

type Registrar = FastifyInstance['registerEntry'];
type PageWindow = { page: number; size: number; offset: number };
export type RepoMember = MemberContext & { viewer: RepoViewer };

export type ProjectAccess = {
  project: { id: number; enterprise_id: number; owner_user_id: number; name: string; dna: string };
  /** Who registers (and pays): the signed-in member, or the token's creator. */
  userId: number;
  viewer: RepoViewer;
  tokenId: number | null;
};

function projectRow(db: Db, id: number) {
  return db.selectFrom('repo_projects').select(['id', 'enterprise_id', 'owner_user_id', 'name', 'dna']).where('id', '=', id).executeTakeFirst();
}

/**
 * Access by the project's own unrevoked token (`Authorization: Bearer pvt_…`), acting for its
 * creator, who must still be a confirmed owner or administrator there. Anything else about the
 * token is 401 token_invalid.
 */
export async function tokenAccess(db: Db, bearer: string, projectId: number): Promise<ProjectAccess> {
  if (!PROJECT_TOKEN_PATTERN.test(bearer)) throw new ApiError('token_invalid', undefined, 401);
  const token = await db.selectFrom('repo_tokens').selectAll().where('token_sha256', '=', tokenSha256(bearer)).executeTakeFirst();
  if (!token || token.revoked_at !== null || Number(token.project_id) !== projectId) throw new ApiError('token_invalid', undefined, 401);
  const project = await projectRow(db, projectId);
  if (!project) throw new ApiError('token_invalid', undefined, 401);
  // The token acts for its creator, who must still be a confirmed owner or administrator there.
  const employee = await db
    .selectFrom('employees')
    .select(['role'])
    .where('enterprise_id', '=', project.enterprise_id)
    .where('user_id', '=', token.created_by)
    .where('status', '=', EMPLOYEE_STATUS.confirmed)
    .executeTakeFirst();
  const viewer = { userId: Number(token.created_by), role: employee ? Number(employee.role) : -1 };
  if (!employee || !managesRepo(viewer, Number(project.owner_user_id))) throw new ApiError('forbidden', undefined, 403);
  await db.updateTable('repo_tokens').set({ last_used_at: Date.now() }).where('id', '=', token.id).execute();
  return { project: { ...project, id: Number(project.id) }, userId: viewer.userId, viewer, tokenId: Number(token.id) };
}

/** Access by session: the project is the member's own, or the member sees the enterprise's data; otherwise not_found. */
export async function memberAccess(db: Db, m: RepoMember, projectId: number): Promise<ProjectAccess> {
  const project = await visibleProjects(db, m.employee.enterprise_id, m.viewer).select(['p.id', 'p.enterprise_id', 'p.owner_user_id', 'p.name', 'p.dna']).where('p.id', '=', projectId).executeTakeFirst();
  if (!project) fail('not_found', 'project_id');
  return { project: { ...project, id: Number(project.id) }, userId: m.user.id, viewer: m.viewer, tokenId: null };
}

/** The owner or an administrator of the project, else 403. */
export function requireManager(a: ProjectAccess): void {
  if (!managesRepo(a.viewer, a.project.owner_user_id)) throw new ApiError('forbidden', undefined, 403);
}

export async function repoProjectDto(db: Db, enterpriseId: number, viewer: RepoViewer, projectId: number): Promise<RepoProjectDto | undefined> {
  const rows = (await visibleProjects(db, enterpriseId, viewer).select([...PROJECT_COLUMNS]).where('p.id', '=', projectId).execute()) as ProjectRow[];
  const [dto] = await projectDtos(db, viewer, rows);
  return dto;
}

export type RepoProjectInput = { name: string; description?: string; url?: string };

/** A new project: a ledger entry of kind `repo_project` (free), the membership read again in its transaction. */
export async function createRepoProject(db: Db, registerEntry: Registrar, m: RepoMember, raw: RepoProjectInput, locale: CertificateLocale): Promise<RepoProjectDto | undefined> {
  const name = raw.name.trim();
  const description = (raw.description ?? '').trim();
  const url = (raw.url ?? '').trim();
  const rules: Array<[ErrorKey | null, string]> = [
    [checkRepoName(name), 'name'],
    [checkRepoDescription(description), 'description'],
    [checkRepoUrl(url), 'url'],
  ];
  for (const [key, field] of rules) if (key) fail(key, field);
  const enterpriseId = m.employee.enterprise_id;
  const taken = () => fail('project_already_exist', 'name');
  if (await db.selectFrom('repo_projects').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name).executeTakeFirst()) taken();
  const createdAt = Date.now();
  const recordText = projectRecordText({ enterpriseName: m.enterprise.name, name, description, url, createdAt });
  let projectId = 0;
  try {
    await registerEntry(
      { fileHash: `0x${toHex(sha256(utf8.encode(recordText)))}`, enterpriseName: m.enterprise.name, registrantUserId: m.user.id, kind: PROJECT_LEDGER_KIND, locale },
      async (trx, registration) => {
        // A project's creation costs nothing; its commits are priced (credits.commit). The membership is read again here.
        await requireConfirmedMembership(trx, enterpriseId, m.user.id);
        const row = await trx
          .insertInto('repo_projects')
          .values({ enterprise_id: enterpriseId, owner_user_id: m.user.id, name, description, url, dna: registration.dna, created_at: createdAt })
          .returning('id')
          .executeTakeFirstOrThrow();
        projectId = Number(row.id);
      },
    );
  } catch (error) {
    if (!(error instanceof ApiError) && isUniqueViolation(error)) taken();
    throw error;
  }
  return repoProjectDto(db, enterpriseId, m.viewer, projectId);
}

export async function repoProjectPage(db: Db, m: RepoMember, w: PageWindow, rawKeyword: string | undefined): Promise<Paged<RepoProjectDto> & { sees_all: boolean }> {
  let q = visibleProjects(db, m.employee.enterprise_id, m.viewer);
  const keyword = rawKeyword?.trim();
  if (keyword) q = q.where(sql<boolean>`lower(p.name) like lower(${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) escape '\\'`);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = (await q.select([...PROJECT_COLUMNS]).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(w.size).offset(w.offset).execute()) as ProjectRow[];
  return { items: await projectDtos(db, m.viewer, rows), page: w.page, page_size: w.size, total: Number(total.n), sees_all: seesAllRepos(m.viewer) };
}

/** §2 repos/global: commits over time, developers and projects, over the projects the caller sees. */
export async function repoOverview(db: Db, m: RepoMember): Promise<RepoOverviewDto> {
  const projects = await visibleProjects(db, m.employee.enterprise_id, m.viewer).select(['p.id', 'p.name']).execute();
  const ids = projects.map((p) => Number(p.id));
  const rows = ids.length ? await db.selectFrom('repo_commits').select(['project_id', 'author_name', 'author_time']).where('project_id', 'in', ids).execute() : [];
  const WEEK = 7 * 86_400;
  const MONDAY = 4 * 86_400; // 1970-01-01 was a Thursday
  const weeks = new Map<number, number>();
  const developers = new Map<string, { commits: number; projects: Set<number>; last: number }>();
  const perProject = new Map<number, { commits: number; developers: Set<string>; last: number }>();
  for (const r of rows) {
    const s = Math.floor(Number(r.author_time) / 1000);
    const week = Math.floor((s - MONDAY) / WEEK) * WEEK + MONDAY;
    weeks.set(week, (weeks.get(week) ?? 0) + 1);
    const d = developers.get(r.author_name) ?? { commits: 0, projects: new Set<number>(), last: 0 };
    d.commits++;
    d.projects.add(Number(r.project_id));
    d.last = Math.max(d.last, Number(r.author_time));
    developers.set(r.author_name, d);
    const p = perProject.get(Number(r.project_id)) ?? { commits: 0, developers: new Set<string>(), last: 0 };
    p.commits++;
    p.developers.add(r.author_name);
    p.last = Math.max(p.last, Number(r.author_time));
    perProject.set(Number(r.project_id), p);
  }
  return {
    projects: projects.length,
    commits: rows.length,
    developers: developers.size,
    weeks: [...weeks].sort((a, b) => a[0] - b[0]).map(([week, commits]) => ({ week, commits })),
    by_developer: [...developers]
      .sort((a, b) => b[1].commits - a[1].commits || a[0].localeCompare(b[0]))
      .slice(0, 100)
      .map(([name, d]) => ({ name, commits: d.commits, projects: d.projects.size, last_commit_at: d.last })),
    by_project: projects
      .map((p) => {
        const s = perProject.get(Number(p.id));
        return { project_id: Number(p.id), name: p.name, commits: s?.commits ?? 0, developers: s?.developers.size ?? 0, last_commit_at: s ? s.last : null };
      })
      .sort((a, b) => b.commits - a.commits || a.project_id - b.project_id),
  };
}

// ---- tokens ---------------------------------------------------------------------------

/** A new token for CI: shown once in this answer; only its SHA-256 is kept. */
export async function createRepoToken(db: Db, a: ProjectAccess): Promise<{ token_id: number; token: string; prefix: string }> {
  requireManager(a);
  const t = newProjectToken();
  const row = await db
    .insertInto('repo_tokens')
    .values({ project_id: a.project.id, token_sha256: t.sha256, prefix: t.prefix, created_by: a.userId, created_at: Date.now(), revoked_at: null, last_used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token_id: Number(row.id), token: t.token, prefix: t.prefix };
}

export async function repoTokens(db: Db, a: ProjectAccess): Promise<RepoTokenDto[]> {
  requireManager(a);
  const rows = await db
    .selectFrom('repo_tokens as t')
    .innerJoin('users as u', 'u.id', 't.created_by')
    .select(['t.id', 't.prefix', 't.created_at', 't.revoked_at', 't.last_used_at', 'u.real_name', 'u.name'])
    .where('t.project_id', '=', a.project.id)
    .orderBy('t.id', 'desc')
    .execute();
  return rows.map((r) => ({
    token_id: Number(r.id),
    prefix: r.prefix,
    created_by_name: r.real_name || r.name,
    created_at: Number(r.created_at),
    revoked_at: r.revoked_at === null ? null : Number(r.revoked_at),
    last_used_at: r.last_used_at === null ? null : Number(r.last_used_at),
  }));
}

export async function revokeRepoToken(db: Db, a: ProjectAccess, tokenId: number): Promise<void> {
  requireManager(a);
  const res = await db.updateTable('repo_tokens').set({ revoked_at: Date.now() }).where('id', '=', tokenId).where('project_id', '=', a.project.id).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) fail('not_found', 'token_id');
}
