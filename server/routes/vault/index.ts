import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkSmsCode } from '../../../core/validation.ts';
import type { ErrorKey } from '../../../core/errors.ts';
import { fail } from '../../errors.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import {
  createProject,
  filePage,
  isVaultOpen,
  lockVault,
  projectDto,
  projectOr404,
  projectPage,
  registerVaultFile,
  unlockVault,
  updateProject,
  vaultAuthorization,
  vaultLogPage,
  vaultProof,
  type ProjectInput,
  type VaultContext,
  type VaultFileInput,
} from '../../services/vault-projects.ts';
import { body, idParam, ok, pageOf, paging, text, SIGNED_IN } from '../schemas.ts';
import { filePage as filePageSchema, logPage, projectPage as projectPageSchema, vaultAuthorization as authorizationSchema, vaultFile, vaultProject } from './responses.ts';

const authorization = { response: ok(authorizationSchema) };
const project = { response: ok(vaultProject) };
import { requestLocale } from '../../locale.ts';
import { contentDisposition } from '../../content-disposition.ts';

function rule(key: ErrorKey | null, field: string): void {
  if (key) fail(key, field);
}

/**
 * The trade-secret vault. Every data call needs the vault unlocked by an SMS
 * code to the member's own phone (POST /vault/authorization); the unlock lasts
 * `vaultSessionSeconds` within the login session, then calls answer §8
 * vault_login_status_expired. §6: a plain member sees only their own projects and files,
 * the confidentiality officer and administrators all of the enterprise's.
 * Routes check who asks; services/vault-projects.ts decides and writes.
 */
