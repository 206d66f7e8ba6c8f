import { ROLES } from '../../core/constants.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import { EMPLOYEE_STATUS, INVITATION_STATUS, ROLE_VALUES } from '../../core/enterprise.ts';
import { checkName, checkNewPassword, checkPhone } from '../../core/validation.ts';
import type { AddMemberResult, BulkRowResult, EmployeeDto, InvitationDto } from '../../core/api-types.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import { forbidden, type MemberContext } from '../plugins/enterprises.ts';
import { hashPassword } from './passwords.ts';
import { isLockedOut, recordMemberEvent, uniqueInvitationCode, type EnterpriseRow } from './enterprises.ts';
import { findUserByPhone, pickIconColor } from './users.ts';

/**
 * Managing an enterprise's members (§6): the member list, approving, freezing and role changes,
 * adding members one by one or in bulk, the names of members, the enterprise's application files
 * and the invitations it sent. The routes check who may ask; these functions decide and write.
 */

function rule(key: ErrorKey | null, field: string): void {
  if (key) fail(key, field);
}

export type EmployeeListQuery = { keyword: string; status?: number; page: number; pageSize: number };

export async function listEmployees(db: Db, enterpriseId: number, q: EmployeeListQuery) {
  let query = db.selectFrom('employees').innerJoin('users', 'users.id', 'employees.user_id').where('employees.enterprise_id', '=', enterpriseId);
  if (q.status) query = query.where('employees.status', '=', q.status);
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('users.name', 'like', like), eb('employees.display_name', 'like', like), eb('users.real_name', 'like', like), eb('users.phonenumber', 'like', like)]));
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['employees.id', 'employees.user_id', 'employees.display_name', 'users.name', 'users.real_name', 'users.phonenumber', 'employees.role', 'employees.status', 'employees.created_at'])
    .orderBy('employees.id')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute();
  const items: EmployeeDto[] = rows.map((r) => ({
    employee_id: r.id,
    user_id: r.user_id,
    name: r.display_name || r.name,
    real_name: r.real_name,
    phone: r.phonenumber,
    role: r.role,
    status: r.status,
    created_at: Number(r.created_at),
  }));
  return { items, total: Number(total.n), page: q.page, page_size: q.pageSize };
}

/** The member an administrator acts on: of the same enterprise, not themselves, and no super administrator unless the caller is one. */
async function targetEmployee(db: Db, ctx: MemberContext, employeeId: number) {
  const target = await db.selectFrom('employees').selectAll().where('id', '=', employeeId).executeTakeFirst();
  if (!target || target.enterprise_id !== ctx.enterprise.id) fail('not_found', 'employee_id');
  if (target.user_id === ctx.user.id) forbidden();
  if (target.role === ROLES.superAdmin && ctx.employee.role !== ROLES.superAdmin) forbidden();
  return target;
}

/** Approve 2→1, decline 2→3, freeze 1→4, unfreeze 4→1. */
export async function changeEmployeeStatus(db: Db, ctx: MemberContext, employeeId: number, next: number) {
  const target = await targetEmployee(db, ctx, employeeId);
  const isAllowed =
    (target.status === EMPLOYEE_STATUS.applied && (next === EMPLOYEE_STATUS.confirmed || next === EMPLOYEE_STATUS.rejected)) ||
    (target.status === EMPLOYEE_STATUS.confirmed && next === EMPLOYEE_STATUS.frozen) ||
    (target.status === EMPLOYEE_STATUS.frozen && next === EMPLOYEE_STATUS.confirmed);
  if (!isAllowed) fail('invalid_param', 'status');
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('employees').set({ status: next, updated_at: Date.now() }).where('id', '=', target.id).execute();
    const kind = target.status === EMPLOYEE_STATUS.applied ? (next === EMPLOYEE_STATUS.confirmed ? 'approved' : 'rejected') : next === EMPLOYEE_STATUS.frozen ? 'frozen' : 'unfrozen';
    await recordMemberEvent(trx, { enterpriseId: ctx.enterprise.id, userId: target.user_id, actorUserId: ctx.user.id, kind, role: target.role });
    // §6: a frozen employee cannot log in; with no usable membership left, their sessions end now.
    if (next === EMPLOYEE_STATUS.frozen && (await isLockedOut(trx, target.user_id))) await trx.deleteFrom('sessions').where('user_id', '=', target.user_id).execute();
  });
  return { employee_id: target.id, status: next };
}

/** Changes a member's role; only a super administrator grants role 1. */
export async function changeMemberRole(db: Db, ctx: MemberContext, employeeId: number, role: number) {
  const target = await targetEmployee(db, ctx, employeeId);
  if (role === ROLES.superAdmin && ctx.employee.role !== ROLES.superAdmin) forbidden();
  if (role !== target.role) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('employees').set({ role, updated_at: Date.now() }).where('id', '=', target.id).execute();
      await recordMemberEvent(trx, { enterpriseId: ctx.enterprise.id, userId: target.user_id, actorUserId: ctx.user.id, kind: 'role_changed', role });
    });
  }
  return { employee_id: target.id, role };
}

