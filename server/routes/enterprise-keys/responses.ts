import { anyObject, arrayOf, bool, nullableNum, nullableObj, nullableStr, num, obj, pageSchema, str } from '../schemas.ts';

const certificateProperties = {
  certificate_id: num,
  serial_number: str,
  subject: arrayOf(obj({ type: str, oid: str, value: str })),
  subject_text: str,
  issuer_text: str,
  not_before: num,
  not_after: num,
  fingerprint: str,
  key_usage: arrayOf(str),
  public_key: str,
  signature_algorithm: str,
  dna: str,
  status: str,
  revoked_at: nullableNum,
  revocation_reason: nullableNum,
  created_at: num,
  pem: str,
  chain_pem: str,
};
export const certificate = obj(certificateProperties);

const custodyRequestProperties = { id: num, status: num, reason: str, review_reason: str, requested_by: str, created_at: num, reviewed_at: nullableNum };

/** GET /enterprises/keys and the answer of every change (KeyStateDto). */
export const keyState = obj({
  private_key_status: num,
  role: num,
  permissions: obj({ can_deposit: bool, can_sign: bool, can_cancel_custody: bool, can_withdraw_cancel: bool, can_revoke: bool, can_download_key: bool, can_view_log: bool }),
  subject: nullableObj({ country: str, organization: str, organizationIdentifier: str, commonName: str }),
  key: nullableObj({ key_id: num, deposited_at: num, deposited_by: str, is_stored: bool, delete_after: nullableNum, deleted_at: nullableNum, pem_sha256: str, kdf_iterations: num }),
  certificate: nullableObj(certificateProperties),
  custody_request: nullableObj(custodyRequestProperties),
});

export const certificatePage = pageSchema(certificate);
export const keyBackup = obj({ pem: str, file_name: str });
export const keyUsage = obj({ usage_id: num, encrypted_private_key: str, certificate });
export const signedUsage = obj({ log_id: num });
export const keyLogPage = pageSchema(
  obj({ log_id: num, action: str, actor: str, is_operator: bool, from_status: nullableNum, to_status: nullableNum, file_hash: nullableStr, detail: anyObject, created_at: num }),
);
export const custodyRequests = arrayOf(
  obj({ ...custodyRequestProperties, enterprise_id: num, enterprise_name: str, requester_phone: str, private_key_status: num, certificate_serial: nullableStr }),
);
export const custodyReview = obj({ id: num, status: num });
export const pkiCa = obj({
  roots: arrayOf(obj({ fingerprint: str, pem: str })),
  issuing_cas: arrayOf(obj({ fingerprint: str, root_fingerprint: str, pem: str })),
});
