import { arrayOf, bool, nullableNum, nullableObj, num, obj, pageSchema, str } from '../schemas.ts';

/** §3 Company client state (CompanyDto). */
export const companyDto = obj({
  enterprise_id: nullableNum,
  name: str,
  verified: bool,
  verify_status: num,
  license: str,
  legal_person: str,
  role: num,
  is_admin: bool,
  private_key_status: num,
  certificate: str,
  certificate_dna: str,
  member_confirmed_status: num,
  status: num,
  invitation_code: str,
  integrals: num,
  companies: arrayOf(obj({ enterprise_id: num, enterprise_name: str, locked: bool, member_confirmed_status: num })),
  invited_company: nullableObj({ invitation_id: num, enterprise_id: num, enterprise_name: str, inviter: str }),
  application: nullableObj({ id: num, name: str, status: num, reason: str, created_at: num }),
});

export const invitedCompany = nullableObj({ invitation_id: num, enterprise_id: num, enterprise_name: str, inviter: str });

export const employeePage = pageSchema(obj({ employee_id: num, user_id: num, name: str, real_name: str, phone: str, role: num, status: num, created_at: num }));

export const addMemberResult = obj({ phone: str, outcome: str, employee_id: num });

export const bulkResult = obj({
  imported: bool,
  results: arrayOf(obj({ row: num, phone: str, ok: bool, outcome: str, message: str, field_name: str })),
});

export const memberNames = arrayOf(obj({ user_id: num, name: str }));

export const enterpriseFilePage = pageSchema(obj({ file_id: str, kind: str, size: num, type: str, uploaded_at: num }));

export const invitations = arrayOf(obj({ id: num, name: str, phone: str, role: num, status: num, inviter: str, created_at: num }));

export const idCardOcr = obj({ card_no: str, name: str, valid_until: str });

export const licenceOcr = obj({ name: str, license: str, legal_person: str, is_legal_person: bool });
