import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APPLICATION_STATUS } from '../../../core/enterprise.ts';
import type { OperatorApplicationDto, OperatorJobsDto } from '../../../core/api-types.ts';
import { fail } from '../../errors.ts';
import { verifyPasswordOrDummy } from '../../services/passwords.ts';
import { reviewApplication, type ReviewStatus } from '../../services/operator-review.ts';
import {
  OPERATOR_COOKIE,
  OPERATOR_SESSION_TTL_MS,
  createOperatorSession,
  newRecoveryCodes,
  newTotpSecret,
  openTotpSecret,
  operatorOfSession,
  operatorTokenId,
  recoveryCodeHash,
  requireOperator as requireOperatorOf,
  sealTotpSecret,
  totpFor,
  totpStep,
  writeOperatorAudit,
} from '../../services/operators.ts';
import { hit } from '../../services/rate-limit.ts';
import { lockedUntil, recordFailure, recordSuccess } from '../../services/lockout.ts';
import { loadMasterKey } from '../../storage/file-store.ts';
import { body, okNull } from '../schemas.ts';
import { applicationsResponse, auditResponse, jobsResponse, loginResponse, meResponse, reviewResponse } from './responses.ts';

/** Console login attempts per client address, whatever the login id (the same ceiling as members'). */
export const OPERATOR_LOGIN_PER_ADDRESS = { limit: 30, windowMs: 10 * 60 * 1000 };
const AUDIT_PAGE_SIZE_MAX = 100;

const PARSED_FILE = /^0x[0-9a-f]{64}\.[a-z0-9]{1,16}$/;
const CONTENT_TYPES: Record<string, string> = { pdf: 'application/pdf', jpg: 'image/jpeg', png: 'image/png', bmp: 'image/bmp', gif: 'image/gif' };

/**
 * The platform operator console API: its own accounts, sessions and cookie, apart from
 * enterprise roles. Operators review channel-2 applications. An enterprise session
 * never reaches these routes and an operator session reaches no enterprise route.
 */
