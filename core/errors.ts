/**
 * The §8 error catalogue: the keys the API sends as `{ message, field_name }`.
 * The server only ever sends these keys; the browser maps them to localized text
 * (src/api/error-messages.ts). Spaced, underscored and prefixed variants that older
 * clients or upstream services send are folded onto one key by `normalizeErrorKey`.
 */
export const ERROR_KEYS = [
  // credits and files
  'integrals_not_enough',
  'hash_duplicate',
  'vault_login_status_expired',
  'project_already_exist',
  'app_name_already_exists',
  // users and passwords
  'user_not_found',
  'user_already_exist',
  'invalid_password',
  'password_invalid',
  'password_needs_letters_and_numbers',
  'too_frequent_operation',
  'token_invalid',
  'operating_too_frequently',
  'invalid_password_format',
  'new_password_same_as_old',
  'new_phone_same_as_current',
  'password_too_short',
  'new_password_too_short',
  'password_needs_digits_and_letters',
  'password_needs_special_character',
  'password_mismatch',
  'terms_not_agreed',
  'phone_invalid',
  'login_failed',
  // proofs
  'proof_record_not_found',
  'verify_file_not_found',
  'hash_mismatch',
  'no_proof_package',
  'gzip_invalid_header',
  'parse_pdf_failed',
  'file_hashes_inconsistent',
  'expiration_time_verification_failed',
  'checkpoint_invalid',
  // the certificate PDF is not signed by the platform over its whole file, or was changed after signing
  'page_signature_invalid',
  'anchor_not_found',
  'anchor_sender_unknown',
  'anchor_data_mismatch',
  'anchor_time_invalid',
  // every check passed, but no trusted root certifies the signer (another platform's proof, or nothing pinned)
  'proof_signer_untrusted',
  // the verify API holds that block height with another hash, or the block lacks the entry
  'proof_not_in_ledger',
  // the stored certificate PDF does not match its record (changed, truncated, missing): not served, rendered again
  'proof_certificate_damaged',
  // identity
  'identity_info_invalid',
  'identity_card_recognition_failed',
  'identity_verify_info_invalid',
  'modified_identity_info_wrong',
  'identity_card_expired',
  'identity_card_front_and_back_required',
  'verified_identity_invalid',
  'real_name_info_empty',
  'phone_real_name_inconsistent',
  'user_not_real_name_verified',
  // codes
  'validation_error',
  'validation_code_mismatch',
  'invalid_code',
  'validation_code_expired',
  'validation_code_filled',
  'validation_code_not_generated',
  'validation_code_required',
  'invitation_code_invalid',
  'sms_send_failed',
  // operator console second factor
  'totp_required',
  'totp_invalid',
  // enterprise
  'enterprise_already_exist',
  'enterprise_not_found',
  'enterprise_already_join',
  'employee_locked',
  'role_name_already_exists',
  'legal_person_not_match',
  'license_record_not_found',
  'license_recognition_failed',
  'license_required',
  'recognition_unavailable',
  'application_pending',
  'file_too_large',
  'file_type_unsupported',
  'upload_failed',
  // enterprise key and certificate (custody)
  'private_key_status_invalid',
  'certificate_request_invalid',
  'certificate_subject_mismatch',
  'private_key_invalid',
  'private_key_mismatch',
  'private_key_unavailable',
  'enterprise_name_mismatch',
  'signature_invalid',
  'key_passphrase_too_short',
  'key_passphrase_weak',
  'key_passphrase_contains_identity',
  'key_passphrase_wrong',
  // generic field rules
  'required',
  'len',
  'lt',
  'gt',
  'invalid_param',
  'not_found',
  // the chat assistant: the enterprise used its monthly token budget
  'assistant_budget_exhausted',
  'forbidden',
] as const;

export type ErrorKey = (typeof ERROR_KEYS)[number];

const KNOWN = new Set<string>(ERROR_KEYS);

/** Aliases: the same meaning under another spelling of §8. */
const ALIASES: Record<string, ErrorKey> = {
  integral_not_enough: 'integrals_not_enough',
  card_no: 'identity_info_invalid',
  identity_card_front_recognition_failed: 'identity_card_recognition_failed',
  identity_card_back_recognition_failed: 'identity_card_recognition_failed',
  identity_card_face_recognition_failed: 'identity_card_recognition_failed',
  verify_file_not_found_or_hash_mismatch: 'verify_file_not_found',
  employee_is_locked: 'employee_locked',
  enterprise_already_joined: 'enterprise_already_join',
};

/** Prefixes that §8 says carry the same meaning as the bare key. */
const PREFIXES = ['create_upload_', 'update_file_', 'create_asset_file_'];

/**
 * Folds "validation code mismatch", "validation_code_mismatch" and
 * "create upload validation code mismatch" onto one catalogue key.
 * Returns null for text that is not in the catalogue (shown raw by the caller).
 */
export function normalizeErrorKey(raw: unknown): ErrorKey | null {
  if (typeof raw !== 'string') return null;
  let key = raw.trim().toLowerCase().replace(/[\s-]+/g, '_');
  for (const prefix of PREFIXES) {
    if (key.startsWith(prefix)) key = key.slice(prefix.length);
  }
  if (KNOWN.has(key)) return key as ErrorKey;
  return ALIASES[key] ?? null;
}

/** The body of every 400 answer. */
export type ApiErrorBody = { message: ErrorKey | string; field_name?: string };
