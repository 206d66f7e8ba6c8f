import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CREDIT_KINDS,
  ORDER_NOTE_MAX,
  ORDER_REASON_MAX,
  ORDER_STATUS,
  checkCreditAmount,
  type AllocationDirection,
  type AllocationResultDto,
  type CreditKind,
  type CreditMemberDto,
} from '../../../core/credits.ts';
import { EMPLOYEE_STATUS, canSeeEnterpriseData, isAdminRole } from '../../../core/enterprise.ts';
import { fail } from '../../errors.ts';
import { forbidden } from '../../plugins/enterprises.ts';
import { requireOperator as requireOperatorOf, writeOperatorAudit } from '../../services/operators.ts';
import {
  balancesOf,
  cancelOrder,
  createOrder,
  creditSummary,
  decideOrder,
  displayName,
  listMovements,
  listOperatorOrders,
  listOrders,
  orderOf,
  transferCredits,
  type MovementFilter,
} from '../../services/credits.ts';
import { body, idParam, ok, pageOf, paging, SIGNED_IN } from '../schemas.ts';
import { allocationResult, creditOrder, creditSummary as creditSummarySchema, memberPage, movementPage, newCreditOrder, operatorOrderPage, orderPage } from './responses.ts';
import type { Paged } from '../../../core/api-types.ts';

const time = { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000 } as const;
// Amounts are checked by checkCreditAmount (one rule and one message for every way of getting them wrong).
const amount = { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'number' }] } as const;

function checkAmount(value: unknown): number {
  const key = checkCreditAmount(value);
  if (key) fail(key, 'amount');
  return Number(value);
}

/**
 * Credits (§3 available and consumed, §8 integrals not enough, §9 costs): balance
 * summary, usage history, top-up orders and member top-up. §6: a member sees their own
 * account and movements; the confidentiality officer and administrators see the
 * enterprise's; only administrators (roles 1, 2) order top-ups and move credits.
 * Operators confirm or reject orders in the console (/api/v1/operator/credit-orders).
 */