export default async function operatorRoutes(app: FastifyInstance) {
  const { db } = app;

  const requireOperator = (request: FastifyRequest) => requireOperatorOf(db, request);

  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'strict' as const, secure: app.env.cookieSecure };

  const master = loadMasterKey(app.env.dataDir, app.env.storageKey);

  /**
   * Console login: password, then the second factor. Limits and lockout follow the
   * member policy (per address; per login and address; per login at a higher
   * threshold). An unknown login id costs the same scrypt work as a known one.
   * First login (no authenticator yet): the answer carries `enroll` (secret and
   * otpauth URI for the QR code) and no session; the same request again with a code
   * from the authenticator completes enrollment and returns the recovery codes once.
   * After that every login needs `totp_code` (or one `recovery_code`).
   */
  app.post<{ Body: { login_id: string; password: string; totp_code?: string; recovery_code?: string } }>(
    '/api/v1/operator/tokens',
    {
      schema: {
        body: body(
          {
            login_id: { type: 'string', maxLength: 64 },
            password: { type: 'string', maxLength: 128 },
            totp_code: { type: 'string', maxLength: 16 },
            recovery_code: { type: 'string', maxLength: 32 },
          },
          ['login_id', 'password'],
        ),
        response: loginResponse,
      },
    },
    async (request, reply) => {
      const loginId = request.body.login_id.trim();
      const ip = request.ip;
      if (!(await hit(db, `operator-login-ip:${ip}`, OPERATOR_LOGIN_PER_ADDRESS.limit * app.env.addressLimitFactor, OPERATOR_LOGIN_PER_ADDRESS.windowMs))) {
        fail('too_frequent_operation', 'login_id');
      }
      const operator = await db.selectFrom('operators').selectAll().where('login_id', '=', loginId).executeTakeFirst();
      const account = operator ? `operator:${operator.id}` : '';
      if (operator && (await lockedUntil(db, account, ip))) fail('operating_too_frequently', 'login_id');
      const isPasswordOk = await verifyPasswordOrDummy(request.body.password, operator?.password_hash);
      const refuse = async (key: 'invalid_password' | 'totp_invalid', field: string, detail: Record<string, unknown>): Promise<never> => {
        if (!operator) fail(key, field);
        await writeOperatorAudit(db, { operatorId: operator.id, loginId: operator.login_id, action: 'login_failed', detail, ip });
        if (await recordFailure(db, account, ip)) fail('operating_too_frequently', 'login_id');
        fail(key, field);
      };
      if (!operator || !isPasswordOk) return refuse('invalid_password', 'password', { reason: 'password' });
      const totpCode = (request.body.totp_code ?? '').trim();
      const recoveryCode = (request.body.recovery_code ?? '').trim();
      const now = Date.now();
      let recoveryCodes: string[] | undefined;

      if (!operator.totp_secret) {
        // Enrollment: offer a secret (kept sealed until confirmed), then confirm it with a code.
        if (!operator.totp_pending || !totpCode) {
          const secret = operator.totp_pending ? openTotpSecret(master, operator.totp_pending) : newTotpSecret();
          if (!operator.totp_pending) await db.updateTable('operators').set({ totp_pending: sealTotpSecret(master, secret) }).where('id', '=', operator.id).execute();
          return { data: { enroll: { secret, uri: totpFor(secret, operator.login_id).toString() } } };
        }
        const secret = openTotpSecret(master, operator.totp_pending);
        const step = totpStep(secret, operator.login_id, totpCode, now);
        if (step === null) return refuse('totp_invalid', 'totp_code', { reason: 'totp_enrollment' });
        recoveryCodes = newRecoveryCodes();
        const codes = recoveryCodes;
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('operators').set({ totp_secret: operator.totp_pending, totp_pending: null, totp_last_step: step }).where('id', '=', operator.id).execute();
          await trx.deleteFrom('operator_recovery_codes').where('operator_id', '=', operator.id).execute();
          await trx.insertInto('operator_recovery_codes').values(codes.map((c) => ({ operator_id: operator.id, code_hash: recoveryCodeHash(c), used_at: null }))).execute();
          await writeOperatorAudit(trx, { operatorId: operator.id, loginId: operator.login_id, action: 'totp_enrolled', ip });
        });
      } else if (recoveryCode) {
        const used = await db
          .updateTable('operator_recovery_codes')
          .set({ used_at: now })
          .where('operator_id', '=', operator.id)
          .where('code_hash', '=', recoveryCodeHash(recoveryCode))
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return refuse('totp_invalid', 'recovery_code', { reason: 'recovery_code' });
        await writeOperatorAudit(db, { operatorId: operator.id, loginId: operator.login_id, action: 'recovery_code_used', ip });
      } else {
        if (!totpCode) fail('totp_required', 'totp_code');
        const step = totpStep(openTotpSecret(master, operator.totp_secret), operator.login_id, totpCode, now);
        // Each code once: the step must be newer than the last one accepted (atomically).
        const accepted =
          step === null
            ? 0
            : Number((await db.updateTable('operators').set({ totp_last_step: step }).where('id', '=', operator.id).where('totp_last_step', '<', step).executeTakeFirst()).numUpdatedRows);
        if (accepted !== 1) return refuse('totp_invalid', 'totp_code', { reason: 'totp' });
      }
      await recordSuccess(db, account, ip);
      const token = await createOperatorSession(db, operator.id);
      await writeOperatorAudit(db, { operatorId: operator.id, loginId: operator.login_id, action: 'login', ip });
      reply.setCookie(OPERATOR_COOKIE, token, { ...cookieOptions, maxAge: Math.floor(OPERATOR_SESSION_TTL_MS / 1000) });
      return { data: { id: operator.id, login_id: operator.login_id, name: operator.name, ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) } };
    },
  );

  // The audit log, newest first: every console login and decision.
  app.get<{ Querystring: { page?: number; page_size?: number } }>(
    '/api/v1/operator/audit',
    { schema: { querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1, maximum: 100000 }, page_size: { type: 'integer', minimum: 1, maximum: AUDIT_PAGE_SIZE_MAX } } }, response: auditResponse } },
    async (request) => {
      await requireOperator(request);
      const size = request.query.page_size ?? 50;
      const page = request.query.page ?? 1;
      const total = Number((await db.selectFrom('operator_audit').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await db.selectFrom('operator_audit').selectAll().orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute();
      const items = rows.map((r) => ({ id: r.id, login_id: r.login_id, action: r.action, target: r.target, detail: JSON.parse(r.detail) as Record<string, unknown>, ip: r.ip, created_at: Number(r.created_at) }));
      return { data: { items, total, page, page_size: size } };
    },
  );

  app.delete('/api/v1/operator/tokens', { schema: { response: okNull } }, async (request, reply) => {
    const token = request.cookies[OPERATOR_COOKIE];
    const op = await operatorOfSession(db, token);
    if (token) await db.deleteFrom('operator_sessions').where('id', '=', operatorTokenId(token)).execute();
    if (op) await writeOperatorAudit(db, { operatorId: op.id, loginId: op.login_id, action: 'logout', ip: request.ip });
    reply.clearCookie(OPERATOR_COOKIE, cookieOptions);
    return { data: null };
  });

  // Background jobs: state, attempts and last error, newest first.
  app.get<{ Querystring: { limit?: number } }>(
    '/api/v1/operator/jobs',
    { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 500 } } }, response: jobsResponse } },
    async (request): Promise<{ data: OperatorJobsDto }> => {
      await requireOperator(request);
      return { data: { backend: app.jobs.backend, items: await app.jobs.list(request.query.limit ?? 100) } };
    },
  );

  app.get('/api/v1/operator/me', { schema: { response: meResponse } }, async (request) => {
    const op = await requireOperator(request);
    return { data: { id: op.id, login_id: op.login_id, name: op.name } };
  });

  app.get<{ Querystring: { status?: number } }>(
    '/api/v1/operator/applications',
    { schema: { querystring: { type: 'object', properties: { status: { type: 'integer', minimum: 1, maximum: 3 } } }, response: applicationsResponse } },
    async (request) => {
      await requireOperator(request);
      let query = db
        .selectFrom('enterprise_applications')
        .innerJoin('users', 'users.id', 'enterprise_applications.user_id')
        .selectAll('enterprise_applications')
        .select(['users.phonenumber as applicant_phone', 'users.real_name as applicant_name']);
      if (request.query.status) query = query.where('enterprise_applications.status', '=', request.query.status);
      const rows = await query.orderBy('enterprise_applications.id', 'desc').limit(200).execute();
      const items: OperatorApplicationDto[] = rows.map((r) => ({
        id: r.id,
        name: r.name,
        status: r.status,
        reason: r.reason,
        created_at: Number(r.created_at),
        license_no: r.license_no,
        legal_person: r.legal_person,
        license_image_id: r.license_image_id,
        apply_book_id: r.apply_book_id,
        organization_code_certificate_id: r.organization_code_certificate_id,
        applicant_phone: r.applicant_phone,
        applicant_name: r.applicant_name,
      }));
      return { data: items };
    },
  );

  // The uploaded files of an application, for the reviewing operator only.
  app.get<{ Params: { id: string } }>('/api/v1/operator/files/:id', { schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 90 } }, required: ['id'] } } }, async (request, reply) => {
    await requireOperator(request);
    const id = request.params.id;
    if (!PARSED_FILE.test(id)) fail('invalid_param', 'id');
    const file = await db.selectFrom('files').select(['id', 'type']).where('id', '=', id).executeTakeFirst();
    if (!file) fail('not_found', 'id');
    return reply.header('content-type', CONTENT_TYPES[file.type] ?? 'application/octet-stream').header('x-content-type-options', 'nosniff').send(await app.blobs.read(id));
  });

  // Approve (2) creates the enterprise with the applicant as super administrator; reject (3) needs a reason.
  app.put<{ Params: { id: number }; Body: { status: number; reason?: string } }>(
    '/api/v1/operator/applications/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        body: body({ status: { type: 'integer', enum: [APPLICATION_STATUS.approved, APPLICATION_STATUS.rejected] }, reason: { type: 'string', maxLength: 500 } }, ['status']),
        response: reviewResponse,
      },
    },
    async (request) => {
      const op = await requireOperator(request);
      const reason = (request.body.reason ?? '').trim();
      if (request.body.status === APPLICATION_STATUS.rejected && !reason) fail('required', 'reason');
      const result = await reviewApplication(db, app.config, op, request.params.id, { status: request.body.status as ReviewStatus, reason }, request.ip);
      return { data: result };
    },
  );
}