/**
 * One member added by an administrator: a phone with an account gets an invitation
 * (accepted on /invited-company); a new phone gets an account with the given
 * password and joins at once.
 */
export type MemberInput = { phone: string; name: string; role: number; password: string };
/** What adding one member will do, decided before anything is written: invite an existing account, or create one. */
type MemberPlan = { phone: string; name: string; role: number } & ({ outcome: 'invited'; userId: number; hasPending: boolean } | { outcome: 'added'; password: string });

/** Checks one row (§5 phone, name, role, password; §8 already a member). Throws the ApiError of the first problem. */
async function planMember(db: Db, config: DeploymentConfig, ctx: MemberContext, input: MemberInput): Promise<MemberPlan> {
  const phone = input.phone.trim();
  const name = input.name.trim();
  rule(checkPhone(phone), 'phone');
  rule(checkName(name, { required: true }), 'name');
  if (!ROLE_VALUES.includes(input.role)) fail('invalid_param', 'role');
  if (input.role === ROLES.superAdmin && ctx.employee.role !== ROLES.superAdmin) fail('invalid_param', 'role');
  const existing = await findUserByPhone(db, phone);
  if (existing) {
    const membership = await db.selectFrom('employees').select('status').where('user_id', '=', existing.id).where('enterprise_id', '=', ctx.enterprise.id).executeTakeFirst();
    if (membership && membership.status !== EMPLOYEE_STATUS.rejected) fail('enterprise_already_join', 'phone');
    const pending = await db.selectFrom('invitations').select('id').where('user_id', '=', existing.id).where('enterprise_id', '=', ctx.enterprise.id).where('status', '=', INVITATION_STATUS.pending).executeTakeFirst();
    return { phone, name, role: input.role, outcome: 'invited', userId: existing.id, hasPending: Boolean(pending) };
  }
  rule(checkNewPassword(input.password, { strongPassword: config.strongPassword }), 'password');
  return { phone, name, role: input.role, outcome: 'added', password: input.password };
}

