import { ROLES, SMS_TYPES } from '../../core/constants.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import { APPLICATION_STATUS, CHANNELS, EMPLOYEE_STATUS, INVITATION_STATUS, VERIFY_STATUS, checkEnterpriseName, checkLicenseNo } from '../../core/enterprise.ts';
import { checkRealName } from '../../core/identity.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { fail } from '../errors.ts';
import { forbidden } from '../plugins/enterprises.ts';
import { ownsFile } from './stored-files.ts';
import { companyState, insertEnterprise, recordMemberEvent, type LicenceInput } from './enterprises.ts';
import type { CodeService } from './sms.ts';
import { toUserDto, type UserRow } from './users.ts';

/**
 * Becoming part of an enterprise (§4): real-name authentication, joining by name or invitation
 * code, answering an invitation, switching the displayed company, and creating one (channel 1,
 * the legal person with an SMS code; channel 2, an application to operator review).
 */

function rule(key: ErrorKey | null, field: string): void {
  if (key) fail(key, field);
}

/** The Company client state (§3) of a user, read afresh. */
export async function stateOf(db: Db, userId: number) {
  const user = await db.selectFrom('users').select(['id', 'current_enterprise_id']).where('id', '=', userId).executeTakeFirstOrThrow();
  return companyState(db, user);
}

/** Creating or joining needs a real-name-authenticated user (§4), and one company at most without multiCompany. */
export async function checkCanJoin(db: Db, config: DeploymentConfig, user: UserRow, field: string) {
  if (!user.card_no) fail('user_not_real_name_verified', field);
  if (!config.multiCompany) {
    const any = await db.selectFrom('employees').select('id').where('user_id', '=', user.id).where('status', '<>', EMPLOYEE_STATUS.rejected).executeTakeFirst();
    if (any) fail('enterprise_already_join', field);
  }
}

/** Trims and checks a company's licence fields; the image must be the caller's upload and the name and number free. */
export async function checkLicence(db: Db, user: UserRow, input: LicenceInput): Promise<LicenceInput> {
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

/** Records a verified real name; the card number belongs to one account only. */
export async function setRealName(db: Db, userId: number, cardNo: string, realName: string) {
  try {
    const updated = await db.updateTable('users').set({ card_no: cardNo, real_name: realName, updated_at: Date.now() }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
    return toUserDto(updated);
  } catch (error) {
    if (isUniqueViolation(error)) fail('phone_real_name_inconsistent', 'card_no');
    throw error;
  }
}

/** The displayed company; locked ones cannot be chosen. */
export async function switchEnterprise(db: Db, userId: number, enterpriseId: number) {
  const membership = await db.selectFrom('employees').select(['status']).where('user_id', '=', userId).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
  if (!membership) forbidden();
  if (membership.status === EMPLOYEE_STATUS.frozen) fail('employee_locked', 'enterprise_id');
  await db.updateTable('users').set({ current_enterprise_id: enterpriseId, updated_at: Date.now() }).where('id', '=', userId).execute();
  return stateOf(db, userId);
}

/** Applies to join (status 2); a rejected applicant may apply again. */
async function applyToJoin(db: Db, user: UserRow, enterpriseId: number, field: string) {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('employees').select(['id', 'status']).where('user_id', '=', user.id).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
    if (existing && existing.status !== EMPLOYEE_STATUS.rejected) fail('enterprise_already_join', field);
    if (existing) await trx.updateTable('employees').set({ status: EMPLOYEE_STATUS.applied, role: ROLES.member, updated_at: now }).where('id', '=', existing.id).execute();
    else await trx.insertInto('employees').values({ enterprise_id: enterpriseId, user_id: user.id, role: ROLES.member, status: EMPLOYEE_STATUS.applied, created_at: now, updated_at: now }).execute();
    await recordMemberEvent(trx, { enterpriseId, userId: user.id, actorUserId: user.id, kind: 'applied', at: now });
    await trx.updateTable('users').set({ current_enterprise_id: enterpriseId, updated_at: now }).where('id', '=', user.id).execute();
  });
  return stateOf(db, user.id);
}

/** Join by company name (a verified company). */
export async function joinByName(db: Db, config: DeploymentConfig, user: UserRow, rawName: string) {
  const name = rawName.trim();
  if (!name) fail('required', 'name');
  await checkCanJoin(db, config, user, 'name');
  const enterprise = await db.selectFrom('enterprises').select('id').where('name', '=', name).where('verify_status', '=', VERIFY_STATUS.verified).executeTakeFirst();
  if (!enterprise) fail('enterprise_not_found', 'name');
  return applyToJoin(db, user, enterprise.id, 'name');
}

/** Join by 8-character invitation code. */
export async function joinByCode(db: Db, config: DeploymentConfig, user: UserRow, rawCode: string) {
  const code = rawCode.trim().toUpperCase();
  if (!code) fail('required', 'invitation_code');
  await checkCanJoin(db, config, user, 'invitation_code');
  const enterprise = await db.selectFrom('enterprises').select('id').where('invitation_code', '=', code).executeTakeFirst();
  if (!enterprise) fail('invitation_code_invalid', 'invitation_code');
  return applyToJoin(db, user, enterprise.id, 'invitation_code');
}

