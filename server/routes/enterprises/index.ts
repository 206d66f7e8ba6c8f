import type { FastifyInstance } from 'fastify';
import { ROLES, SMS_TYPES } from '../../../core/constants.ts';
import {
  APPLICATION_STATUS,
  CHANNELS,
  EMPLOYEE_STATUS,
  INVITATION_STATUS,
  ROLE_VALUES,
  VERIFY_STATUS,
  checkEnterpriseName,
  checkLicenseNo,
} from '../../../core/enterprise.ts';
import { checkCardNo, checkRealName, normalizeCardNo } from '../../../core/identity.ts';
import { checkName, checkNewPassword, checkPhone, checkSmsCode } from '../../../core/validation.ts';
import type { AddMemberResult, BulkRowResult, EmployeeDto, InvitationDto } from '../../../core/api-types.ts';
import type { ErrorKey } from '../../../core/errors.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { ApiError, fail } from '../../errors.ts';
import { forbidden } from '../../plugins/enterprises.ts';
import { hashPassword } from '../../services/passwords.ts';
import { companyState, insertEnterprise, isLockedOut, recordMemberEvent, uniqueInvitationCode, type LicenceInput } from '../../services/enterprises.ts';
import { findUserByPhone, pickIconColor, toUserDto, type UserRow } from '../../services/users.ts';
import { ownsFile } from '../files/index.ts';
import { body, envelope, pageNumber, text, userDto, SIGNED_IN } from '../schemas.ts';
import { applicationFormPdf } from './application-form.ts';
import { contentDisposition } from '../../content-disposition.ts';

const fileId = { type: 'string', maxLength: 90 } as const;
const licenceFields = { name: text(200), license: text(40), legal_person: text(60), license_image_id: fileId };
const ADD_MEMBER_BATCH_MAX = 500;