/** Writes a checked plan inside the caller's transaction (the password hash is computed beforehand). */
async function applyMember(trx: Db, ctx: MemberContext, plan: MemberPlan, passwordHash: string): Promise<AddMemberResult> {
  const now = Date.now();
  if (plan.outcome === 'invited') {
    if (!plan.hasPending) {
      await trx.insertInto('invitations').values({ enterprise_id: ctx.enterprise.id, user_id: plan.userId, inviter_id: ctx.user.id, role: plan.role, status: INVITATION_STATUS.pending, member_name: plan.name, created_at: now, updated_at: now }).execute();
      await recordMemberEvent(trx, { enterpriseId: ctx.enterprise.id, userId: plan.userId, actorUserId: ctx.user.id, kind: 'invited', role: plan.role, at: now });
    } else {
      // Invited again while the first invitation waits: the newer name is the one meant.
      await trx.updateTable('invitations').set({ member_name: plan.name, updated_at: now }).where('user_id', '=', plan.userId).where('enterprise_id', '=', ctx.enterprise.id).where('status', '=', INVITATION_STATUS.pending).execute();
    }
    return { phone: plan.phone, outcome: 'invited' };
  }
  try {
    const user = await trx
      .insertInto('users')
      .values({ phonenumber: plan.phone, login_id: null, name: plan.name, password_hash: passwordHash, icon_color: pickIconColor(), current_enterprise_id: ctx.enterprise.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const employee = await trx
      .insertInto('employees')
      .values({ enterprise_id: ctx.enterprise.id, user_id: user.id, role: plan.role, status: EMPLOYEE_STATUS.confirmed, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordMemberEvent(trx, { enterpriseId: ctx.enterprise.id, userId: user.id, actorUserId: ctx.user.id, kind: 'added', role: plan.role, at: now });
    return { phone: plan.phone, outcome: 'added', employee_id: employee.id };
  } catch (error) {
    if (isUniqueViolation(error)) fail('user_already_exist', 'phone');
    throw error;
  }
}

export async function addMember(db: Db, config: DeploymentConfig, ctx: MemberContext, input: MemberInput): Promise<AddMemberResult> {
  const plan = await planMember(db, config, ctx, input);
  const passwordHash = plan.outcome === 'added' ? await hashPassword(plan.password) : '';
  return db.transaction().execute((trx) => applyMember(trx, ctx, plan, passwordHash));
}

export type BulkMemberRow = { name: string; password?: string; role?: number; phone: string };

/** Adds members in bulk, all or nothing: every row is checked first; one bad row imports no row, and the answer says which rows to fix. */
export async function addMembers(db: Db, config: DeploymentConfig, ctx: MemberContext, rows: BulkMemberRow[]): Promise<{ imported: boolean; results: BulkRowResult[] }> {
  const results: BulkRowResult[] = [];
  const plans: MemberPlan[] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const phone = String(row.phone ?? '').trim();
    try {
      if (seen.has(phone)) fail('user_already_exist', 'phone');
      seen.add(phone);
      const plan = await planMember(db, config, ctx, { phone, name: String(row.name ?? ''), role: Number(row.role ?? 0), password: String(row.password ?? '') });
      plans.push(plan);
      results.push({ row: index + 1, phone, ok: true, outcome: plan.outcome });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push({ row: index + 1, phone, ok: false, message: error.key, ...(error.field ? { field_name: error.field } : {}) });
    }
  }
  if (results.some((r) => !r.ok)) return { imported: false, results };
  const hashes: string[] = [];
  for (const plan of plans) hashes.push(plan.outcome === 'added' ? await hashPassword(plan.password) : '');
  const written = await db.transaction().execute(async (trx) => {
    const out: AddMemberResult[] = [];
    for (const [i, plan] of plans.entries()) out.push(await applyMember(trx, ctx, plan, hashes[i] ?? ''));
    return out;
  });
  return { imported: true, results: written.map((w, i) => ({ row: i + 1, phone: w.phone, ok: true, outcome: w.outcome })) };
}

/** Names of members of the enterprise (others are left out). */
export async function memberNames(db: Db, enterpriseId: number, userIds: number[]) {
  const rows = await db
    .selectFrom('employees')
    .innerJoin('users', 'users.id', 'employees.user_id')
    .select(['users.id as user_id', 'users.name'])
    .where('employees.enterprise_id', '=', enterpriseId)
    .where('employees.user_id', 'in', userIds)
    .orderBy('users.id')
    .execute();
  return rows.map((r) => ({ user_id: r.user_id, name: r.name }));
}

type FileKind = 'license' | 'application_form' | 'organization_code_certificate';

/** The enterprise's application files (licence, form, certificate), newest first. */
export async function enterpriseFiles(db: Db, enterprise: EnterpriseRow, page: number, pageSize: number) {
  // The files of every application that became this enterprise (a recommitted one may have several), and of the enterprise itself.
  const applications = await db
    .selectFrom('enterprise_applications')
    .select(['license_image_id', 'apply_book_id', 'organization_code_certificate_id', 'created_at'])
    .where('enterprise_id', '=', enterprise.id)
    .execute();
  const kinds = new Map<string, { kind: FileKind; at: number }>();
  const note = (id: string | null, kind: FileKind, at: number) => {
    if (id && !kinds.has(id)) kinds.set(id, { kind, at });
  };
  note(enterprise.license_image_id, 'license', Number(enterprise.created_at));
  note(enterprise.apply_book_id, 'application_form', Number(enterprise.created_at));
  note(enterprise.organization_code_certificate_id, 'organization_code_certificate', Number(enterprise.created_at));
  for (const a of applications) {
    note(a.license_image_id, 'license', Number(a.created_at));
    note(a.apply_book_id, 'application_form', Number(a.created_at));
    note(a.organization_code_certificate_id, 'organization_code_certificate', Number(a.created_at));
  }
  const ids = [...kinds.keys()];
  const stored = ids.length ? await db.selectFrom('files').select(['id', 'size', 'type', 'created_at']).where('id', 'in', ids).execute() : [];
  const items = stored
    .map((f) => ({ file_id: f.id, kind: kinds.get(f.id)!.kind, size: Number(f.size), type: f.type, uploaded_at: Number(f.created_at) }))
    .sort((x, y) => y.uploaded_at - x.uploaded_at || x.file_id.localeCompare(y.file_id));
  return { items: items.slice((page - 1) * pageSize, page * pageSize), total: items.length, page, page_size: pageSize };
}

/** Invitations the enterprise has sent, newest first (200 at most). */
export async function sentInvitations(db: Db, enterpriseId: number): Promise<InvitationDto[]> {
  const rows = await db
    .selectFrom('invitations')
    .innerJoin('users', 'users.id', 'invitations.user_id')
    .innerJoin('users as inviter', 'inviter.id', 'invitations.inviter_id')
    .select(['invitations.id', 'invitations.member_name', 'users.name', 'users.phonenumber', 'invitations.role', 'invitations.status', 'inviter.name as inviter_name', 'invitations.created_at'])
    .where('invitations.enterprise_id', '=', enterpriseId)
    .orderBy('invitations.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.member_name || r.name, phone: r.phonenumber, role: r.role, status: r.status, inviter: r.inviter_name, created_at: Number(r.created_at) }));
}

/** A new invitation code (the old one stops working). */
export async function regenerateInvitationCode(db: Db, enterpriseId: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const code = await uniqueInvitationCode(db);
    try {
      await db.updateTable('enterprises').set({ invitation_code: code, updated_at: Date.now() }).where('id', '=', enterpriseId).execute();
      return code;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 5) throw error;
    }
  }
}
