import type { FastifyInstance } from 'fastify';
import { ROLES } from '../../../core/constants.ts';
import { ROLE_VALUES } from '../../../core/enterprise.ts';
import { fail } from '../../errors.ts';
import { forbidden } from '../../plugins/enterprises.ts';
import {
  addMember,
  addMembers,
  changeEmployeeStatus,
  changeMemberRole,
  enterpriseFiles,
  listEmployees,
  memberNames,
  regenerateInvitationCode,
  sentInvitations,
  type BulkMemberRow,
} from '../../services/enterprise-members.ts';
import { body, num, obj, ok, pageNumber, str, text, SIGNED_IN } from '../schemas.ts';
import { addMemberResult, bulkResult, employeePage, enterpriseFilePage, invitations, memberNames as memberNamesSchema } from './responses.ts';

const ADD_MEMBER_BATCH_MAX = 500;
const memberFields = { name: text(60), password: text(128), role: { type: 'integer' }, phone: text(32) };

/** An enterprise's members as its administrators see them (§6): list, approve, freeze, roles, adding, invitations, files. */
export default async function enterpriseMemberRoutes(app: FastifyInstance) {
  const { db, config } = app;

  // §7 v1 GET /enterprises/employees: members with search and paging (§6: administrators and the confidentiality officer).
  app.get<{ Querystring: { keyword?: string; status?: number; page?: number; page_size?: number } }>(
    '/api/v1/enterprises/employees',
    { config: SIGNED_IN,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            keyword: text(60),
            status: { type: 'integer', minimum: 1, maximum: 4 },
            page: { ...pageNumber, default: 1 },
            page_size: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
          },
        },
        response: ok(employeePage),
      },
    },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'viewer');
      const q = request.query;
      return { data: await listEmployees(db, enterprise.id, { keyword: (q.keyword ?? '').trim(), status: q.status, page: q.page ?? 1, pageSize: q.page_size ?? 10 }) };
    },
  );

  // §7 v1 PUT /enterprises/employees (employee_id, status): approve 2→1, decline 2→3, freeze 1→4, unfreeze 4→1.
  app.put<{ Body: { employee_id: number; status: number } }>(
    '/api/v1/enterprises/employees',
    { config: SIGNED_IN, schema: { body: body({ employee_id: { type: 'integer' }, status: { type: 'integer', enum: [1, 3, 4] } }, ['employee_id', 'status']), response: ok(obj({ employee_id: num, status: num })) } },
    async (request) => {
      const ctx = await app.requireMember(request, 'admin');
      return { data: await changeEmployeeStatus(db, ctx, request.body.employee_id, request.body.status) };
    },
  );

  // §7 v2 PUT /users/members/{id} (role): change a member's role; only a super administrator grants role 1.
  app.put<{ Params: { id: number }; Body: { role: number } }>(
    '/api/v2/users/members/:id',
    { config: SIGNED_IN,
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        body: body({ role: { type: 'integer', enum: [...ROLE_VALUES] } }, ['role']),
        response: ok(obj({ employee_id: num, role: num })),
      },
    },
    async (request) => {
      const ctx = await app.requireMember(request, 'admin');
      return { data: await changeMemberRole(db, ctx, request.params.id, request.body.role) };
    },
  );

  // §7 v2 POST /users/members (name, password, role, phone): add one member (§9: the browser waits 10 s).
  app.post<{ Body: { name: string; password?: string; role?: number; phone: string } }>(
    '/api/v2/users/members',
    { config: SIGNED_IN, schema: { body: body(memberFields, ['name', 'phone']), response: ok(addMemberResult) } },
    async (request) => {
      if (!config.allowAddMember) forbidden();
      const ctx = await app.requireMember(request, 'admin');
      return { data: await addMember(db, config, ctx, { phone: request.body.phone, name: request.body.name, role: request.body.role ?? ROLES.member, password: request.body.password ?? '' }) };
    },
  );

  // §7 v2 POST /users/invitation/members (members): add in bulk, one result per row.
  app.post<{ Body: { members: BulkMemberRow[] } }>(
    '/api/v2/users/invitation/members',
    { config: SIGNED_IN,
      schema: {
        body: body({ members: { type: 'array', minItems: 1, maxItems: ADD_MEMBER_BATCH_MAX, items: { type: 'object', properties: memberFields, additionalProperties: false } } }, ['members']),
        response: ok(bulkResult),
      },
    },
    async (request) => {
      if (!config.allowAddMember) forbidden();
      const ctx = await app.requireMember(request, 'admin');
      return { data: await addMembers(db, config, ctx, request.body.members) };
    },
  );

  // §7 v1 GET /enterprises/employees/names?user_ids=: names of members of the displayed company (others are left out).
  app.get<{ Querystring: { user_ids?: number | number[] } }>(
    '/api/v1/enterprises/employees/names',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { user_ids: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'array', maxItems: 200, items: { type: 'integer', minimum: 1 } }] } }, required: ['user_ids'], additionalProperties: false }, response: ok(memberNamesSchema) } },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'member');
      const raw = request.query.user_ids;
      const ids = [...new Set(Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])];
      if (ids.length === 0) fail('required', 'user_ids');
      return { data: await memberNames(db, enterprise.id, ids) };
    },
  );

  // §7 v1 GET /enterprises/employees/files?page_id&page_size: the enterprise's application files (licence, form, certificate), newest first.
  app.get<{ Querystring: { page_id?: number; page_size?: number } }>(
    '/api/v1/enterprises/employees/files',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { page_id: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 100 } }, additionalProperties: false }, response: ok(enterpriseFilePage) } },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'viewer');
      return { data: await enterpriseFiles(db, enterprise, request.query.page_id ?? 1, request.query.page_size ?? 10) };
    },
  );

  // §7 v2 GET /enterprises/invitations: invitations this enterprise has sent.
  app.get('/api/v2/enterprises/invitations', { schema: { response: ok(invitations) } }, async (request) => {
    const { enterprise } = await app.requireMember(request, 'admin');
    return { data: await sentInvitations(db, enterprise.id) };
  });

  // Regenerate the invitation code (the old one stops working).
  app.put('/api/v1/enterprises/invitation-code', { schema: { response: ok(obj({ invitation_code: str })) } }, async (request) => {
    const { enterprise } = await app.requireMember(request, 'admin');
    return { data: { invitation_code: await regenerateInvitationCode(db, enterprise.id) } };
  });
}
