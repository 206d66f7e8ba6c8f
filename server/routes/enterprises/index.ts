import type { FastifyInstance } from 'fastify';
import { INVITATION_STATUS } from '../../../core/enterprise.ts';
import { companyState } from '../../services/enterprises.ts';
import { answerInvitation, joinByCode, joinByName, switchEnterprise } from '../../services/enterprise-joining.ts';
import { body, ok, text, SIGNED_IN } from '../schemas.ts';
import { companyDto, invitedCompany } from './responses.ts';

const company = { response: ok(companyDto) };
import enterpriseMemberRoutes from './members.ts';
import enterpriseRegistrationRoutes from './registration.ts';

/**
 * The Company client (§3, §4, §6): the caller's company state, joining, invitations and switching
 * here; real-name authentication and company creation in registration.ts; member management in
 * members.ts. Routes parse and authorize; services/enterprise-*.ts decide and write.
 */
export default async function enterpriseRoutes(app: FastifyInstance) {
  const { db, config } = app;

  await enterpriseRegistrationRoutes(app);

  // §7 v1 GET /enterprises: the Company client state (§3).
  app.get('/api/v1/enterprises', { schema: company }, async (request) => {
    const user = await app.requireUser(request);
    return { data: await companyState(db, user) };
  });

  // §7 v1 GET /enterprises/join-list: joined companies (locked ones marked).
  app.get('/api/v1/enterprises/join-list', { schema: { response: ok({ type: 'object', properties: { enterprises: companyDto.properties.companies } }) } }, async (request) => {
    const user = await app.requireUser(request);
    return { data: { enterprises: (await companyState(db, user)).companies } };
  });

  // §7 v1 PUT /users/switch-enterprise: the displayed company; locked ones cannot be chosen.
  app.put<{ Body: { enterprise_id: number } }>(
    '/api/v1/users/switch-enterprise',
    { config: SIGNED_IN, schema: { body: body({ enterprise_id: { type: 'integer', minimum: 1 } }, ['enterprise_id']), ...company } },
    async (request) => {
      const user = await app.requireUser(request);
      return { data: await switchEnterprise(db, user.id, request.body.enterprise_id) };
    },
  );

  // §7 v1 POST /enterprises/employees (name): join by company name.
  app.post<{ Body: { name: string } }>('/api/v1/enterprises/employees', { config: SIGNED_IN, schema: { body: body({ name: text(200) }, ['name']), ...company } }, async (request) => {
    const user = await app.requireUser(request);
    return { data: await joinByName(db, config, user, request.body.name) };
  });

  // §7 v2 POST /enterprises/employees (invitation_code): join by 8-character invitation code.
  app.post<{ Body: { invitation_code: string } }>(
    '/api/v2/enterprises/employees',
    { config: SIGNED_IN, schema: { body: body({ invitation_code: text(32) }, ['invitation_code']), ...company } },
    async (request) => {
      const user = await app.requireUser(request);
      return { data: await joinByCode(db, config, user, request.body.invitation_code) };
    },
  );

  // §7 v2 GET /users/invitation/enterprise: the pending invitation (or null).
  app.get('/api/v2/users/invitation/enterprise', { schema: { response: ok(invitedCompany) } }, async (request) => {
    const user = await app.requireUser(request);
    return { data: (await companyState(db, user)).invited_company };
  });

  // §7 v2 PUT /users/invitation/{id} (status): 2 accept, 3 refuse.
  app.put<{ Params: { id: number }; Body: { status: number } }>(
    '/api/v2/users/invitation/:id',
    { config: SIGNED_IN,
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        body: body({ status: { type: 'integer', enum: [INVITATION_STATUS.accepted, INVITATION_STATUS.refused] } }, ['status']),
        ...company,
      },
    },
    async (request) => {
      const user = await app.requireUser(request);
      return { data: await answerInvitation(db, config, user, request.params.id, request.body.status) };
    },
  );

  await enterpriseMemberRoutes(app);
}
