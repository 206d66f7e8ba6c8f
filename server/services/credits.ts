import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import { isUniqueViolation } from '../db/database.ts';
import { insertRows } from '../db/bulk-insert.ts';
import { ApiError, fail } from '../errors.ts';
import {
  CONSUMING_KINDS,
  ORDER_STATUS,
  PENDING_ORDERS_MAX,
  REGISTRATION_CREDIT_KIND,
  registrationPrice,
  type AllocationDirection,
  type CreditKind,
  type CreditMovementDto,
  type CreditOrderDto,
  type CreditSummaryDto,
  type OperatorCreditOrderDto,
  type RegistrationKind,
} from '../../core/credits.ts';
import { EMPLOYEE_STATUS, INVITATION_ALPHABET } from '../../core/enterprise.ts';
import type { PaymentInstructions, PaymentProvider } from './payments.ts';
import type { Paged } from '../../core/api-types.ts';

/**
 * The credits ledger. Balances live in credit_accounts (one pool per enterprise,
 * user_id null, and one account per member) and never go below zero: a debit is a
 * conditional UPDATE … WHERE balance >= amount (and a CHECK constraint backs it), so two
 * concurrent spends cannot both take the last credits, on SQLite or PostgreSQL. Every
 * change of a balance writes one credit_movements row in the same transaction, carrying the
 * balance after it: the movements of an account always sum to its balance.
 *
 * Lock order, for PostgreSQL: an order row, then the pool, then a member's account.
 */

type Executor = Kysely<Database>;

/** Who sees a name: the real name, else the chosen name, else the phone. */
export function displayName(u: { real_name?: string | null; name?: string | null; phonenumber?: string | null }): string {
  return u.real_name || u.name || u.phonenumber || '';
}

async function findAccount(trx: Executor, enterpriseId: number, userId: number | null) {
  let q = trx.selectFrom('credit_accounts').select(['id', 'balance']).where('enterprise_id', '=', enterpriseId);
  q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
  return q.executeTakeFirst();
}

