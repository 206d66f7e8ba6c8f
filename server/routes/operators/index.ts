import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APPLICATION_STATUS, EMPLOYEE_STATUS } from '../../../core/enterprise.ts';
import type { OperatorApplicationDto } from '../../../core/api-types.ts';
import { fail } from '../../errors.ts';
import { verifyPassword } from '../../services/passwords.ts';
import { insertEnterprise } from '../../services/enterprises.ts';
import { OPERATOR_COOKIE, OPERATOR_SESSION_TTL_MS, createOperatorSession, operatorTokenId, requireOperator as requireOperatorOf } from '../../services/operators.ts';
import { body } from '../schemas.ts';

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

  app.post<{ Body: { login_id: string; password: string } }>(
    '/api/v1/operator/tokens',
    { schema: { body: body({ login_id: { type: 'string', maxLength: 64 }, password: { type: 'string', maxLength: 128 } }, ['login_id', 'password']) } },
    async (request, reply) => {
      const operator = await db.selectFrom('operators').selectAll().where('login_id', '=', request.body.login_id.trim()).executeTakeFirst();
      const isOk = operator ? await verifyPassword(request.body.password, operator.password_hash) : false;
      if (!operator || !isOk) fail('invalid_password', 'password');
      const token = await createOperatorSession(db, operator.id);
      reply.setCookie(OPERATOR_COOKIE, token, { ...cookieOptions, maxAge: Math.floor(OPERATOR_SESSION_TTL_MS / 1000) });
      return { data: { id: operator.id, login_id: operator.login_id, name: operator.name } };
    },
  );

  app.delete('/api/v1/operator/tokens', async (request, reply) => {
    const token = request.cookies[OPERATOR_COOKIE];
    if (token) await db.deleteFrom('operator_sessions').where('id', '=', operatorTokenId(token)).execute();
    reply.clearCookie(OPERATOR_COOKIE, cookieOptions);
    return { data: null };
  });

  app.get('/api/v1/operator/me', async (request) => {
    const op = await requireOperator(request);
    return { data: { id: op.id, login_id: op.login_id, name: op.name } };
  });

  app.get<{ Querystring: { status?: number } }>(
    '/api/v1/operator/applications',
    { schema: { querystring: { type: 'object', properties: { status: { type: 'integer', minimum: 1, maximum: 3 } } } } },
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
      },
    },
    async (request) => {
      const op = await requireOperator(request);
      const reason = (request.body.reason ?? '').trim();
      if (request.body.status === APPLICATION_STATUS.rejected && !reason) fail('required', 'reason');
      const result = await db.transaction().execute(async (trx) => {
        const application = await trx.selectFrom('enterprise_applications').selectAll().where('id', '=', request.params.id).executeTakeFirst();
        if (!application) fail('not_found', 'id');
        if (application.status !== APPLICATION_STATUS.pending) fail('invalid_param', 'status');
        const now = Date.now();
        let enterpriseId: number | null = null;
        if (request.body.status === APPLICATION_STATUS.approved) {
          const joined = await trx.selectFrom('employees').select('id').where('user_id', '=', application.user_id).where('status', '<>', EMPLOYEE_STATUS.rejected).executeTakeFirst();
          if (joined && !app.config.multiCompany) fail('enterprise_already_join', 'id');
          enterpriseId = await insertEnterprise(
            trx,
            application.user_id,
            { name: application.name, license: application.license_no, legal_person: application.legal_person, license_image_id: application.license_image_id },
            2,
            { apply_book_id: application.apply_book_id, organization_code_certificate_id: application.organization_code_certificate_id },
          );
        }
        await trx
          .updateTable('enterprise_applications')
          .set({ status: request.body.status, reason, enterprise_id: enterpriseId, reviewed_by: op.id, reviewed_at: now, updated_at: now })
          .where('id', '=', application.id)
          .execute();
        return { id: application.id, status: request.body.status, enterprise_id: enterpriseId };
      });
      return { data: result };
    },
  );
}

