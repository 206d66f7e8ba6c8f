import { anyObject, arrayOf, nullableNum, nullableStr, num, obj, ok, str } from '../schemas.ts';

/** Response schemas of the operator console's routes. The login answers either `enroll` (first login) or the operator (with its recovery codes once). */
const operatorFields = { id: num, login_id: str, name: str };
export const loginResponse = ok(obj({ enroll: obj({ secret: str, uri: str }), ...operatorFields, recovery_codes: arrayOf(str) }));
export const meResponse = ok(obj(operatorFields));
export const jobsResponse = ok(obj({ backend: str, items: arrayOf(obj({ id: str, name: str, state: str, attempts: num, last_error: nullableStr, created_at: num, updated_at: num })) }));
export const auditResponse = ok(obj({ items: arrayOf(obj({ id: num, login_id: str, action: str, target: str, detail: anyObject, ip: str, created_at: num })), total: num, page: num, page_size: num }));
export const applicationsResponse = ok(
  arrayOf(
    obj({
      id: num,
      name: str,
      status: num,
      reason: str,
      created_at: num,
      license_no: str,
      legal_person: str,
      license_image_id: str,
      apply_book_id: str,
      organization_code_certificate_id: nullableStr,
      applicant_phone: str,
      applicant_name: str,
    }),
  ),
);
export const reviewResponse = ok(obj({ id: num, status: num, enterprise_id: nullableNum }));