export default async function creditRoutes(app: FastifyInstance) {
  const { db, config } = app;


  /** GET /credits/summary: §3 available and consumed credits, prices; the pool and totals for §6 viewers. */
  app.get('/api/v1/credits/summary', { schema: { response: ok(creditSummarySchema) } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    const data = await creditSummary(db, config, {
      enterpriseId: m.enterprise.id,
      userId: m.user.id,
      seesEnterprise: canSeeEnterpriseData(m.employee.role),
      isAdmin: isAdminRole(m.employee.role),
    });
    return { data };
  });

  /** GET /credits/movements: the usage history, newest first; kind (repeatable), from/to (ms), member (user_id) or account. */
  app.get<{ Querystring: { kind?: CreditKind[]; from?: number; to?: number; user_id?: number; account?: 'pool' | 'member'; page?: number; page_size?: number } }>(
    '/api/v1/credits/movements',
    { config: SIGNED_IN,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            ...paging,
            kind: { type: 'array', items: { type: 'string', enum: [...CREDIT_KINDS] }, maxItems: CREDIT_KINDS.length },
            from: time,
            to: time,
            user_id: { type: 'integer', minimum: 1 },
            account: { type: 'string', enum: ['pool', 'member'] },
          },
        },
        response: ok(movementPage),
      },
    },
    async (request) => {
      const m = await app.requireMember(request, 'member');
      const q = request.query;
      const filter: MovementFilter = { kinds: q.kind, from: q.from, to: q.to, userId: q.user_id, account: q.account };
      if (!canSeeEnterpriseData(m.employee.role)) {
        // §6: a plain member sees only their own account.
        if ((q.user_id !== undefined && q.user_id !== m.user.id) || q.account === 'pool') forbidden();
        filter.userId = m.user.id;
      }
      if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) fail('invalid_param', 'to');
      return { data: await listMovements(db, m.enterprise.id, filter, pageOf(q, config.tablePageSize)) };
    },
  );

  /** GET /credits/members: the members of the enterprise with their balances (for member top-up). */
  app.get<{ Querystring: { keyword?: string; page?: number; page_size?: number } }>(
    '/api/v1/credits/members',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, keyword: { type: 'string', maxLength: 60 } } }, response: ok(memberPage) } },
    async (request) => {
      const m = await app.requireMember(request, 'viewer');
      const { page, size } = pageOf(request.query, config.tablePageSize);
      const keyword = (request.query.keyword ?? '').trim();
      let q = db
        .selectFrom('employees')
        .innerJoin('users', 'users.id', 'employees.user_id')
        .where('employees.enterprise_id', '=', m.enterprise.id)
        .where('employees.status', 'in', [EMPLOYEE_STATUS.confirmed, EMPLOYEE_STATUS.frozen]);
      if (keyword) {
        const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) => eb.or([eb('users.name', 'like', like), eb('users.real_name', 'like', like), eb('users.phonenumber', 'like', like)]));
      }
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['employees.id', 'employees.user_id', 'users.name', 'users.real_name', 'users.phonenumber', 'employees.role', 'employees.status'])
        .orderBy('employees.id')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      const balances = await balancesOf(db, m.enterprise.id, rows.map((r) => Number(r.user_id)));
      const items: CreditMemberDto[] = rows.map((r) => ({
        employee_id: Number(r.id),
        user_id: Number(r.user_id),
        name: displayName({ real_name: r.real_name, name: r.name, phonenumber: r.phonenumber }),
        phone: r.phonenumber,
        role: r.role,
        status: r.status,
        ...balances.get(Number(r.user_id))!,
      }));
      const data: Paged<CreditMemberDto> = { items, page, page_size: size, total: Number(total.n) };
      return { data };
    },
  );

  /** POST /credits/allocations: an administrator allocates pool credits to a member, or takes them back. */
  app.post<{ Body: { employee_id: number; amount: unknown; direction?: AllocationDirection } }>(
    '/api/v1/credits/allocations',
    { config: SIGNED_IN, schema: { body: body({ employee_id: { type: 'integer', minimum: 1 }, amount, direction: { type: 'string', enum: ['allocate', 'reclaim'] } }, ['employee_id', 'amount']), response: ok(allocationResult) } },
    async (request) => {
      const m = await app.requireMember(request, 'admin');
      const value = checkAmount(request.body.amount);
      const direction = request.body.direction ?? 'allocate';
      const target = await db.selectFrom('employees').select(['id', 'user_id', 'status']).where('id', '=', request.body.employee_id).where('enterprise_id', '=', m.enterprise.id).executeTakeFirst();
      // A frozen member's credits may be taken back, but nothing is given to them.
      const isEligible = target && (target.status === EMPLOYEE_STATUS.confirmed || (direction === 'reclaim' && target.status === EMPLOYEE_STATUS.frozen));
      if (!target || !isEligible) fail('not_found', 'employee_id');
      const result = await transferCredits(db, { enterpriseId: m.enterprise.id, actorUserId: m.user.id, memberUserId: Number(target.user_id), amount: value, direction });
      const data: AllocationResultDto = { pool_available: result.poolAvailable, member_available: result.memberAvailable, employee_id: Number(target.id) };
      return { data };
    },
  );

  // ---- top-up orders ----------------------------------------------------------------------

  app.get<{ Querystring: { status?: number; page?: number; page_size?: number } }>(
    '/api/v1/credits/orders',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, status: { type: 'integer', minimum: 1, maximum: 4 } } }, response: ok(orderPage) } },
    async (request) => {
      const m = await app.requireMember(request, 'viewer');
      return { data: await listOrders(db, m.enterprise.id, { status: request.query.status, ...pageOf(request.query, config.tablePageSize) }) };
    },
  );

  /** POST /credits/orders: a pending top-up of the pool, paid through the payment provider (what to quote in `payment`). */
  app.post<{ Body: { amount: unknown; note?: string } }>(
    '/api/v1/credits/orders',
    { config: SIGNED_IN, schema: { body: body({ amount, note: { type: 'string', maxLength: 2000 } }, ['amount']), response: ok(newCreditOrder) } },
    async (request) => {
      const m = await app.requireMember(request, 'admin');
      const value = checkAmount(request.body.amount);
      const note = (request.body.note ?? '').trim();
      if (Array.from(note).length > ORDER_NOTE_MAX) fail('lt', 'note');
      const { orderId, payment } = await createOrder(db, app.payments, { enterpriseId: m.enterprise.id, userId: m.user.id, amount: value, note });
      return { data: { ...(await orderOf(db, orderId)), payment } };
    },
  );

  /** PUT /credits/orders/:orderId { status: 4 }: an administrator cancels a pending order. */
  app.put<{ Params: { orderId: number }; Body: { status: number } }>(
    '/api/v1/credits/orders/:orderId',
    { config: SIGNED_IN, schema: { params: idParam('orderId'), body: body({ status: { type: 'integer', enum: [ORDER_STATUS.cancelled] } }, ['status']), response: ok(creditOrder) } },
    async (request) => {
      const m = await app.requireMember(request, 'admin');
      await cancelOrder(db, { enterpriseId: m.enterprise.id, orderId: request.params.orderId, userId: m.user.id });
      return { data: await orderOf(db, request.params.orderId) };
    },
  );

  // ---- the operator console ---------------------------------------------------------------

  const requireOperator = (request: FastifyRequest) => requireOperatorOf(db, request);

  app.get<{ Querystring: { status?: number; page?: number; page_size?: number } }>(
    '/api/v1/operator/credit-orders',
    { schema: { querystring: { type: 'object', properties: { ...paging, status: { type: 'integer', minimum: 1, maximum: 4 } } }, response: ok(operatorOrderPage) } },
    async (request) => {
      await requireOperator(request);
      return { data: await listOperatorOrders(db, { status: request.query.status, page: request.query.page ?? 1, size: request.query.page_size ?? 50 }) };
    },
  );

  /**
   * PUT /operator/credit-orders/:id: 2 confirms (the transfer arrived; the pool is credited
   * exactly once, a repeated confirmation changes nothing), 3 rejects with a reason.
   */
  app.put<{ Params: { id: number }; Body: { status: number; reason?: string } }>(
    '/api/v1/operator/credit-orders/:id',
    {
      schema: {
        params: idParam('id'),
        body: body({ status: { type: 'integer', enum: [ORDER_STATUS.confirmed, ORDER_STATUS.rejected] }, reason: { type: 'string', maxLength: 2000 } }, ['status']),
        response: ok(creditOrder),
      },
    },
    async (request) => {
      const op = await requireOperator(request);
      const status = request.body.status as typeof ORDER_STATUS.confirmed | typeof ORDER_STATUS.rejected;
      const reason = (request.body.reason ?? '').trim();
      if (status === ORDER_STATUS.rejected && !reason) fail('required', 'reason');
      if (Array.from(reason).length > ORDER_REASON_MAX) fail('lt', 'reason');
      const order = await db.selectFrom('credit_orders').select('provider').where('id', '=', request.params.id).executeTakeFirst();
      if (!order) fail('not_found', 'id');
      // Only orders whose provider is confirmed by hand are decided here.
      if (order.provider !== app.payments.name || app.payments.confirmation !== 'operator') fail('invalid_param', 'id');
      await decideOrder(db, { orderId: request.params.id, status, reason: status === ORDER_STATUS.rejected ? reason : '', operatorId: op.id });
      const decided = await orderOf(db, request.params.id);
      await writeOperatorAudit(db, {
        operatorId: op.id,
        loginId: op.login_id,
        action: status === ORDER_STATUS.confirmed ? 'credit_order_confirmed' : 'credit_order_rejected',
        target: `credit_order:${request.params.id}`,
        detail: reason && status === ORDER_STATUS.rejected ? { reason } : {},
        ip: request.ip,
      });
      return { data: decided };
    },
  );
}
