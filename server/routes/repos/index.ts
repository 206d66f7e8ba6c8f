import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  COMMIT_BATCH_MAX,
  COMMIT_LEDGER_KIND,
  PROJECT_LEDGER_KIND,
  PROJECT_TOKEN_PATTERN,
  REPO_URL_MAX,
  checkRepoDescription,
  checkRepoName,
  checkRepoUrl,
  COMMIT_PREFIX_PATTERN,
  REF_NAME_PATTERN,
  REFS_MAX,
  commitRecordDigest,
  encodeCommitRecord,
  parseCommitChanges,
  parseCommitRecord,
  type CommitChanges,
  type CommitBatchResponse,
  type CommitRecord,
  type RepoOverviewDto,
  type RepoTokenDto,
} from '../../../core/repos.ts';
import { sha256, toHex, utf8 } from '../../../core/ledger/bytes.ts';
import { DNA_PATTERN } from '../../../core/ledger/record.ts';
import type { Paged } from '../../../core/api-types.ts';
import { EMPLOYEE_STATUS } from '../../../core/enterprise.ts';
import { isProofStatusGenerated } from '../../../core/vault.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { ApiError, fail } from '../../errors.ts';
import { chargeRegistrations, requireConfirmedMembership } from '../../services/credits.ts';
import {
  COMMIT_COLUMNS,
  PROJECT_COLUMNS,
  commitDto,
  commitGraph,
  commitRows,
  projectRefs,
  reachableFrom,
  updateRefs,
  managesRepo,
  newProjectToken,
  projectDtos,
  projectRecordText,
  seesAllRepos,
  tokenSha256,
  visibleProjects,
  type CommitRow,
  type ProjectRow,
  type RepoViewer,
} from '../../services/repos.ts';
import { body, idParam, pageOf, paging, SIGNED_IN, text } from '../schemas.ts';
import { requestLocale } from '../../locale.ts';
import { contentDisposition } from '../../content-disposition.ts';
import type { ErrorKey } from '../../../core/errors.ts';

const projectParam = idParam('project_id');
const commitParams = {
  type: 'object',
  properties: { project_id: { type: 'integer', minimum: 1 }, commit_id: { type: 'string', maxLength: 64 } },
  required: ['project_id', 'commit_id'],
} as const;
const tokenParams = {
  type: 'object',
  properties: { project_id: { type: 'integer', minimum: 1 }, token_id: { type: 'integer', minimum: 1 } },
  required: ['project_id', 'token_id'],
} as const;
const maxSafe = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

type ProjectAccess = {
  project: { id: number; enterprise_id: number; owner_user_id: number; name: string; dna: string };
  /** Who registers (and pays): the signed-in member, or the token's creator. */
  userId: number;
  viewer: RepoViewer;
  tokenId: number | null;
};

/**
 * Source-code (copyright) projects. A project's creation and each registered commit
 * are ledger entries (kinds `repo_project`, `commit`); a commit's file hash is the SHA-256 of
 * its canonical record (core/repos.ts), computed from `.git` on the user's machine, so source
 * code never reaches the platform. Commits arrive from a signed-in owner or administrator, or
 * from CI with a project token (`Authorization: Bearer pvt_…`, acting for the member who made
 * it, who must still be a confirmed owner or administrator of the project's enterprise).
 */