function todayYmd(): string {
  const d = new Date();
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

function rule(key: ErrorKey | null, field: string): void {
  if (key) fail(key, field);
}

type LicenceBody = LicenceInput;

export default async function enterpriseRoutes(app: FastifyInstance) {
  const { db, config, codes } = app;

  /** Creating or joining needs a real-name-authenticated user (§4), and one company at most without multiCompany. */
  async function checkCanJoin(user: UserRow, field: string) {
    if (!user.card_no) fail('user_not_real_name_verified', field);
    if (!config.multiCompany) {
      const any = await db.selectFrom('employees').select('id').where('user_id', '=', user.id).where('status', '<>', EMPLOYEE_STATUS.rejected).executeTakeFirst();
      if (any) fail('enterprise_already_join', field);
    }
  }

  async function checkLicence(user: UserRow, input: LicenceBody): Promise<LicenceBody> {
    const cleaned = {
      name: input.name.trim(),
      license: input.license.trim().toUpperCase(),
      legal_person: input.legal_person.trim(),
      license_image_id: input.license_image_id.trim(),
    };
    if (!cleaned.license_image_id || !(await ownsFile(db, user.id, cleaned.license_image_id))) fail('license_required', 'license_image_id');
    rule(checkEnterpriseName(cleaned.name), 'name');
    rule(checkLicenseNo(cleaned.license), 'license');
    rule(checkRealName(cleaned.legal_person), 'legal_person');
    const taken = await db.selectFrom('enterprises').select(['name', 'license_no']).where((eb) => eb.or([eb('name', '=', cleaned.name), eb('license_no', '=', cleaned.license)])).executeTakeFirst();
    if (taken) fail('enterprise_already_exist', taken.name === cleaned.name ? 'name' : 'license');
    return cleaned;
  }

  async function stateOf(userId: number) {
    const user = await db.selectFrom('users').select(['id', 'current_enterprise_id']).where('id', '=', userId).executeTakeFirstOrThrow();
    return companyState(db, user);
  }

  /** An ID photo must be the caller's upload and an image (JPEG/PNG/BMP/GIF by content, checked at upload). */
  async function checkIdPhoto(userId: number, imageId: string, field: string) {
    if (!(await ownsFile(db, userId, imageId))) fail('identity_card_front_and_back_required', field);
    if (!/\.(jpe?g|png|bmp|gif)$/.test(imageId)) fail('file_type_unsupported', field);
  }

  // §7 v1 POST /users/ocr/identity-card (image_id, side): front gives card_no and name; back gives the validity period.
  app.post<{ Body: { image_id: string; side: 'front' | 'back' } }>(
    '/api/v1/users/ocr/identity-card',
    { config: SIGNED_IN, schema: { body: body({ image_id: fileId, side: { type: 'string', enum: ['front', 'back'] } }, ['image_id', 'side']) } },
    async (request) => {
      const user = await app.requireUser(request);
      const imageId = request.body.image_id.trim();
      await checkIdPhoto(user.id, imageId, 'image_id');
      if (!app.idCardOcr.isAvailable) fail('recognition_unavailable', 'image_id');
      const side = request.body.side;
      const fields = await app.idCardOcr.recognize(app.blobs.pathOf(imageId), side);
      if (!fields) fail('identity_card_recognition_failed', 'image_id');
      if (side === 'back' && fields.valid_until !== 'long' && fields.valid_until < todayYmd()) fail('identity_card_expired', 'image_id');
      return { data: { card_no: fields.card_no, name: fields.name, valid_until: fields.valid_until } };
    },
  );

  // §7 v2 POST /users/verified-token: real-name authentication (card_no + name; with realAuthNeedOCR also the ID photos).
  app.post<{ Body: { card_no: string; name: string; front_image_id?: string; back_image_id?: string } }>(
    '/api/v2/users/verified-token',
    { config: SIGNED_IN, schema: { body: body({ card_no: text(32), name: text(60), front_image_id: fileId, back_image_id: fileId }, ['card_no', 'name']), response: envelope(userDto) } },
    async (request) => {
      const user = await app.requireUser(request);
      const cardNo = normalizeCardNo(request.body.card_no);
      const realName = request.body.name.trim();
      if (config.realAuthNeedOCR) {
        const front = request.body.front_image_id?.trim() ?? '';
        const back = request.body.back_image_id?.trim() ?? '';
        if (!front) fail('identity_card_front_and_back_required', 'front_image_id');
        if (!back) fail('identity_card_front_and_back_required', 'back_image_id');
        await checkIdPhoto(user.id, front, 'front_image_id');
        await checkIdPhoto(user.id, back, 'back_image_id');
        rule(checkCardNo(cardNo), 'card_no');
        rule(checkRealName(realName), 'name');
        if (app.idCardOcr.isAvailable) {
          // The number must be the one the photo shows (it is read reliably: a misread digit fails the
          // check character); otherwise the photo is not this person's card. The name stays editable,
          // because OCR misreads rarer characters.
          const read = await app.idCardOcr.recognize(app.blobs.pathOf(front), 'front');
          if (!read) fail('identity_card_recognition_failed', 'front_image_id');
          if (read.card_no !== cardNo) fail('identity_verify_info_invalid', 'front_image_id');
          const validity = await app.idCardOcr.recognize(app.blobs.pathOf(back), 'back');
          if (!validity) fail('identity_card_recognition_failed', 'back_image_id');
          if (validity.valid_until !== 'long' && validity.valid_until < todayYmd()) fail('identity_card_expired', 'back_image_id');
        }
      }
      rule(checkCardNo(cardNo), 'card_no');
      rule(checkRealName(realName), 'name');
      const verdict = await app.identity.verify({ db, userId: user.id, currentCardNo: user.card_no, cardNo, name: realName });
      if (verdict) fail(verdict, verdict === 'real_name_info_empty' ? 'name' : 'card_no');
      try {
        const updated = await db
          .updateTable('users')
          .set({ card_no: cardNo, real_name: realName, updated_at: Date.now() })
          .where('id', '=', user.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { data: toUserDto(updated) };
      } catch (error) {
        if (isUniqueViolation(error)) fail('phone_real_name_inconsistent', 'card_no');
        throw error;
      }
    },
  );

  // §7 v1 GET /enterprises: the Company client state (§3).
  app.get('/api/v1/enterprises', async (request) => {
    const user = await app.requireUser(request);
    return { data: await companyState(db, user) };
  });

  // §7 v1 GET /enterprises/join-list: joined companies (locked ones marked).
  app.get('/api/v1/enterprises/join-list', async (request) => {
    const user = await app.requireUser(request);
    return { data: { enterprises: (await companyState(db, user)).companies } };
  });

  // §7 v1 PUT /users/switch-enterprise: the displayed company; locked ones cannot be chosen.
  app.put<{ Body: { enterprise_id: number } }>(
    '/api/v1/users/switch-enterprise',
    { config: SIGNED_IN, schema: { body: body({ enterprise_id: { type: 'integer', minimum: 1 } }, ['enterprise_id']) } },
    async (request) => {
      const user = await app.requireUser(request);
      const membership = await db.selectFrom('employees').select(['status']).where('user_id', '=', user.id).where('enterprise_id', '=', request.body.enterprise_id).executeTakeFirst();
      if (!membership) forbidden();
      if (membership.status === EMPLOYEE_STATUS.frozen) fail('employee_locked', 'enterprise_id');
      await db.updateTable('users').set({ current_enterprise_id: request.body.enterprise_id, updated_at: Date.now() }).where('id', '=', user.id).execute();
      return { data: await stateOf(user.id) };
    },
  );

  /** Applies to join (status 2); a rejected applicant may apply again. */
  async function applyToJoin(user: UserRow, enterpriseId: number, field: string) {
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('employees').select(['id', 'status']).where('user_id', '=', user.id).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
      if (existing && existing.status !== EMPLOYEE_STATUS.rejected) fail('enterprise_already_join', field);
      if (existing) await trx.updateTable('employees').set({ status: EMPLOYEE_STATUS.applied, role: ROLES.member, updated_at: now }).where('id', '=', existing.id).execute();
      else await trx.insertInto('employees').values({ enterprise_id: enterpriseId, user_id: user.id, role: ROLES.member, status: EMPLOYEE_STATUS.applied, created_at: now, updated_at: now }).execute();
      await recordMemberEvent(trx, { enterpriseId, userId: user.id, actorUserId: user.id, kind: 'applied', at: now });
      await trx.updateTable('users').set({ current_enterprise_id: enterpriseId, updated_at: now }).where('id', '=', user.id).execute();
    });
    return { data: await stateOf(user.id) };
  }

  // §7 v1 POST /enterprises/employees (name): join by company name.
  app.post<{ Body: { name: string } }>('/api/v1/enterprises/employees', { config: SIGNED_IN, schema: { body: body({ name: text(200) }, ['name']) } }, async (request) => {
    const user = await app.requireUser(request);
    const name = request.body.name.trim();
    if (!name) fail('required', 'name');
    await checkCanJoin(user, 'name');
    const enterprise = await db.selectFrom('enterprises').select('id').where('name', '=', name).where('verify_status', '=', VERIFY_STATUS.verified).executeTakeFirst();
    if (!enterprise) fail('enterprise_not_found', 'name');
    return applyToJoin(user, enterprise.id, 'name');
  });

  // §7 v2 POST /enterprises/employees (invitation_code): join by 8-character invitation code.
  app.post<{ Body: { invitation_code: string } }>(
    '/api/v2/enterprises/employees',
    { config: SIGNED_IN, schema: { body: body({ invitation_code: text(32) }, ['invitation_code']) } },
    async (request) => {
      const user = await app.requireUser(request);
      const code = request.body.invitation_code.trim().toUpperCase();
      if (!code) fail('required', 'invitation_code');
      await checkCanJoin(user, 'invitation_code');
      const enterprise = await db.selectFrom('enterprises').select('id').where('invitation_code', '=', code).executeTakeFirst();
      if (!enterprise) fail('invitation_code_invalid', 'invitation_code');
      return applyToJoin(user, enterprise.id, 'invitation_code');
    },
  );

  // §7 v2 GET /users/invitation/enterprise: the pending invitation (or null).
  app.get('/api/v2/users/invitation/enterprise', async (request) => {
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
      },
    },
    async (request) => {
      const user = await app.requireUser(request);
      const invitation = await db.selectFrom('invitations').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!invitation || invitation.user_id !== user.id) forbidden();
      if (invitation.status !== INVITATION_STATUS.pending) fail('invalid_param', 'status');
      const now = Date.now();
      if (request.body.status === INVITATION_STATUS.accepted) await checkCanJoin(user, 'status');
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('invitations').set({ status: request.body.status, updated_at: now }).where('id', '=', invitation.id).execute();
        if (request.body.status !== INVITATION_STATUS.accepted) return;
        const existing = await trx.selectFrom('employees').select(['id', 'status']).where('user_id', '=', user.id).where('enterprise_id', '=', invitation.enterprise_id).executeTakeFirst();
        if (existing?.status === EMPLOYEE_STATUS.frozen) fail('employee_locked', 'status');
        const named = invitation.member_name ? { display_name: invitation.member_name } : {};
        if (existing) await trx.updateTable('employees').set({ status: EMPLOYEE_STATUS.confirmed, role: invitation.role, ...named, updated_at: now }).where('id', '=', existing.id).execute();
        else await trx.insertInto('employees').values({ enterprise_id: invitation.enterprise_id, user_id: user.id, role: invitation.role, status: EMPLOYEE_STATUS.confirmed, ...named, created_at: now, updated_at: now }).execute();
        await recordMemberEvent(trx, { enterpriseId: invitation.enterprise_id, userId: user.id, actorUserId: invitation.inviter_id, kind: 'joined', role: invitation.role, at: now });
        await trx.updateTable('users').set({ current_enterprise_id: invitation.enterprise_id, updated_at: now }).where('id', '=', user.id).execute();
      });
      return { data: await stateOf(user.id) };
    },
  );

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
      },
    },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'viewer');
      const page = request.query.page ?? 1;
      const pageSize = request.query.page_size ?? 10;
      const keyword = (request.query.keyword ?? '').trim();
      let query = db.selectFrom('employees').innerJoin('users', 'users.id', 'employees.user_id').where('employees.enterprise_id', '=', enterprise.id);
      if (request.query.status) query = query.where('employees.status', '=', request.query.status);
      if (keyword) {
        const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) => eb.or([eb('users.name', 'like', like), eb('employees.display_name', 'like', like), eb('users.real_name', 'like', like), eb('users.phonenumber', 'like', like)]));
      }
      const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await query
        .select(['employees.id', 'employees.user_id', 'employees.display_name', 'users.name', 'users.real_name', 'users.phonenumber', 'employees.role', 'employees.status', 'employees.created_at'])
        .orderBy('employees.id')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
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
      return { data: { items, total: Number(total.n), page, page_size: pageSize } };
    },
  );

  /** The member an administrator acts on: of the same enterprise, not themselves, and no super administrator unless the caller is one. */
  async function targetEmployee(ctx: Awaited<ReturnType<typeof app.requireMember>>, employeeId: number) {
    const target = await db.selectFrom('employees').selectAll().where('id', '=', employeeId).executeTakeFirst();
    if (!target || target.enterprise_id !== ctx.enterprise.id) fail('not_found', 'employee_id');
    if (target.user_id === ctx.user.id) forbidden();
    if (target.role === ROLES.superAdmin && ctx.employee.role !== ROLES.superAdmin) forbidden();
    return target;
  }

  // §7 v1 PUT /enterprises/employees (employee_id, status): approve 2→1, decline 2→3, freeze 1→4, unfreeze 4→1.
  app.put<{ Body: { employee_id: number; status: number } }>(
    '/api/v1/enterprises/employees',
    { config: SIGNED_IN, schema: { body: body({ employee_id: { type: 'integer' }, status: { type: 'integer', enum: [1, 3, 4] } }, ['employee_id', 'status']) } },
    async (request) => {
      const ctx = await app.requireMember(request, 'admin');
      const target = await targetEmployee(ctx, request.body.employee_id);
      const next = request.body.status;
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
      return { data: { employee_id: target.id, status: next } };
    },
  );

  // §7 v2 PUT /users/members/{id} (role): change a member's role; only a super administrator grants role 1.
  app.put<{ Params: { id: number }; Body: { role: number } }>(
    '/api/v2/users/members/:id',
    { config: SIGNED_IN,
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        body: body({ role: { type: 'integer', enum: [...ROLE_VALUES] } }, ['role']),
      },
    },
    async (request) => {
      const ctx = await app.requireMember(request, 'admin');
      const target = await targetEmployee(ctx, request.params.id);
      if (request.body.role === ROLES.superAdmin && ctx.employee.role !== ROLES.superAdmin) forbidden();
      if (request.body.role !== target.role) {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('employees').set({ role: request.body.role, updated_at: Date.now() }).where('id', '=', target.id).execute();
          await recordMemberEvent(trx, { enterpriseId: ctx.enterprise.id, userId: target.user_id, actorUserId: ctx.user.id, kind: 'role_changed', role: request.body.role });
        });
      }
      return { data: { employee_id: target.id, role: request.body.role } };
    },
  );

  /**
   * One member added by an administrator: a phone with an account gets an invitation
   * (accepted on /invited-company); a new phone gets an account with the given
   * password and joins at once.
   */
  type MemberCtx = Awaited<ReturnType<typeof app.requireMember>>;
  type MemberInput = { phone: string; name: string; role: number; password: string };
  /** What adding one member will do, decided before anything is written: invite an existing account, or create one. */
  type MemberPlan = { phone: string; name: string; role: number } & ({ outcome: 'invited'; userId: number; hasPending: boolean } | { outcome: 'added'; password: string });

  /** Checks one row (§5 phone, name, role, password; §8 already a member). Throws the ApiError of the first problem. */
  async function planMember(ctx: MemberCtx, input: MemberInput): Promise<MemberPlan> {
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
  async function applyMember(trx: typeof db, ctx: MemberCtx, plan: MemberPlan, passwordHash: string): Promise<AddMemberResult> {
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

  async function addMember(ctx: MemberCtx, input: MemberInput): Promise<AddMemberResult> {
    const plan = await planMember(ctx, input);
    const passwordHash = plan.outcome === 'added' ? await hashPassword(plan.password) : '';
    return db.transaction().execute((trx) => applyMember(trx, ctx, plan, passwordHash));
  }

  const memberFields = { name: text(60), password: text(128), role: { type: 'integer' }, phone: text(32) };

  // §7 v2 POST /users/members (name, password, role, phone): add one member (§9: the browser waits 10 s).
  app.post<{ Body: { name: string; password?: string; role?: number; phone: string } }>(
    '/api/v2/users/members',
    { config: SIGNED_IN, schema: { body: body(memberFields, ['name', 'phone']) } },
    async (request) => {
      if (!config.allowAddMember) forbidden();
      const ctx = await app.requireMember(request, 'admin');
      return { data: await addMember(ctx, { phone: request.body.phone, name: request.body.name, role: request.body.role ?? ROLES.member, password: request.body.password ?? '' }) };
    },
  );

  // §7 v2 POST /users/invitation/members (members): add in bulk, one result per row.
  app.post<{ Body: { members: Array<{ name: string; password?: string; role?: number; phone: string }> } }>(
    '/api/v2/users/invitation/members',
    { config: SIGNED_IN,
      schema: {
        body: body({ members: { type: 'array', minItems: 1, maxItems: ADD_MEMBER_BATCH_MAX, items: { type: 'object', properties: memberFields, additionalProperties: false } } }, ['members']),
      },
    },
    async (request) => {
      if (!config.allowAddMember) forbidden();
      const ctx = await app.requireMember(request, 'admin');
      // All or nothing: every row is checked first; one bad row imports no row, and the answer says which rows to fix.
      const results: BulkRowResult[] = [];
      const plans: MemberPlan[] = [];
      const seen = new Set<string>();
      for (const [index, row] of request.body.members.entries()) {
        const phone = String(row.phone ?? '').trim();
        try {
          if (seen.has(phone)) fail('user_already_exist', 'phone');
          seen.add(phone);
          const plan = await planMember(ctx, { phone, name: String(row.name ?? ''), role: Number(row.role ?? 0), password: String(row.password ?? '') });
          plans.push(plan);
          results.push({ row: index + 1, phone, ok: true, outcome: plan.outcome });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ row: index + 1, phone, ok: false, message: error.key, ...(error.field ? { field_name: error.field } : {}) });
        }
      }
      if (results.some((r) => !r.ok)) return { data: { imported: false, results } };
      const hashes: string[] = [];
      for (const plan of plans) hashes.push(plan.outcome === 'added' ? await hashPassword(plan.password) : '');
      const written = await db.transaction().execute(async (trx) => {
        const out: AddMemberResult[] = [];
        for (const [i, plan] of plans.entries()) out.push(await applyMember(trx, ctx, plan, hashes[i] ?? ''));
        return out;
      });
      return { data: { imported: true, results: written.map((w, i) => ({ row: i + 1, phone: w.phone, ok: true, outcome: w.outcome })) } };
    },
  );

  // §7 v1 GET /enterprises/employees/names?user_ids=: names of members of the displayed company (others are left out).
  app.get<{ Querystring: { user_ids?: number | number[] } }>(
    '/api/v1/enterprises/employees/names',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { user_ids: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'array', maxItems: 200, items: { type: 'integer', minimum: 1 } }] } }, required: ['user_ids'], additionalProperties: false } } },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'member');
      const raw = request.query.user_ids;
      const ids = [...new Set(Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])];
      if (ids.length === 0) fail('required', 'user_ids');
      const rows = await db
        .selectFrom('employees')
        .innerJoin('users', 'users.id', 'employees.user_id')
        .select(['users.id as user_id', 'users.name'])
        .where('employees.enterprise_id', '=', enterprise.id)
        .where('employees.user_id', 'in', ids)
        .orderBy('users.id')
        .execute();
      return { data: rows.map((r) => ({ user_id: r.user_id, name: r.name })) };
    },
  );

  // §7 v1 GET /enterprises/employees/files?page_id&page_size: the enterprise's application files (licence, form, certificate), newest first.
  app.get<{ Querystring: { page_id?: number; page_size?: number } }>(
    '/api/v1/enterprises/employees/files',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { page_id: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 100 } }, additionalProperties: false } } },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'viewer');
      const page = request.query.page_id ?? 1;
      const pageSize = request.query.page_size ?? 10;
      // The files of every application that became this enterprise (a recommitted one may have several), and of the enterprise itself.
      const applications = await db
        .selectFrom('enterprise_applications')
        .select(['license_image_id', 'apply_book_id', 'organization_code_certificate_id', 'created_at'])
        .where('enterprise_id', '=', enterprise.id)
        .execute();
      const kinds = new Map<string, { kind: 'license' | 'application_form' | 'organization_code_certificate'; at: number }>();
      const note = (id: string | null, kind: 'license' | 'application_form' | 'organization_code_certificate', at: number) => {
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
      return { data: { items: items.slice((page - 1) * pageSize, page * pageSize), total: items.length, page, page_size: pageSize } };
    },
  );

  // §7 v2 GET /enterprises/invitations: invitations this enterprise has sent.
  app.get('/api/v2/enterprises/invitations', async (request) => {
    const { enterprise } = await app.requireMember(request, 'admin');
    const rows = await db
      .selectFrom('invitations')
      .innerJoin('users', 'users.id', 'invitations.user_id')
      .innerJoin('users as inviter', 'inviter.id', 'invitations.inviter_id')
      .select(['invitations.id', 'invitations.member_name', 'users.name', 'users.phonenumber', 'invitations.role', 'invitations.status', 'inviter.name as inviter_name', 'invitations.created_at'])
      .where('invitations.enterprise_id', '=', enterprise.id)
      .orderBy('invitations.id', 'desc')
      .limit(200)
      .execute();
    const items: InvitationDto[] = rows.map((r) => ({ id: r.id, name: r.member_name || r.name, phone: r.phonenumber, role: r.role, status: r.status, inviter: r.inviter_name, created_at: Number(r.created_at) }));
    return { data: items };
  });

  // Regenerate the invitation code (the old one stops working).
  app.put('/api/v1/enterprises/invitation-code', async (request) => {
    const { enterprise } = await app.requireMember(request, 'admin');
    for (let attempt = 0; ; attempt++) {
      const code = await uniqueInvitationCode(db);
      try {
        await db.updateTable('enterprises').set({ invitation_code: code, updated_at: Date.now() }).where('id', '=', enterprise.id).execute();
        return { data: { invitation_code: code } };
      } catch (error) {
        if (!isUniqueViolation(error) || attempt > 5) throw error;
      }
    }
  });

  // §7 v1 POST /enterprises/ocr/license (image_id): name, licence number, legal representative.
  app.post<{ Body: { image_id: string } }>('/api/v1/enterprises/ocr/license', { config: SIGNED_IN, schema: { body: body({ image_id: fileId }, ['image_id']) } }, async (request) => {
    const user = await app.requireUser(request);
    const imageId = request.body.image_id.trim();
    if (!(await ownsFile(db, user.id, imageId))) fail('license_record_not_found', 'image_id');
    if (!app.licenceOcr.isAvailable) fail('recognition_unavailable', 'image_id');
    const fields = await app.licenceOcr.recognize(app.blobs.pathOf(imageId));
    if (!fields) fail('license_recognition_failed', 'image_id');
    return { data: { ...fields, is_legal_person: Boolean(user.real_name) && fields.legal_person === user.real_name } };
  });

  // §7 v1 POST /enterprises/legal-person: channel 1, the legal person confirms with an SMS code.
  app.post<{ Body: LicenceBody & { phonenumber?: string; validation_code: string } }>(
    '/api/v1/enterprises/legal-person',
    { config: SIGNED_IN, schema: { body: body({ ...licenceFields, phonenumber: text(32), validation_code: text(16) }, ['name', 'license', 'legal_person', 'license_image_id', 'validation_code']) } },
    async (request) => {
      const user = await app.requireUser(request);
      await checkCanJoin(user, 'name');
      const licence = await checkLicence(user, request.body);
      // §4: channel 1 is for the legal person only.
      if (licence.legal_person !== user.real_name) fail('legal_person_not_match', 'legal_person');
      if (request.body.phonenumber && request.body.phonenumber !== user.phonenumber) fail('phone_real_name_inconsistent', 'phonenumber');
      rule(checkSmsCode(request.body.validation_code), 'validation_code');
      const outcome = await db.transaction().execute(async (trx) => {
        const error = await codes.consume(trx, user.phonenumber, SMS_TYPES.legalPerson, request.body.validation_code);
        if (error) return { error };
        return { id: await insertEnterprise(trx, user.id, licence, CHANNELS.legalPerson, {}) };
      });
      if ('error' in outcome) throw outcome.error;
      return { data: await stateOf(user.id) };
    },
  );

  // The channel-2 application form to print, fill, sign, stamp and upload.
  app.get<{ Querystring: { name?: string; license?: string } }>(
    '/api/v1/enterprises/application-form',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { name: text(200), license: text(40) } } } },
    async (request, reply) => {
      const user = await app.requireUser(request);
      const pdf = await applicationFormPdf({ enterpriseName: request.query.name ?? '', license: request.query.license ?? '', applicant: user.real_name || user.name, phone: user.phonenumber });
      return reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition('application-form.pdf')).send(Buffer.from(pdf));
    },
  );

  async function checkAgentFiles(user: UserRow, applyBookId: string, certificateId: string | null) {
    if (!applyBookId || !(await ownsFile(db, user.id, applyBookId))) fail('required', 'apply_book_id');
    if (certificateId && !(await ownsFile(db, user.id, certificateId))) fail('not_found', 'organization_code_certificate_id');
  }

  const agentSchema = {
    body: body({ ...licenceFields, apply_book_id: fileId, organization_code_certificate_id: { type: ['string', 'null'], maxLength: 90 } }, ['name', 'license', 'legal_person', 'license_image_id', 'apply_book_id']),
  };
  type AgentBody = LicenceBody & { apply_book_id: string; organization_code_certificate_id?: string | null };

  // §7 v1 POST /enterprises/agent: channel 2, the signed application form goes to operator review.
  app.post<{ Body: AgentBody }>('/api/v1/enterprises/agent', { config: SIGNED_IN, schema: agentSchema }, async (request) => {
    const user = await app.requireUser(request);
    await checkCanJoin(user, 'name');
    const licence = await checkLicence(user, request.body);
    // §4: channel 2 is disabled for the legal person (who has the fast route).
    if (licence.legal_person === user.real_name) fail('invalid_param', 'channel');
    const certificateId = request.body.organization_code_certificate_id?.trim() || null;
    await checkAgentFiles(user, request.body.apply_book_id.trim(), certificateId);
    const pending = await db.selectFrom('enterprise_applications').select('id').where('user_id', '=', user.id).where('status', '=', APPLICATION_STATUS.pending).executeTakeFirst();
    if (pending) fail('application_pending', 'name');
    const now = Date.now();
    await db
      .insertInto('enterprise_applications')
      .values({ user_id: user.id, ...licenceColumns(licence), apply_book_id: request.body.apply_book_id.trim(), organization_code_certificate_id: certificateId, status: APPLICATION_STATUS.pending, enterprise_id: null, reviewed_by: null, reviewed_at: null, created_at: now, updated_at: now })
      .execute();
    return { data: await stateOf(user.id) };
  });

  // §7 v2 PUT /enterprises/agent: recommit a rejected application with new files.
  app.put<{ Body: AgentBody }>('/api/v2/enterprises/agent', { config: SIGNED_IN, schema: agentSchema }, async (request) => {
    const user = await app.requireUser(request);
    const last = await db.selectFrom('enterprise_applications').select(['id', 'status']).where('user_id', '=', user.id).orderBy('id', 'desc').executeTakeFirst();
    if (!last || last.status !== APPLICATION_STATUS.rejected) fail('invalid_param', 'apply_book_id');
    await checkCanJoin(user, 'name');
    const licence = await checkLicence(user, request.body);
    if (licence.legal_person === user.real_name) fail('invalid_param', 'channel');
    const certificateId = request.body.organization_code_certificate_id?.trim() || null;
    await checkAgentFiles(user, request.body.apply_book_id.trim(), certificateId);
    await db
      .updateTable('enterprise_applications')
      .set({ ...licenceColumns(licence), apply_book_id: request.body.apply_book_id.trim(), organization_code_certificate_id: certificateId, status: APPLICATION_STATUS.pending, reason: '', updated_at: Date.now() })
      .where('id', '=', last.id)
      .execute();
    return { data: await stateOf(user.id) };
  });

}

function licenceColumns(licence: LicenceBody) {
  return { name: licence.name, license_no: licence.license, legal_person: licence.legal_person, license_image_id: licence.license_image_id };
}