/** Accepts (2) or refuses (3) an invitation addressed to the user. */
export async function answerInvitation(db: Db, config: DeploymentConfig, user: UserRow, invitationId: number, status: number) {
  const invitation = await db.selectFrom('invitations').selectAll().where('id', '=', invitationId).executeTakeFirst();
  if (!invitation || invitation.user_id !== user.id) forbidden();
  if (invitation.status !== INVITATION_STATUS.pending) fail('invalid_param', 'status');
  const now = Date.now();
  if (status === INVITATION_STATUS.accepted) await checkCanJoin(db, config, user, 'status');
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('invitations').set({ status, updated_at: now }).where('id', '=', invitation.id).execute();
    if (status !== INVITATION_STATUS.accepted) return;
    const existing = await trx.selectFrom('employees').select(['id', 'status']).where('user_id', '=', user.id).where('enterprise_id', '=', invitation.enterprise_id).executeTakeFirst();
    if (existing?.status === EMPLOYEE_STATUS.frozen) fail('employee_locked', 'status');
    const named = invitation.member_name ? { display_name: invitation.member_name } : {};
    if (existing) await trx.updateTable('employees').set({ status: EMPLOYEE_STATUS.confirmed, role: invitation.role, ...named, updated_at: now }).where('id', '=', existing.id).execute();
    else await trx.insertInto('employees').values({ enterprise_id: invitation.enterprise_id, user_id: user.id, role: invitation.role, status: EMPLOYEE_STATUS.confirmed, ...named, created_at: now, updated_at: now }).execute();
    await recordMemberEvent(trx, { enterpriseId: invitation.enterprise_id, userId: user.id, actorUserId: invitation.inviter_id, kind: 'joined', role: invitation.role, at: now });
    await trx.updateTable('users').set({ current_enterprise_id: invitation.enterprise_id, updated_at: now }).where('id', '=', user.id).execute();
  });
  return stateOf(db, user.id);
}

/** Channel 1: the legal person creates the company at once, confirming with an SMS code. */
export async function createByLegalPerson(db: Db, codes: CodeService, user: UserRow, licence: LicenceInput, validationCode: string) {
  const outcome = await db.transaction().execute(async (trx) => {
    const error = await codes.consume(trx, user.phonenumber, SMS_TYPES.legalPerson, validationCode);
    if (error) return { error };
    return { id: await insertEnterprise(trx, user.id, licence, CHANNELS.legalPerson, {}) };
  });
  if ('error' in outcome) throw outcome.error;
  return stateOf(db, user.id);
}

function licenceColumns(licence: LicenceInput) {
  return { name: licence.name, license_no: licence.license, legal_person: licence.legal_person, license_image_id: licence.license_image_id };
}

/** The signed application form and the optional certificate must be the caller's uploads. */
export async function checkAgentFiles(db: Db, user: UserRow, applyBookId: string, certificateId: string | null) {
  if (!applyBookId || !(await ownsFile(db, user.id, applyBookId))) fail('required', 'apply_book_id');
  if (certificateId && !(await ownsFile(db, user.id, certificateId))) fail('not_found', 'organization_code_certificate_id');
}

/** The user's pending channel-2 application, if any. */
export async function hasPendingApplication(db: Db, userId: number): Promise<boolean> {
  const pending = await db.selectFrom('enterprise_applications').select('id').where('user_id', '=', userId).where('status', '=', APPLICATION_STATUS.pending).executeTakeFirst();
  return Boolean(pending);
}

/** The user's latest channel-2 application, if any. */
export function lastApplication(db: Db, userId: number) {
  return db.selectFrom('enterprise_applications').select(['id', 'status']).where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst();
}

/** Channel 2: a new application goes to operator review. */
export async function submitApplication(db: Db, userId: number, licence: LicenceInput, applyBookId: string, certificateId: string | null) {
  const now = Date.now();
  await db
    .insertInto('enterprise_applications')
    .values({ user_id: userId, ...licenceColumns(licence), apply_book_id: applyBookId, organization_code_certificate_id: certificateId, status: APPLICATION_STATUS.pending, enterprise_id: null, reviewed_by: null, reviewed_at: null, created_at: now, updated_at: now })
    .execute();
  return stateOf(db, userId);
}

/** Channel 2: a rejected application recommitted with new files. */
export async function recommitApplication(db: Db, userId: number, applicationId: number, licence: LicenceInput, applyBookId: string, certificateId: string | null) {
  await db
    .updateTable('enterprise_applications')
    .set({ ...licenceColumns(licence), apply_book_id: applyBookId, organization_code_certificate_id: certificateId, status: APPLICATION_STATUS.pending, reason: '', updated_at: Date.now() })
    .where('id', '=', applicationId)
    .execute();
  return stateOf(db, userId);
}
