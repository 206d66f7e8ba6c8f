import { randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { fail } from '../errors.ts';
import type { EmployeesTable, EnterprisesTable } from '../db/schema.ts';
import { EMPLOYEE_STATUS, INVITATION_ALPHABET, INVITATION_STATUS, VERIFY_STATUS, isAdminRole } from '../../core/enterprise.ts';
import { INVITATION_CODE_LENGTH, ROLES } from '../../core/constants.ts';
import { maskLicense } from '../../core/masking.ts';
import type { CompanyDto } from '../../core/api-types.ts';
import type { MemberEventKind } from '../../core/home.ts';
import { memberAvailable } from './credits.ts';
import { PRIVATE_KEY_STATUS } from '../../core/enterprise-keys.ts';
import { certificatePem } from '../../core/crypto/enterprise-cert.ts';
import { fromBase64 } from '../../core/ledger/bytes.ts';

export type EnterpriseRow = Selectable<EnterprisesTable>;
export type EmployeeRow = Selectable<EmployeesTable>;

export function newInvitationCode(): string {
  let code = '';
  for (let i = 0; i < INVITATION_CODE_LENGTH; i++) code += INVITATION_ALPHABET[randomInt(INVITATION_ALPHABET.length)];
  return code;
}

/** A code no enterprise holds (retries on the rare collision; the unique index is the final word). */
export async function uniqueInvitationCode(db: Db): Promise<string> {
  for (;;) {
    const code = newInvitationCode();
    const taken = await db.selectFrom('enterprises').select('id').where('invitation_code', '=', code).executeTakeFirst();
    if (!taken) return code;
  }
}

/** The memberships a user has, oldest first, with their enterprises' names. */
export async function membershipsOf(db: Db, userId: number) {
  return db
    .selectFrom('employees')
    .innerJoin('enterprises', 'enterprises.id', 'employees.enterprise_id')
    .select(['employees.id as employee_id', 'employees.enterprise_id', 'enterprises.name', 'employees.role', 'employees.status'])
    .where('employees.user_id', '=', userId)
    .orderBy('employees.id')
    .execute();
}

/** §6/§8: a user whose memberships are all frozen cannot log in (one usable membership is enough). */
export async function isLockedOut(db: Db, userId: number): Promise<boolean> {
  const rows = await db.selectFrom('employees').select('status').where('user_id', '=', userId).execute();
  return rows.length > 0 && rows.every((r) => r.status === EMPLOYEE_STATUS.frozen);
}

/** The pending invitation shown on /invited-company, newest first. */
export async function pendingInvitation(db: Db, userId: number) {
  return db
    .selectFrom('invitations')
    .innerJoin('enterprises', 'enterprises.id', 'invitations.enterprise_id')
    .innerJoin('users as inviter', 'inviter.id', 'invitations.inviter_id')
    .select(['invitations.id', 'invitations.enterprise_id', 'enterprises.name as enterprise_name', 'inviter.name as inviter_name', 'inviter.phonenumber as inviter_phone'])
    .where('invitations.user_id', '=', userId)
    .where('invitations.status', '=', INVITATION_STATUS.pending)
    .orderBy('invitations.id', 'desc')
    .executeTakeFirst();
}

/**
 * §3 Company client state for a user: the displayed company (the chosen one when it is
 * still usable, else the first membership), the list of companies, the pending
 * invitation and the latest channel-2 application.
 */
export async function companyState(db: Db, user: { id: number; current_enterprise_id: number | null }): Promise<CompanyDto> {
  const memberships = await membershipsOf(db, user.id);
  const usable = memberships.filter((m) => m.status !== EMPLOYEE_STATUS.frozen);
  const current = usable.find((m) => m.enterprise_id === user.current_enterprise_id) ?? usable[0];
  const enterprise = current ? await db.selectFrom('enterprises').selectAll().where('id', '=', current.enterprise_id).executeTakeFirst() : undefined;
  const invitation = await pendingInvitation(db, user.id);
  const application = await db
    .selectFrom('enterprise_applications')
    .select(['id', 'name', 'status', 'reason', 'created_at'])
    .where('user_id', '=', user.id)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const isAdmin = Boolean(current && current.status === EMPLOYEE_STATUS.confirmed && isAdminRole(current.role));
  const certificate = enterprise
    ? await db.selectFrom('enterprise_certificates').select(['der', 'dna']).where('enterprise_id', '=', enterprise.id).where('revoked_at', 'is', null).orderBy('id', 'desc').executeTakeFirst()
    : undefined;
  return {
    enterprise_id: enterprise?.id ?? null,
    name: enterprise?.name ?? '',
    verified: enterprise?.verify_status === VERIFY_STATUS.verified,
    verify_status: enterprise?.verify_status ?? 0,
    license: enterprise ? maskLicense(enterprise.license_no) : '',
    legal_person: enterprise?.legal_person ?? '',
    role: current?.role ?? 0,
    is_admin: isAdmin,
    private_key_status: enterprise?.private_key_status ?? 0,
    certificate: certificate ? certificatePem(fromBase64(certificate.der)) : '',
    certificate_dna: certificate?.dna ?? '',
    member_confirmed_status: current?.status ?? 0,
    status: current?.status ?? 0,
    invitation_code: isAdmin && enterprise ? enterprise.invitation_code : '',
    integrals: enterprise && current?.status === EMPLOYEE_STATUS.confirmed ? await memberAvailable(db, enterprise.id, user.id) : 0,
    companies: memberships.map((m) => ({
      enterprise_id: m.enterprise_id,
      enterprise_name: m.name,
      locked: m.status === EMPLOYEE_STATUS.frozen,
      member_confirmed_status: m.status,
    })),
    invited_company: invitation
      ? { invitation_id: invitation.id, enterprise_id: invitation.enterprise_id, enterprise_name: invitation.enterprise_name, inviter: invitation.inviter_name || invitation.inviter_phone }
      : null,
    application: application ? { id: application.id, name: application.name, status: application.status, reason: application.reason, created_at: Number(application.created_at) } : null,
  };
}

/** One line of an enterprise's membership history (the home feed reads it), written in the caller's transaction. */
export async function recordMemberEvent(
  db: Db,
  e: { enterpriseId: number; userId: number; actorUserId: number | null; kind: MemberEventKind; role?: number | null; at?: number },
): Promise<void> {
  await db
    .insertInto('member_events')
    .values({ enterprise_id: e.enterpriseId, user_id: e.userId, actor_user_id: e.actorUserId, kind: e.kind, role: e.role ?? null, created_at: e.at ?? Date.now() })
    .execute();
}

export type LicenceInput = { name: string; license: string; legal_person: string; license_image_id: string };

/** Creates a verified enterprise with its creator as super administrator, shown as their current company. */
export async function insertEnterprise(
  trx: Db,
  userId: number,
  licence: LicenceInput,
  channel: number,
  files: { apply_book_id?: string | null; organization_code_certificate_id?: string | null },
): Promise<number> {
  const now = Date.now();
  try {
    const enterprise = await trx
      .insertInto('enterprises')
      .values({
        name: licence.name,
        license_no: licence.license,
        legal_person: licence.legal_person,
        license_image_id: licence.license_image_id,
        channel,
        apply_book_id: files.apply_book_id ?? null,
        organization_code_certificate_id: files.organization_code_certificate_id ?? null,
        verify_status: VERIFY_STATUS.verified,
        // No key yet: the super administrator deposits one in the key ceremony (docs/enterprise-keys.md).
        private_key_status: PRIVATE_KEY_STATUS.none,
        invitation_code: await uniqueInvitationCode(trx),
        created_by: userId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('employees').values({ enterprise_id: enterprise.id, user_id: userId, role: ROLES.superAdmin, status: EMPLOYEE_STATUS.confirmed, created_at: now, updated_at: now }).execute();
    await recordMemberEvent(trx, { enterpriseId: enterprise.id, userId, actorUserId: userId, kind: 'created', role: ROLES.superAdmin, at: now });
    await trx.updateTable('users').set({ current_enterprise_id: enterprise.id, updated_at: now }).where('id', '=', userId).execute();
    return enterprise.id;
  } catch (error) {
    if (isUniqueViolation(error)) fail('enterprise_already_exist', 'name');
    throw error;
  }
}