/** The account of a member (`userId`) or the enterprise's pool (null), created empty on first use. */
export async function ensureAccount(trx: Executor, enterpriseId: number, userId: number | null): Promise<number> {
  const existing = await findAccount(trx, enterpriseId, userId);
  if (existing) return Number(existing.id);
  const now = Date.now();
  // A concurrent first use inserts the same row: the unique indexes make one of them a no-op.
  await trx
    .insertInto('credit_accounts')
    .values({ enterprise_id: enterpriseId, user_id: userId, balance: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await findAccount(trx, enterpriseId, userId);
  if (!row) throw new Error(`credit account of enterprise ${enterpriseId} / user ${userId} could not be created`);
  return Number(row.id);
}

type Movement = {
  accountId: number;
  enterpriseId: number;
  userId: number | null;
  delta: number;
  kind: CreditKind;
  reference?: string | null;
  detail?: string;
  counterpartAccountId?: number | null;
  actorUserId?: number | null;
  actorOperatorId?: number | null;
};

/**
 * Changes one balance by `delta` and writes its movement, in the caller's transaction.
 * A debit that would take the balance below zero changes nothing and returns null.
 */
async function move(trx: Executor, m: Movement): Promise<{ movementId: number; balanceAfter: number } | null> {
  if (!Number.isSafeInteger(m.delta) || m.delta === 0) throw new Error(`credit movement needs a non-zero whole delta, got ${m.delta}`);
  const now = Date.now();
  let update = trx
    .updateTable('credit_accounts')
    .set((eb) => ({ balance: eb('balance', '+', m.delta), updated_at: now }))
    .where('id', '=', m.accountId);
  if (m.delta < 0) update = update.where('balance', '>=', -m.delta);
  const row = await update.returning('balance').executeTakeFirst();
  if (!row) return null;
  const balanceAfter = Number(row.balance);
  const inserted = await trx
    .insertInto('credit_movements')
    .values({
      account_id: m.accountId,
      enterprise_id: m.enterpriseId,
      user_id: m.userId,
      kind: m.kind,
      delta: m.delta,
      balance_after: balanceAfter,
      reference: m.reference ?? null,
      detail: m.detail ?? '',
      counterpart_account_id: m.counterpartAccountId ?? null,
      actor_user_id: m.actorUserId ?? null,
      actor_operator_id: m.actorOperatorId ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { movementId: Number(inserted.id), balanceAfter };
}

/**
 * Charges a registration to the registering member's own account, in the registration's
 * own transaction (call it from `app.registerEntry(…, async (trx, registration) => …)`).
 * The price comes from the deployment configuration (§9 `credits.assetRegistration`,
 * `credits.vaultFile`); with `integralRequired` off, registrations are free and no movement
 * is written. A member without enough credits gets §8 integrals_not_enough (thrown, so the
 * whole registration rolls back: nothing is written and nothing is charged). The member's
 * membership is read again inside the transaction: one frozen since the route checked it
 * registers nothing (§8 forbidden), whatever the price.
 */
export async function chargeRegistration(
  trx: Kysely<Database>,
  config: DeploymentConfig,
  input: { enterpriseId: number; userId: number; kind: RegistrationKind; dna: string; name: string },
): Promise<{ charged: number }> {
  const membership = await trx
    .selectFrom('employees')
    .select('id')
    .where('enterprise_id', '=', input.enterpriseId)
    .where('user_id', '=', input.userId)
    .where('status', '=', EMPLOYEE_STATUS.confirmed)
    .executeTakeFirst();
  if (!membership) throw new ApiError('forbidden', undefined, 403);
  const price = registrationPrice(config, input.kind);
  if (price <= 0) return { charged: 0 };
  const account = await findAccount(trx, input.enterpriseId, input.userId);
  if (!account) fail('integrals_not_enough');
  const moved = await move(trx, {
    accountId: Number(account.id),
    enterpriseId: input.enterpriseId,
    userId: input.userId,
    delta: -price,
    kind: REGISTRATION_CREDIT_KIND[input.kind],
    reference: input.dna,
    detail: input.name,
    actorUserId: input.userId,
  });
  if (!moved) fail('integrals_not_enough');
  return { charged: price };
}

const MOVEMENT_COLUMNS = ['account_id', 'enterprise_id', 'user_id', 'kind', 'delta', 'balance_after', 'reference', 'detail', 'counterpart_account_id', 'actor_user_id', 'actor_operator_id', 'created_at'] as const;

/**
 * The batch form (a pushed git history): the membership is read once inside the batch's
 * transaction, then each registration is charged its own price (one movement naming its DNA),
 * so N commits cost N × the price; any shortfall rolls the whole batch back. A caller that
 * can register part of the batch passes onShortfall: it is called with the balance (0 without
 * an account) when the balance read here cannot pay for every item, before anything is debited.
 */
export async function chargeRegistrations(
  trx: Kysely<Database>,
  config: DeploymentConfig,
  input: { enterpriseId: number; userId: number; kind: RegistrationKind; items: Array<{ dna: string; name: string }>; onShortfall?: (balance: number) => never },
): Promise<{ chargedEach: number }> {
  await requireConfirmedMembership(trx, input.enterpriseId, input.userId);
  const price = registrationPrice(config, input.kind);
  if (price <= 0 || input.items.length === 0) return { chargedEach: 0 };
  const account = await findAccount(trx, input.enterpriseId, input.userId);
  const total = price * input.items.length;
  if (input.onShortfall && (!account || Number(account.balance) < total)) input.onShortfall(account ? Number(account.balance) : 0);
  if (!account) fail('integrals_not_enough');
  // One conditional debit of the total and the movements in bulk (the same rows, with the
  // balance after each, as one debit per registration would write): 2 + N/200 statements.
  const now = Date.now();
  const debited = await trx
    .updateTable('credit_accounts')
    .set((eb) => ({ balance: eb('balance', '-', total), updated_at: now }))
    .where('id', '=', account.id)
    .where('balance', '>=', total)
    .returning('balance')
    .executeTakeFirst();
  if (!debited) fail('integrals_not_enough');
  const before = Number(debited.balance) + total;
  const kind = REGISTRATION_CREDIT_KIND[input.kind];
  for (let i = 0; i < input.items.length; i += 200) {
    await insertRows(
      trx,
      'credit_movements',
      MOVEMENT_COLUMNS,
      input.items.slice(i, i + 200).map((item, k) => ({
        account_id: Number(account.id),
        enterprise_id: input.enterpriseId,
        user_id: input.userId,
        kind,
        delta: -price,
        balance_after: before - price * (i + k + 1),
        reference: item.dna,
        detail: item.name,
        counterpart_account_id: null,
        actor_user_id: input.userId,
        actor_operator_id: null,
        created_at: now,
      })),
    );
  }
  return { chargedEach: price };
}

/** What a member can still pay for (their balance, read inside the caller's transaction); null: no account. */
export async function memberBalance(trx: Kysely<Database>, enterpriseId: number, userId: number): Promise<number | null> {
  const account = await findAccount(trx, enterpriseId, userId);
  return account ? Number(account.balance) : null;
}

/** The membership read again inside a registration's transaction: one frozen (or gone) since the route checked it registers nothing (§8 forbidden). */
export async function requireConfirmedMembership(trx: Kysely<Database>, enterpriseId: number, userId: number): Promise<void> {
  const membership = await trx
    .selectFrom('employees')
    .select('id')
    .where('enterprise_id', '=', enterpriseId)
    .where('user_id', '=', userId)
    .where('status', '=', EMPLOYEE_STATUS.confirmed)
    .executeTakeFirst();
  if (!membership) throw new ApiError('forbidden', undefined, 403);
}

/**
 * An administrator moves credits between the pool and a member: `allocate` pool → member,
 * `reclaim` member → pool. Two movements (one per account) in one transaction; the side
 * that gives must have enough (§8 integrals_not_enough on `amount`).
 */
export async function transferCredits(
  db: Executor,
  input: { enterpriseId: number; actorUserId: number; memberUserId: number; amount: number; direction: AllocationDirection },
): Promise<{ poolAvailable: number; memberAvailable: number }> {
  return db.transaction().execute(async (trx) => {
    const poolId = await ensureAccount(trx, input.enterpriseId, null);
    const memberId = await ensureAccount(trx, input.enterpriseId, input.memberUserId);
    const poolDelta = input.direction === 'allocate' ? -input.amount : input.amount;
    const common = { enterpriseId: input.enterpriseId, kind: input.direction, actorUserId: input.actorUserId } as const;
    // Pool first in both directions (the lock order), then the member.
    const pool = await move(trx, { ...common, accountId: poolId, userId: null, delta: poolDelta, counterpartAccountId: memberId });
    if (!pool) fail('integrals_not_enough', 'amount');
    const member = await move(trx, { ...common, accountId: memberId, userId: input.memberUserId, delta: -poolDelta, counterpartAccountId: poolId });
    if (!member) fail('integrals_not_enough', 'amount');
    return { poolAvailable: pool.balanceAfter, memberAvailable: member.balanceAfter };
  });
}

// ---- top-up orders ----------------------------------------------------------------------

function newOrderNo(now: Date): string {
  const day = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}${String(now.getUTCDate()).padStart(2, '0')}`;
  let tail = '';
  for (let i = 0; i < 8; i++) tail += INVITATION_ALPHABET[randomInt(INVITATION_ALPHABET.length)];
  return `TU${day}${tail}`;
}

/** How many top-up orders of the enterprise wait for payment. */
async function pendingOrderCount(db: Executor, enterpriseId: number): Promise<number> {
  const row = await db
    .selectFrom('credit_orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('enterprise_id', '=', enterpriseId)
    .where('status', '=', ORDER_STATUS.pending)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An administrator asks to top up the enterprise's pool: a pending order the provider is asked to collect. */
export async function createOrder(
  db: Executor,
  provider: PaymentProvider,
  input: { enterpriseId: number; userId: number; amount: number; note: string },
): Promise<{ orderId: number; payment: PaymentInstructions }> {
  if ((await pendingOrderCount(db, input.enterpriseId)) >= PENDING_ORDERS_MAX) fail('too_frequent_operation', 'amount');
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    const orderNo = newOrderNo(new Date(now));
    try {
      const row = await db
        .insertInto('credit_orders')
        .values({
          order_no: orderNo,
          enterprise_id: input.enterpriseId,
          amount: input.amount,
          note: input.note,
          provider: provider.name,
          status: ORDER_STATUS.pending,
          reason: '',
          created_by: input.userId,
          cancelled_by: null,
          decided_by_operator: null,
          decided_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const payment = await provider.begin({ order_no: orderNo, amount: input.amount, enterprise_id: input.enterpriseId });
      return { orderId: Number(row.id), payment };
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

/**
 * Confirms (the money arrived: the pool is credited) or rejects (with a reason) a pending
 * order. Exactly once: the order moves out of pending by a conditional UPDATE, and only
 * the caller whose UPDATE did it credits the pool, in the same transaction; a second
 * confirmation (a double click, two operators at once) changes nothing and answers the
 * order as it is. Deciding an order that went the other way is invalid_param on status.
 */
export async function decideOrder(
  db: Executor,
  input: { orderId: number; status: typeof ORDER_STATUS.confirmed | typeof ORDER_STATUS.rejected; reason: string; operatorId: number | null },
): Promise<{ isChanged: boolean }> {
  return db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom('credit_orders').selectAll().where('id', '=', input.orderId).executeTakeFirst();
    if (!order) fail('not_found', 'id');
    const now = Date.now();
    const updated = await trx
      .updateTable('credit_orders')
      .set({ status: input.status, reason: input.reason, decided_at: now, decided_by_operator: input.operatorId, updated_at: now })
      .where('id', '=', order.id)
      .where('status', '=', ORDER_STATUS.pending)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const current = await trx.selectFrom('credit_orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow();
      if (current.status === input.status) return { isChanged: false };
      fail('invalid_param', 'status');
    }
    if (input.status === ORDER_STATUS.confirmed) {
      const poolId = await ensureAccount(trx, order.enterprise_id, null);
      await move(trx, {
        accountId: poolId,
        enterpriseId: order.enterprise_id,
        userId: null,
        delta: Number(order.amount),
        kind: 'top_up',
        reference: order.order_no,
        detail: order.note,
        actorOperatorId: input.operatorId,
      });
    }
    return { isChanged: true };
  });
}

/** An administrator withdraws a pending order of their enterprise (cancelling twice is harmless). */
export async function cancelOrder(db: Executor, input: { enterpriseId: number; orderId: number; userId: number }): Promise<void> {
  const now = Date.now();
  const updated = await db
    .updateTable('credit_orders')
    .set({ status: ORDER_STATUS.cancelled, cancelled_by: input.userId, updated_at: now })
    .where('id', '=', input.orderId)
    .where('enterprise_id', '=', input.enterpriseId)
    .where('status', '=', ORDER_STATUS.pending)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  const order = await db.selectFrom('credit_orders').select('status').where('id', '=', input.orderId).where('enterprise_id', '=', input.enterpriseId).executeTakeFirst();
  if (!order) fail('not_found', 'order_id');
  if (order.status !== ORDER_STATUS.cancelled) fail('invalid_param', 'status');
}

function orderQuery(db: Executor) {
  return db
    .selectFrom('credit_orders as o')
    .innerJoin('users as u', 'u.id', 'o.created_by')
    .innerJoin('enterprises as e', 'e.id', 'o.enterprise_id')
    .select([
      'o.id',
      'o.order_no',
      'o.enterprise_id',
      'e.name as enterprise_name',
      'o.amount',
      'o.note',
      'o.status',
      'o.provider',
      'o.reason',
      'o.created_at',
      'o.decided_at',
      'u.name as user_name',
      'u.real_name',
      'u.phonenumber',
    ]);
}
type OrderRow = Awaited<ReturnType<ReturnType<typeof orderQuery>['execute']>>[number];

function orderDto(r: OrderRow): CreditOrderDto {
  return {
    order_id: Number(r.id),
    order_no: r.order_no,
    amount: Number(r.amount),
    note: r.note,
    status: Number(r.status) as CreditOrderDto['status'],
    provider: r.provider,
    created_by_name: displayName({ real_name: r.real_name, name: r.user_name, phonenumber: r.phonenumber }),
    created_at: Number(r.created_at),
    decided_at: r.decided_at === null ? null : Number(r.decided_at),
    reason: r.reason,
  };
}

export async function orderOf(db: Executor, orderId: number): Promise<CreditOrderDto> {
  return orderDto(await orderQuery(db).where('o.id', '=', orderId).executeTakeFirstOrThrow());
}

/** An enterprise's orders, newest first. */
export async function listOrders(db: Executor, enterpriseId: number, filter: { status?: number; page: number; size: number }): Promise<Paged<CreditOrderDto>> {
  let q = orderQuery(db).where('o.enterprise_id', '=', enterpriseId);
  if (filter.status) q = q.where('o.status', '=', filter.status);
  const total = await q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.orderBy('o.id', 'desc').limit(filter.size).offset((filter.page - 1) * filter.size).execute();
  return { items: rows.map(orderDto), page: filter.page, page_size: filter.size, total: Number(total.n) };
}

/** Orders for the operator console: pending ones oldest first (the queue), decided ones newest first. */
export async function listOperatorOrders(db: Executor, filter: { status?: number; page: number; size: number }): Promise<Paged<OperatorCreditOrderDto>> {
  let q = orderQuery(db);
  if (filter.status) q = q.where('o.status', '=', filter.status);
  const total = await q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('o.id', filter.status === ORDER_STATUS.pending ? 'asc' : 'desc')
    .limit(filter.size)
    .offset((filter.page - 1) * filter.size)
    .execute();
  const items = rows.map((r) => ({ ...orderDto(r), enterprise_id: Number(r.enterprise_id), enterprise_name: r.enterprise_name, created_by_phone: r.phonenumber }));
  return { items, page: filter.page, page_size: filter.size, total: Number(total.n) };
}

// ---- balances and the usage history -----------------------------------------------------

/** §3 integrals: a member's available credits in an enterprise (0 before their first allocation). */
export async function memberAvailable(db: Executor, enterpriseId: number, userId: number): Promise<number> {
  return Number((await findAccount(db, enterpriseId, userId))?.balance ?? 0);
}

async function consumedBy(db: Executor, enterpriseId: number, userId?: number): Promise<number> {
  let q = db
    .selectFrom('credit_movements')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), sql<number>`0`).as('s'))
    .where('enterprise_id', '=', enterpriseId)
    .where('kind', 'in', CONSUMING_KINDS);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return -Number((await q.executeTakeFirstOrThrow()).s);
}

/** §3 credit display: the caller's available and consumed credits; for §6 viewers the enterprise's too. */
export async function creditSummary(
  db: Executor,
  config: DeploymentConfig,
  input: { enterpriseId: number; userId: number; seesEnterprise: boolean; isAdmin: boolean },
): Promise<CreditSummaryDto> {
  const summary: CreditSummaryDto = {
    available: await memberAvailable(db, input.enterpriseId, input.userId),
    consumed: await consumedBy(db, input.enterpriseId, input.userId),
    integral_required: config.integralRequired,
    prices: { asset: registrationPrice(config, 'asset'), vault_file: registrationPrice(config, 'vault_file') },
    is_admin: input.isAdmin,
    enterprise: null,
  };
  if (!input.seesEnterprise) return summary;
  const pool = await findAccount(db, input.enterpriseId, null);
  const members = await db
    .selectFrom('credit_accounts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('balance'), sql<number>`0`).as('s'))
    .where('enterprise_id', '=', input.enterpriseId)
    .where('user_id', 'is not', null)
    .executeTakeFirstOrThrow();
  const toppedUp = await db
    .selectFrom('credit_movements')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), sql<number>`0`).as('s'))
    .where('enterprise_id', '=', input.enterpriseId)
    .where('kind', '=', 'top_up')
    .executeTakeFirstOrThrow();
  const pending = await pendingOrderCount(db, input.enterpriseId);
  summary.enterprise = {
    pool_available: Number(pool?.balance ?? 0),
    members_available: Number(members.s),
    consumed: await consumedBy(db, input.enterpriseId),
    topped_up: Number(toppedUp.s),
    pending_orders: pending,
  };
  return summary;
}

export type MovementFilter = {
  kinds?: CreditKind[];
  /** Inclusive, ms. */
  from?: number;
  /** Exclusive, ms. */
  to?: number;
  /** Only this member's account. */
  userId?: number;
  /** Only the pool, or only members' accounts. */
  account?: 'pool' | 'member';
};

/** The usage history of an enterprise, newest first, filtered and paged. */
export async function listMovements(db: Executor, enterpriseId: number, filter: MovementFilter, paging: { page: number; size: number }): Promise<Paged<CreditMovementDto>> {
  let q = db
    .selectFrom('credit_movements as m')
    .leftJoin('users as owner', 'owner.id', 'm.user_id')
    .leftJoin('credit_accounts as cpa', 'cpa.id', 'm.counterpart_account_id')
    .leftJoin('users as cp', 'cp.id', 'cpa.user_id')
    .leftJoin('users as actor', 'actor.id', 'm.actor_user_id')
    .where('m.enterprise_id', '=', enterpriseId);
  if (filter.kinds?.length) q = q.where('m.kind', 'in', filter.kinds);
  if (filter.from !== undefined) q = q.where('m.created_at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('m.created_at', '<', filter.to);
  if (filter.userId !== undefined) q = q.where('m.user_id', '=', filter.userId);
  if (filter.account === 'pool') q = q.where('m.user_id', 'is', null);
  if (filter.account === 'member') q = q.where('m.user_id', 'is not', null);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select([
      'm.id',
      'm.user_id',
      'm.kind',
      'm.delta',
      'm.balance_after',
      'm.reference',
      'm.detail',
      'm.created_at',
      'owner.name as owner_name',
      'owner.real_name as owner_real_name',
      'owner.phonenumber as owner_phone',
      'cpa.user_id as cp_user_id',
      'cp.name as cp_name',
      'cp.real_name as cp_real_name',
      'cp.phonenumber as cp_phone',
      'actor.name as actor_name',
      'actor.real_name as actor_real_name',
      'actor.phonenumber as actor_phone',
    ])
    .orderBy('m.id', 'desc')
    .limit(paging.size)
    .offset((paging.page - 1) * paging.size)
    .execute();
  const items: CreditMovementDto[] = rows.map((r) => ({
    movement_id: Number(r.id),
    account: r.user_id === null ? 'pool' : 'member',
    user_id: r.user_id === null ? null : Number(r.user_id),
    user_name: r.user_id === null ? '' : displayName({ real_name: r.owner_real_name, name: r.owner_name, phonenumber: r.owner_phone }),
    kind: r.kind as CreditKind,
    delta: Number(r.delta),
    balance_after: Number(r.balance_after),
    reference: r.reference,
    detail: r.detail,
    counterpart_user_id: r.cp_user_id === null || r.cp_user_id === undefined ? null : Number(r.cp_user_id),
    counterpart_name: r.cp_user_id ? displayName({ real_name: r.cp_real_name, name: r.cp_name, phonenumber: r.cp_phone }) : '',
    actor_name: displayName({ real_name: r.actor_real_name, name: r.actor_name, phonenumber: r.actor_phone }),
    created_at: Number(r.created_at),
  }));
  return { items, page: paging.page, page_size: paging.size, total: Number(total.n) };
}

/** Members' balances (consumed from the ledger) for the given users of an enterprise. */
export async function balancesOf(db: Executor, enterpriseId: number, userIds: number[]): Promise<Map<number, { available: number; consumed: number }>> {
  const out = new Map<number, { available: number; consumed: number }>();
  if (!userIds.length) return out;
  const accounts = await db.selectFrom('credit_accounts').select(['user_id', 'balance']).where('enterprise_id', '=', enterpriseId).where('user_id', 'in', userIds).execute();
  const consumed = await db
    .selectFrom('credit_movements')
    .select(['user_id', (eb) => eb.fn.sum<number>('delta').as('s')])
    .where('enterprise_id', '=', enterpriseId)
    .where('user_id', 'in', userIds)
    .where('kind', 'in', CONSUMING_KINDS)
    .groupBy('user_id')
    .execute();
  for (const id of userIds) out.set(id, { available: 0, consumed: 0 });
  for (const a of accounts) out.get(Number(a.user_id))!.available = Number(a.balance);
  for (const c of consumed) out.get(Number(c.user_id))!.consumed = -Number(c.s);
  return out;
}