export default async function repoRoutes(app: FastifyInstance) {
  const { db, config } = app;

  async function memberOf(request: FastifyRequest) {
    const m = await app.requireMember(request, 'member');
    return { ...m, viewer: { userId: m.user.id, role: m.employee.role } as RepoViewer };
  }

  const bearerOf = (request: FastifyRequest): string | null => {
    const header = request.headers.authorization;
    if (typeof header !== 'string') return null;
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return m ? (m[1] as string) : '';
  };

  async function projectRow(id: number) {
    return db.selectFrom('repo_projects').select(['id', 'enterprise_id', 'owner_user_id', 'name', 'dna']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * The caller's access to a project: by session (the project is the member's own, or the
   * member sees the enterprise's data) or by the project's own unrevoked token. A project the
   * caller may not see is not_found, never told apart from a missing one.
   */
  async function access(request: FastifyRequest, projectId: number, options: { isTokenAllowed: boolean }): Promise<ProjectAccess> {
    const bearer = options.isTokenAllowed ? bearerOf(request) : null;
    if (bearer !== null) {
      if (!PROJECT_TOKEN_PATTERN.test(bearer)) throw new ApiError('token_invalid', undefined, 401);
      const token = await db.selectFrom('repo_tokens').selectAll().where('token_sha256', '=', tokenSha256(bearer)).executeTakeFirst();
      if (!token || token.revoked_at !== null || Number(token.project_id) !== projectId) throw new ApiError('token_invalid', undefined, 401);
      const project = await projectRow(projectId);
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
    const m = await memberOf(request);
    const project = await visibleProjects(db, m.employee.enterprise_id, m.viewer).select(['p.id', 'p.enterprise_id', 'p.owner_user_id', 'p.name', 'p.dna']).where('p.id', '=', projectId).executeTakeFirst();
    if (!project) fail('not_found', 'project_id');
    return { project: { ...project, id: Number(project.id) }, userId: m.user.id, viewer: m.viewer, tokenId: null };
  }

  // ---- projects -------------------------------------------------------------------------

  app.post<{ Body: { name: string; description?: string; url?: string } }>(
    '/api/v1/repos',
    { config: SIGNED_IN, schema: { body: body({ name: text(200), description: text(2000), url: text(REPO_URL_MAX + 100) }, ['name']) } },
    async (request) => {
      const m = await memberOf(request);
      const name = request.body.name.trim();
      const description = (request.body.description ?? '').trim();
      const url = (request.body.url ?? '').trim();
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
        await app.registerEntry(
          { fileHash: `0x${toHex(sha256(utf8.encode(recordText)))}`, enterpriseName: m.enterprise.name, registrantUserId: m.user.id, kind: PROJECT_LEDGER_KIND, locale: requestLocale(request) },
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
      const rows = (await visibleProjects(db, enterpriseId, m.viewer).select([...PROJECT_COLUMNS]).where('p.id', '=', projectId).execute()) as ProjectRow[];
      const [dto] = await projectDtos(db, m.viewer, rows);
      return { data: dto };
    },
  );

  app.get<{ Querystring: { page?: number; page_size?: number; keyword?: string } }>(
    '/api/v1/repos',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, keyword: { type: 'string', maxLength: 100 } } } } },
    async (request) => {
      const m = await memberOf(request);
      const { page, size, offset } = pageOf(request.query, config.tablePageSize);
      let q = visibleProjects(db, m.employee.enterprise_id, m.viewer);
      const keyword = request.query.keyword?.trim();
      if (keyword) q = q.where(sql<boolean>`lower(p.name) like lower(${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) escape '\\'`);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = (await q.select([...PROJECT_COLUMNS]).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(size).offset(offset).execute()) as ProjectRow[];
      const data: Paged<Awaited<ReturnType<typeof projectDtos>>[number]> & { sees_all: boolean } = { items: await projectDtos(db, m.viewer, rows), page, page_size: size, total: Number(total.n), sees_all: seesAllRepos(m.viewer) };
      return { data };
    },
  );

  /** §2 repos/global: commits over time, developers and projects, over the projects the caller sees. */
  app.get('/api/v1/repos/overview', { config: SIGNED_IN }, async (request) => {
    const m = await memberOf(request);
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
    const data: RepoOverviewDto = {
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
    return { data };
  });

  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id', { config: SIGNED_IN, schema: { params: projectParam } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    const rows = (await visibleProjects(db, a.project.enterprise_id, a.viewer).select([...PROJECT_COLUMNS]).where('p.id', '=', a.project.id).execute()) as ProjectRow[];
    const [dto] = await projectDtos(db, a.viewer, rows);
    return { data: dto };
  });

  // ---- tokens ---------------------------------------------------------------------------

  /** A new token for CI: shown once in this answer; only its SHA-256 is kept. The owner or an administrator. */
  app.post<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/tokens', { config: SIGNED_IN, schema: { params: projectParam } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    if (!managesRepo(a.viewer, a.project.owner_user_id)) throw new ApiError('forbidden', undefined, 403);
    const t = newProjectToken();
    const row = await db
      .insertInto('repo_tokens')
      .values({ project_id: a.project.id, token_sha256: t.sha256, prefix: t.prefix, created_by: a.userId, created_at: Date.now(), revoked_at: null, last_used_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { data: { token_id: Number(row.id), token: t.token, prefix: t.prefix } };
  });

  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/tokens', { config: SIGNED_IN, schema: { params: projectParam } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    if (!managesRepo(a.viewer, a.project.owner_user_id)) throw new ApiError('forbidden', undefined, 403);
    const rows = await db
      .selectFrom('repo_tokens as t')
      .innerJoin('users as u', 'u.id', 't.created_by')
      .select(['t.id', 't.prefix', 't.created_at', 't.revoked_at', 't.last_used_at', 'u.real_name', 'u.name'])
      .where('t.project_id', '=', a.project.id)
      .orderBy('t.id', 'desc')
      .execute();
    const data: RepoTokenDto[] = rows.map((r) => ({
      token_id: Number(r.id),
      prefix: r.prefix,
      created_by_name: r.real_name || r.name,
      created_at: Number(r.created_at),
      revoked_at: r.revoked_at === null ? null : Number(r.revoked_at),
      last_used_at: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
    return { data };
  });

  app.delete<{ Params: { project_id: number; token_id: number } }>('/api/v1/repos/:project_id/tokens/:token_id', { config: SIGNED_IN, schema: { params: tokenParams } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    if (!managesRepo(a.viewer, a.project.owner_user_id)) throw new ApiError('forbidden', undefined, 403);
    const res = await db.updateTable('repo_tokens').set({ revoked_at: Date.now() }).where('id', '=', request.params.token_id).where('project_id', '=', a.project.id).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) fail('not_found', 'token_id');
    return { data: { revoked: true } };
  });

  // ---- commits --------------------------------------------------------------------------

  /** The commit ids already registered (the CLI and the browser walk only the others). Session or token. */
  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/known-commits', { schema: { params: projectParam } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    const rows = await db.selectFrom('repo_commits').select('commit_id').where('project_id', '=', a.project.id).orderBy('id').execute();
    return { data: rows.map((r) => r.commit_id) };
  });

  /**
   * A batch of commit records (oldest first, at most COMMIT_BATCH_MAX), from the owner or an
   * administrator, by session or project token. Records already registered in the project are
   * answered, not registered again. The new ones become ledger entries of kind `commit` in one
   * transaction, in bulk, with the membership read again and credits.commit charged per commit:
   * all of them or none.
   */
  app.post<{ Params: { project_id: number }; Body: { commits: unknown[] } }>(
    '/api/v1/repos/:project_id/commits',
    { bodyLimit: 8 * 1024 * 1024, schema: { params: projectParam, body: body({ commits: { type: 'array', minItems: 1, maxItems: COMMIT_BATCH_MAX, items: {} } }, ['commits']) } },
    async (request) => {
      const a = await access(request, request.params.project_id, { isTokenAllowed: true });
      if (!managesRepo(a.viewer, a.project.owner_user_id)) throw new ApiError('forbidden', undefined, 403);
      const records = new Map<string, CommitRecord>();
      const changesOf = new Map<string, CommitChanges>();
      for (const [index, item] of request.body.commits.entries()) {
        const record = parseCommitRecord(item);
        if (!record) fail('invalid_param', `commits[${index}]`);
        records.set(record.commit, record);
        // Changed paths with line counts, beside the record (not part of what is registered).
        const changes = (item as { changes?: unknown }).changes;
        if (changes !== undefined) {
          const parsed = parseCommitChanges(changes);
          if (!parsed) fail('invalid_param', `commits[${index}].changes`);
          changesOf.set(record.commit, parsed);
        }
      }
      const enterprise = await db.selectFrom('enterprises').select(['name']).where('id', '=', a.project.enterprise_id).executeTakeFirstOrThrow();
      const locale = requestLocale(request);
      for (let attempt = 0; ; attempt++) {
        const ids = [...records.keys()];
        const existing = new Map<string, string>();
        for (let i = 0; i < ids.length; i += 500) {
          const rows = await db.selectFrom('repo_commits').select(['commit_id', 'dna']).where('project_id', '=', a.project.id).where('commit_id', 'in', ids.slice(i, i + 500)).execute();
          for (const r of rows) existing.set(r.commit_id, r.dna);
        }
        const fresh = [...records.values()].filter((r) => !existing.has(r.commit));
        const digests = await Promise.all(fresh.map((r) => commitRecordDigest(r)));
        const created = new Map<string, string>();
        try {
          if (fresh.length) {
            await app.registerEntries(
              fresh.map((_, i) => ({ fileHash: `0x${digests[i]}`, enterpriseName: enterprise.name, registrantUserId: a.userId, kind: COMMIT_LEDGER_KIND, locale })),
              async (trx, registrations) => {
                // The token may have been revoked, or its creator frozen, since the check above.
                if (a.tokenId !== null) {
                  const live = await trx.selectFrom('repo_tokens').select('id').where('id', '=', a.tokenId).where('revoked_at', 'is', null).executeTakeFirst();
                  if (!live) throw new ApiError('token_invalid', undefined, 401);
                }
                const { chargedEach } = await chargeRegistrations(trx, config, {
                  enterpriseId: a.project.enterprise_id,
                  userId: a.userId,
                  kind: 'commit',
                  items: registrations.map((reg, i) => ({ dna: reg.dna, name: `${a.project.name} @ ${fresh[i]!.commit.slice(0, 12)}` })),
                });
                const now = Date.now();
                const rows = registrations.map((reg, i) => {
                  const r = fresh[i]!;
                  created.set(r.commit, reg.dna);
                  return {
                    project_id: a.project.id,
                    enterprise_id: a.project.enterprise_id,
                    user_id: a.userId,
                    commit_id: r.commit,
                    tree_id: r.tree,
                    record: encodeCommitRecord(r),
                    record_sha256: digests[i]!,
                    author_name: r.author.name.slice(0, 256),
                    author_time: r.author.time * 1000,
                    dna: reg.dna,
                    credits: chargedEach,
                    created_at: now,
                    orphaned_at: null,
                    changes: changesOf.has(r.commit) ? JSON.stringify(changesOf.get(r.commit)) : null,
                  };
                });
                for (let i = 0; i < rows.length; i += 200) await trx.insertInto('repo_commits').values(rows.slice(i, i + 200)).execute();
              },
            );
          }
        } catch (error) {
          // Two pushes of the same commits at once: the unique (project, commit) decides; the loser answers what the winner registered.
          if (!(error instanceof ApiError) && isUniqueViolation(error) && attempt < 2) continue;
          throw error;
        }
        const data: CommitBatchResponse = {
          registered: created.size,
          already: existing.size,
          commits: ids.map((id) => ({ commit_id: id, dip_id: (created.get(id) ?? existing.get(id)) as string, is_new: created.has(id) })),
        };
        return { data };
      }
    },
  );

  /**
   * The commit list, newest author time first: filtered by ref (the commits reachable from a
   * branch or tag, over the stored graph), author (part of the name), author time (from/to,
   * ms) and commit id prefix (q: 7 to 64 hex digits).
   */
  app.get<{ Params: { project_id: number }; Querystring: { page?: number; page_size?: number; author?: string; from?: number; to?: number; ref?: string; q?: string } }>(
    '/api/v1/repos/:project_id/commits',
    {
      schema: {
        params: projectParam,
        querystring: { type: 'object', properties: { ...paging, author: { type: 'string', maxLength: 100 }, from: maxSafe, to: maxSafe, ref: { type: 'string', maxLength: 300 }, q: { type: 'string', maxLength: 80 } } },
      },
    },
    async (request) => {
      const a = await access(request, request.params.project_id, { isTokenAllowed: true });
      const { page, size, offset } = pageOf(request.query, config.tablePageSize);
      let q = commitRows(db, a.project.id);
      const author = request.query.author?.trim();
      if (author) q = q.where(sql<boolean>`lower(c.author_name) like lower(${`%${author.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) escape '\\'`);
      if (request.query.from !== undefined) q = q.where('c.author_time', '>=', request.query.from);
      if (request.query.to !== undefined) q = q.where('c.author_time', '<=', request.query.to);
      const prefix = request.query.q?.trim().toLowerCase();
      if (prefix) {
        if (!COMMIT_PREFIX_PATTERN.test(prefix)) fail('invalid_param', 'q');
        q = q.where('c.commit_id', 'like', `${prefix}%`);
      }
      const ordered = <T extends typeof q>(query: T) => query.orderBy('c.author_time', 'desc').orderBy('c.id', 'desc');
      let total: number;
      let rows: CommitRow[];
      const refName = request.query.ref?.trim();
      if (refName) {
        const ref = await db.selectFrom('repo_refs').select('commit_id').where('project_id', '=', a.project.id).where('name', '=', refName).executeTakeFirst();
        if (!ref) fail('not_found', 'ref');
        const reach = reachableFrom(await commitGraph(db, a.project.id), [ref.commit_id]);
        const ids = (await ordered(q).select(['c.id', 'c.commit_id']).execute()).filter((r) => reach.has(r.commit_id)).map((r) => Number(r.id));
        total = ids.length;
        const pageIds = ids.slice(offset, offset + size);
        rows = pageIds.length ? ((await ordered(commitRows(db, a.project.id).where('c.id', 'in', pageIds)).select([...COMMIT_COLUMNS]).execute()) as CommitRow[]) : [];
      } else {
        total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        rows = (await ordered(q).select([...COMMIT_COLUMNS]).limit(size).offset(offset).execute()) as CommitRow[];
      }
      const data: Paged<ReturnType<typeof commitDto>> = { items: rows.map(commitDto), page, page_size: size, total };
      return { data };
    },
  );

  /** The branches and tags the last pushes reported, and the force-pushes detected. Session or token. */
  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/refs', { schema: { params: projectParam } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    return { data: await projectRefs(db, a.project.id) };
  });

  /**
   * A push reports its refs after its commits (the owner or an administrator, by session or
   * token): refs are recorded, and a ref moved off its previous history is a force-push whose
   * orphaned commits are flagged (services/repos.ts updateRefs).
   */
  app.put<{ Params: { project_id: number }; Body: { refs: Array<{ ref: string; commit: string }> } }>(
    '/api/v1/repos/:project_id/refs',
    {
      schema: {
        params: projectParam,
        body: body(
          {
            refs: {
              type: 'array',
              maxItems: REFS_MAX,
              items: { type: 'object', properties: { ref: { type: 'string', maxLength: 300 }, commit: { type: 'string', maxLength: 64 } }, required: ['ref', 'commit'] },
            },
          },
          ['refs'],
        ),
      },
    },
    async (request) => {
      const a = await access(request, request.params.project_id, { isTokenAllowed: true });
      if (!managesRepo(a.viewer, a.project.owner_user_id)) throw new ApiError('forbidden', undefined, 403);
      const refs: Array<{ ref: string; commit: string }> = [];
      for (const [index, r] of request.body.refs.entries()) {
        const commit = r.commit.toLowerCase();
        if (!REF_NAME_PATTERN.test(r.ref)) fail('invalid_param', `refs[${index}].ref`);
        if (!OID.test(commit)) fail('invalid_param', `refs[${index}].commit`);
        refs.push({ ref: r.ref, commit });
      }
      return { data: await updateRefs(db, a.project.id, a.userId, refs) };
    },
  );

  async function commitOr404(a: ProjectAccess, commitId: string): Promise<CommitRow> {
    // The commit id, or its DNA (what the search leads to: commitDetail with the DNA).
    const id = commitId.toLowerCase();
    const isDna = DNA_PATTERN.test(id);
    if (!OID.test(id) && !isDna) fail('not_found', 'commit_id');
    const row = (await commitRows(db, a.project.id)
      .select([...COMMIT_COLUMNS, 'c.changes'])
      .where(isDna ? 'c.dna' : 'c.commit_id', '=', id)
      .executeTakeFirst()) as CommitRow | undefined;
    if (!row) fail('not_found', 'commit_id');
    return row;
  }

  app.get<{ Params: { project_id: number; commit_id: string } }>('/api/v1/repos/:project_id/commits/:commit_id', { schema: { params: commitParams } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    return { data: commitDto(await commitOr404(a, request.params.commit_id)) };
  });

  /** The commit's certificate PDF once generated (before: §8 proof_record_not_found). Session or token. */
  app.get<{ Params: { project_id: number; commit_id: string } }>('/api/v1/repos/:project_id/commits/:commit_id/proof', { schema: { params: commitParams } }, async (request, reply) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    const commit = await commitOr404(a, request.params.commit_id);
    const proof = await db.selectFrom('proofs').select(['status', 'pdf']).where('dna', '=', commit.dna).executeTakeFirstOrThrow();
    if (!isProofStatusGenerated(proof.status) || !proof.pdf) fail('proof_record_not_found', 'commit_id');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(`provena-commit-${commit.commit_id.slice(0, 12)}-${commit.dna}.pdf`))
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(proof.pdf));
  });
}
