import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMMIT_BATCH_MAX, REPO_URL_MAX, REFS_MAX } from '../../../core/repos.ts';
import { readProofPdf } from '../../services/proof-pdf.ts';
import { ApiError, fail } from '../../errors.ts';
import type { RepoViewer } from '../../services/repos.ts';
import { createRepoProject, createRepoToken, memberAccess, repoOverview, repoProjectDto, repoProjectPage, repoTokens, revokeRepoToken, tokenAccess, type ProjectAccess, type RepoMember } from '../../services/repo-projects.ts';
import { commitOr404, commitPage, knownCommitIds, registerCommitBatch, reportRefs } from '../../services/repo-commits.ts';
import { commitDto, projectRefs } from '../../services/repos.ts';
import { body, idParam, pageOf, paging, SIGNED_IN, text } from '../schemas.ts';
import { batchResponse, commitPageResponse, commitResponse, knownCommitsResponse, newTokenResponse, overviewResponse, projectPageResponse, projectResponse, refsResponse, refsUpdateResponse, revokedResponse, tokensResponse } from './responses.ts';
import { requestLocale } from '../../locale.ts';
import { contentDisposition } from '../../content-disposition.ts';

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

/**
 * Source-code (copyright) projects. A project's creation and each registered commit
 * are ledger entries (kinds `repo_project`, `commit`); a commit's file hash is the SHA-256 of
 * its canonical record (core/repos.ts), computed from `.git` on the user's machine, so source
 * code never reaches the platform. Commits arrive from a signed-in owner or administrator, or
 * from CI with a project token (`Authorization: Bearer pvt_…`, acting for the member who made
 * it, who must still be a confirmed owner or administrator of the project's enterprise).
 * These routes parse and resolve the caller; services/repo-projects.ts and repo-commits.ts decide.
 */