export default async function vaultRoutes(app: FastifyInstance) {
  const { db, codes, config } = app;

  async function memberOf(request: FastifyRequest): Promise<MemberContext & { sessionId: string }> {
    const member = await app.requireMember(request, 'member');
    const session = await app.requireSession(request);
    return { ...member, sessionId: session.id };
  }

  /** The caller's membership with the vault open for this login session and company, or vault_login_status_expired. */
  async function requireVault(request: FastifyRequest): Promise<VaultContext> {
    const member = await memberOf(request);
    if (!(await isVaultOpen(db, member.sessionId, member.employee.enterprise_id))) fail('vault_login_status_expired');
    return { ...member, viewer: { userId: member.user.id, role: member.employee.role } };
  }

  // ---- unlocking -------------------------------------------------------------------------

  /** Whether the vault is open now, and until when (never fails with vault_login_status_expired). */
  app.get('/api/v1/vault/authorization', { schema: authorization }, async (request) => {
    const m = await memberOf(request);
    return { data: await vaultAuthorization(db, config, m.sessionId, m.employee.enterprise_id) };
  });

  /**
   * §7 POST /vault/authorization: new_phone_number (the member's own phone, where the
   * type-18 code went) and validation_code. Opens the vault for vaultSessionSeconds.
   */
  app.post<{ Body: { new_phone_number?: string; validation_code: string } }>(
    '/api/v1/vault/authorization',
    { config: SIGNED_IN, schema: { body: body({ new_phone_number: text(32), validation_code: text(16) }, ['validation_code']), ...authorization } },
    async (request) => {
      const m = await memberOf(request);
      const phone = request.body.new_phone_number?.trim();
      if (phone && phone !== m.user.phonenumber) fail('phone_invalid', 'new_phone_number');
      rule(checkSmsCode(request.body.validation_code.trim()), 'validation_code');
      return { data: await unlockVault(db, codes, config, m, request.body.validation_code.trim()) };
    },
  );

  /** Locks the vault now (leaving the desk); the next vault call needs a new code. */
  app.delete('/api/v1/vault/authorization', { schema: authorization }, async (request) => {
    const m = await memberOf(request);
    return { data: await lockVault(db, config, m) };
  });

  // ---- projects --------------------------------------------------------------------------

  app.get<{ Querystring: { page?: number; page_size?: number; keyword?: string } }>(
    '/api/v1/vault/projects',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, keyword: text(60) } }, response: ok(projectPageSchema) } },
    async (request) => {
      const v = await requireVault(request);
      return { data: await projectPage(db, v, pageOf(request.query, config.tablePageSize), request.query.keyword) };
    },
  );

  const projectBody = body({ name: text(200), description: text(2000) }, ['name']);

  app.post<{ Body: ProjectInput }>('/api/v1/vault/projects', { config: SIGNED_IN, schema: { body: projectBody, ...project } }, async (request) => {
    const v = await requireVault(request);
    return { data: await createProject(db, v, request.body) };
  });

  app.get<{ Params: { projectId: number } }>('/api/v1/vault/projects/:projectId', { config: SIGNED_IN, schema: { params: idParam('projectId'), ...project } }, async (request) => {
    const v = await requireVault(request);
    await projectOr404(db, v, request.params.projectId);
    return { data: await projectDto(db, v, request.params.projectId) };
  });

  app.put<{ Params: { projectId: number }; Body: ProjectInput }>(
    '/api/v1/vault/projects/:projectId',
    { config: SIGNED_IN, schema: { params: idParam('projectId'), body: projectBody, ...project } },
    async (request) => {
      const v = await requireVault(request);
      return { data: await updateProject(db, v, request.params.projectId, request.body) };
    },
  );

  // ---- files -----------------------------------------------------------------------------

  /**
   * A project's files, newest first. With `dip_id` (a search result, §2 named route project
   * (projectId, dip_id)) and no `page`, the page that holds that file is answered.
   */
  app.get<{ Params: { projectId: number }; Querystring: { page?: number; page_size?: number; dip_id?: string } }>(
    '/api/v1/vault/projects/:projectId/files',
    { config: SIGNED_IN, schema: { params: idParam('projectId'), querystring: { type: 'object', properties: { ...paging, dip_id: text(40) } }, response: ok(filePageSchema) } },
    async (request) => {
      const v = await requireVault(request);
      return { data: await filePage(db, v, request.params.projectId, pageOf(request.query, config.tablePageSize), request.query.dip_id?.trim(), request.query.page !== undefined) };
    },
  );

  /** Registers a file into a project by its §3 identity (hashed in the browser); ledger entry, credit charge and vault row commit together. */
  app.post<{ Params: { projectId: number }; Body: VaultFileInput }>(
    '/api/v1/vault/projects/:projectId/files',
    { config: SIGNED_IN,
      schema: {
        params: idParam('projectId'),
        body: body({ name: text(400), file_hash: text(100), size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } }, ['name', 'file_hash']),
        response: ok(vaultFile),
      },
    },
    async (request) => {
      const v = await requireVault(request);
      return { data: await registerVaultFile(db, (i, t) => app.registerEntry(i, t), config, v, request.params.projectId, request.body, requestLocale(request)) };
    },
  );

  /** The proof certificate PDF of a vault file, for whoever may see the file (logged). */
  app.get<{ Params: { fileId: number } }>('/api/v1/vault/files/:fileId/proof', { config: SIGNED_IN, schema: { params: idParam('fileId') } }, async (request, reply) => {
    const v = await requireVault(request);
    const proof = await vaultProof(db, app.fileStore.driver, v, request.params.fileId);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(`provena-proof-${proof.dna}.pdf`))
      .header('cache-control', 'private, no-store')
      .send(proof.pdf);
  });

  // ---- log -------------------------------------------------------------------------------

  /** The vault log, newest first: one project's (project_id), or every vault action the caller may see. */
  app.get<{ Querystring: { project_id?: number; page?: number; page_size?: number } }>(
    '/api/v1/vault/logs',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, project_id: { type: 'integer', minimum: 1 } } }, response: ok(logPage) } },
    async (request) => {
      const v = await requireVault(request);
      return { data: await vaultLogPage(db, v, request.query.project_id, pageOf(request.query, config.tablePageSize)) };
    },
  );
}