export default async function repoRoutes(app: FastifyInstance) {
  const { db, config } = app;

  async function memberOf(request: FastifyRequest): Promise<RepoMember> {
    const m = await app.requireMember(request, 'member');
    return { ...m, viewer: { userId: m.user.id, role: m.employee.role } as RepoViewer };
  }

  const bearerOf = (request: FastifyRequest): string | null => {
    const header = request.headers.authorization;
    if (typeof header !== 'string') return null;
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return m ? (m[1] as string) : '';
  };

  /**
   * The caller's access to a project: by session (the project is the member's own, or the
   * member sees the enterprise's data) or by the project's own unrevoked token. A project the
   * caller may not see is not_found, never told apart from a missing one. On a route that
   * takes a token, a caller with neither a session nor a token is 401 token_invalid, as a
   * wrong token is (and as the signed open API answers an unsigned call).
   */
  async function access(request: FastifyRequest, projectId: number, options: { isTokenAllowed: boolean }): Promise<ProjectAccess> {
    const bearer = options.isTokenAllowed ? bearerOf(request) : null;
    if (bearer !== null) return tokenAccess(db, bearer, projectId);
    if (options.isTokenAllowed && !request.session) throw new ApiError('token_invalid', undefined, 401);
    return memberAccess(db, await memberOf(request), projectId);
  }

  // ---- projects -------------------------------------------------------------------------

  app.post<{ Body: { name: string; description?: string; url?: string } }>(
    '/api/v1/repos',
    { config: SIGNED_IN, schema: { body: body({ name: text(200), description: text(2000), url: text(REPO_URL_MAX + 100) }, ['name']), response: projectResponse } },
    async (request) => {
      const m = await memberOf(request);
      return { data: await createRepoProject(db, app.registerEntry, m, request.body, requestLocale(request)) };
    },
  );

  app.get<{ Querystring: { page?: number; page_size?: number; keyword?: string } }>(
    '/api/v1/repos',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, keyword: { type: 'string', maxLength: 100 } } }, response: projectPageResponse } },
    async (request) => {
      const m = await memberOf(request);
      return { data: await repoProjectPage(db, m, pageOf(request.query, config.tablePageSize), request.query.keyword) };
    },
  );

  /** §2 repos/global: commits over time, developers and projects, over the projects the caller sees. */
  app.get('/api/v1/repos/overview', { config: SIGNED_IN, schema: { response: overviewResponse } }, async (request) => {
    return { data: await repoOverview(db, await memberOf(request)) };
  });

  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id', { config: SIGNED_IN, schema: { params: projectParam, response: projectResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    return { data: await repoProjectDto(db, a.project.enterprise_id, a.viewer, a.project.id) };
  });

  // ---- tokens ---------------------------------------------------------------------------

  /** A new token for CI: shown once in this answer; only its SHA-256 is kept. The owner or an administrator. */
  app.post<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/tokens', { config: SIGNED_IN, schema: { params: projectParam, response: newTokenResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    return { data: await createRepoToken(db, a) };
  });

  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/tokens', { config: SIGNED_IN, schema: { params: projectParam, response: tokensResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    return { data: await repoTokens(db, a) };
  });

  app.delete<{ Params: { project_id: number; token_id: number } }>('/api/v1/repos/:project_id/tokens/:token_id', { config: SIGNED_IN, schema: { params: tokenParams, response: revokedResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: false });
    await revokeRepoToken(db, a, request.params.token_id);
    return { data: { revoked: true } };
  });

  // ---- commits --------------------------------------------------------------------------

  /** The commit ids already registered (the CLI and the browser walk only the others). Session or token. */
  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/known-commits', { schema: { params: projectParam, response: knownCommitsResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    return { data: await knownCommitIds(db, a) };
  });

  /** A batch of commit records (oldest first, at most COMMIT_BATCH_MAX), by session or project token: all registered or none. */
  app.post<{ Params: { project_id: number }; Body: { commits: unknown[] } }>(
    '/api/v1/repos/:project_id/commits',
    { bodyLimit: 8 * 1024 * 1024, schema: { params: projectParam, body: body({ commits: { type: 'array', minItems: 1, maxItems: COMMIT_BATCH_MAX, items: {} } }, ['commits']), response: batchResponse } },
    async (request) => {
      const a = await access(request, request.params.project_id, { isTokenAllowed: true });
      return { data: await registerCommitBatch(db, config, app.registerEntries, a, request.body.commits, requestLocale(request)) };
    },
  );

  /** The commit list, newest author time first, filtered by ref, author, author time and commit id prefix. Session or token. */
  app.get<{ Params: { project_id: number }; Querystring: { page?: number; page_size?: number; author?: string; from?: number; to?: number; ref?: string; q?: string } }>(
    '/api/v1/repos/:project_id/commits',
    {
      schema: {
        params: projectParam,
        querystring: { type: 'object', properties: { ...paging, author: { type: 'string', maxLength: 100 }, from: maxSafe, to: maxSafe, ref: { type: 'string', maxLength: 300 }, q: { type: 'string', maxLength: 80 } } },
        response: commitPageResponse,
      },
    },
    async (request) => {
      const a = await access(request, request.params.project_id, { isTokenAllowed: true });
      return { data: await commitPage(db, a, pageOf(request.query, config.tablePageSize), request.query) };
    },
  );

  /** The branches and tags the last pushes reported, and the force-pushes detected. Session or token. */
  app.get<{ Params: { project_id: number } }>('/api/v1/repos/:project_id/refs', { schema: { params: projectParam, response: refsResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    return { data: await projectRefs(db, a.project.id) };
  });

  /** A push reports its refs after its commits (the owner or an administrator, by session or token). */
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
        response: refsUpdateResponse,
      },
    },
    async (request) => {
      const a = await access(request, request.params.project_id, { isTokenAllowed: true });
      return { data: await reportRefs(db, a, request.body.refs) };
    },
  );

  app.get<{ Params: { project_id: number; commit_id: string } }>('/api/v1/repos/:project_id/commits/:commit_id', { schema: { params: commitParams, response: commitResponse } }, async (request) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    return { data: commitDto(await commitOr404(db, a, request.params.commit_id)) };
  });

  /** The commit's certificate PDF once generated (before: §8 proof_record_not_found). Session or token. */
  app.get<{ Params: { project_id: number; commit_id: string } }>('/api/v1/repos/:project_id/commits/:commit_id/proof', { schema: { params: commitParams } }, async (request, reply) => {
    const a = await access(request, request.params.project_id, { isTokenAllowed: true });
    const commit = await commitOr404(db, a, request.params.commit_id);
    const pdf = await readProofPdf(db, app.fileStore.driver, commit.dna);
    if (!pdf) fail('proof_record_not_found', 'commit_id');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(`provena-commit-${commit.commit_id.slice(0, 12)}-${commit.dna}.pdf`))
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
