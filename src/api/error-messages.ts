import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';
import { normalizeErrorKey, type ErrorKey } from '../../core/errors.ts';
import { i18n as globalI18n } from '@/i18n/i18n.ts';
import { isApiError } from './client.ts';

/**
 * §8: every catalogue key the API sends, as the sentence the user reads.
 * Typed as a full record so that a key added to core/errors.ts without a message
 * fails the type-check.
 */
export const ERROR_MESSAGES: Record<ErrorKey, MessageDescriptor> = {
  // credits and files
  integrals_not_enough: msg`Not enough credits, please top up`,
  hash_duplicate: msg`This file already exists`,
  vault_login_status_expired: msg`The vault key has expired, please unlock the vault again`,
  project_already_exist: msg`A project with this name already exists, please rename it`,
  app_name_already_exists: msg`An application with this name already exists`,
  // users and passwords
  user_not_found: msg`This user does not exist`,
  user_already_exist: msg`This phone number is already registered`,
  invalid_password: msg`Password incorrect`,
  password_invalid: msg`Original password wrong`,
  password_needs_letters_and_numbers: msg`The password must contain upper and lower case letters and digits`,
  too_frequent_operation: msg`Too many attempts, please try again later`,
  token_invalid: msg`Your login has expired, please log in again`,
  operating_too_frequently: msg`Multiple wrong passwords, please try again in ten minutes`,
  invalid_password_format: msg`Your password is weak, please upgrade it first`,
  new_password_same_as_old: msg`The new password must differ from the old one`,
  new_phone_same_as_current: msg`The new phone number must differ from the current one`,
  password_too_short: msg`The password must be at least 8 characters`,
  new_password_too_short: msg`The new password must be at least 7 characters`,
  password_needs_digits_and_letters: msg`The password must contain digits and letters`,
  password_needs_special_character: msg`The password must also contain a special character, such as ! @ # $ %`,
  password_mismatch: msg`The two passwords do not match`,
  terms_not_agreed: msg`Please read and agree to the user agreement`,
  phone_invalid: msg`Please enter a valid phone number`,
  login_failed: msg`Phone or password wrong`,
  // proofs
  proof_record_not_found: msg`The digital asset ID is incorrect`,
  verify_file_not_found: msg`The original file and the proof file do not match`,
  hash_mismatch: msg`The original file and the proof file do not match`,
  no_proof_package: msg`The proof file is missing or invalid`,
  gzip_invalid_header: msg`The proof file format is wrong`,
  parse_pdf_failed: msg`The certificate could not be parsed`,
  file_hashes_inconsistent: msg`Proof verification failed`,
  expiration_time_verification_failed: msg`The digital property proof file has expired, please regenerate it`,
  page_signature_invalid: msg`The certificate page is not the one the platform signed: it was changed after signing, or it is not signed`,
  checkpoint_invalid: msg`The log checkpoint in the proof is not signed by the platform or does not contain this block`,
  anchor_not_found: msg`The anchor transaction is not on the chain as the proof says`,
  anchor_sender_unknown: msg`The anchor was not sent from the platform's published anchoring address`,
  anchor_data_mismatch: msg`The anchor transaction does not carry this proof's checkpoint`,
  anchor_time_invalid: msg`The anchor is dated before the block was sealed`,
  proof_signer_untrusted: msg`Issued by another platform: the proof is intact, but its signer is not a platform you trust`,
  proof_not_in_ledger: msg`The proof is not in this platform's ledger`,
  proof_certificate_damaged: msg`The stored certificate PDF is damaged and cannot be served; it is being issued again, please try again in a few minutes`,
  // identity
  identity_info_invalid: msg`Real-name authentication failed, please check and try again`,
  identity_card_recognition_failed: msg`The ID card could not be recognised, please retake the photo and upload it again`,
  identity_verify_info_invalid: msg`Please upload an ID card photo that matches the login phone`,
  modified_identity_info_wrong: msg`The modified identity information is wrong`,
  identity_card_expired: msg`The ID card has expired`,
  identity_card_front_and_back_required: msg`Both the front and the back of the ID card are required`,
  verified_identity_invalid: msg`The real-name information is inconsistent, please check it and authenticate again`,
  real_name_info_empty: msg`Please complete real-name authentication first`,
  phone_real_name_inconsistent: msg`The phone's real-name owner does not match the ID card`,
  user_not_real_name_verified: msg`This user has not completed real-name authentication`,
  // codes
  validation_error: msg`SMS verification code wrong`,
  validation_code_mismatch: msg`SMS verification code wrong`,
  invalid_code: msg`SMS verification code wrong`,
  validation_code_expired: msg`The SMS verification code has expired, please request a new one`,
  validation_code_filled: msg`Requested too often, please wait a minute`,
  sms_send_failed: msg`The text message could not be sent, please retry`,
  totp_required: msg`Enter the 6-digit code from your authenticator app`,
  totp_invalid: msg`The authenticator code is wrong or already used`,
  validation_code_not_generated: msg`Please send the verification code first`,
  validation_code_required: msg`Please enter the phone verification code`,
  invitation_code_invalid: msg`The enterprise invitation code is wrong, please re-enter it`,
  // enterprise
  enterprise_already_exist: msg`This enterprise is already registered`,
  enterprise_not_found: msg`This enterprise does not exist or may still be under review`,
  enterprise_already_join: msg`You have already joined an enterprise`,
  employee_locked: msg`Your account has been frozen`,
  role_name_already_exists: msg`This role has already been submitted`,
  legal_person_not_match: msg`The legal person does not match the business licence`,
  license_record_not_found: msg`The business licence has not been uploaded`,
  license_recognition_failed: msg`The business licence could not be recognised`,
  license_required: msg`Please upload the business licence first`,
  recognition_unavailable: msg`Automatic recognition is unavailable, please type the details`,
  application_pending: msg`Your application is being reviewed, please wait`,
  file_too_large: msg`File too large, the limit is 3M`,
  file_type_unsupported: msg`Only JPEG, JPG, PNG, BMP, GIF or PDF files are accepted`,
  upload_failed: msg`Upload failed`,
  // enterprise key and certificate (custody)
  private_key_status_invalid: msg`The key cannot change to this state now`,
  certificate_request_invalid: msg`The certificate request is invalid`,
  certificate_subject_mismatch: msg`The certificate request does not name this enterprise`,
  private_key_invalid: msg`The key must be an encrypted PKCS#8 PEM (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC)`,
  private_key_mismatch: msg`The key does not match the certificate request`,
  private_key_unavailable: msg`The enterprise has no usable key in the platform's custody`,
  enterprise_name_mismatch: msg`The name does not match the enterprise name`,
  signature_invalid: msg`The signature does not verify with the enterprise certificate`,
  key_passphrase_too_short: msg`The key passphrase must have at least 12 characters`,
  key_passphrase_weak: msg`The key passphrase is too weak: use at least three of lower case, upper case, digits and symbols, or 20 characters or more, without long repeats`,
  key_passphrase_contains_identity: msg`The key passphrase must not contain the enterprise name, licence number or your phone number`,
  key_passphrase_wrong: msg`Wrong key passphrase`,
  // generic field rules
  required: msg`This field is required`,
  len: msg`Wrong length`,
  lt: msg`Too long`,
  gt: msg`Too short`,
  invalid_param: msg`Invalid value`,
  not_found: msg`Not found`,
  assistant_budget_exhausted: msg`The chat assistant has used this month's budget for your company; it answers again next month`,
  forbidden: msg`This operation is not allowed`,
};

const NETWORK_ABNORMAL = msg`Network abnormal, please try again later`;

/** The §8 server-error handler: by status. */
export function serverErrorMessage(status: number, i18n: I18n = globalI18n): string {
  if (status === 500) return i18n._(msg`Server error, please try again later`);
  if (status === 504) return i18n._(msg`Network request timed out`);
  if (status === 0) return i18n._(NETWORK_ABNORMAL);
  return i18n._(msg`Network abnormal, please try again later (${status})`);
}

/** The localized text of a catalogue key, or the raw text when it is not in the catalogue. */
export function errorKeyText(raw: string, i18n: I18n = globalI18n): string {
  const key = normalizeErrorKey(raw);
  return key ? i18n._(ERROR_MESSAGES[key]) : raw;
}

/**
 * §8 global handling: the mapped message, else the error text; server faults and
 * other statuses by the server-error handler; unknown errors as raw text.
 */
export function describeError(error: unknown, i18n: I18n = globalI18n): string {
  if (isApiError(error)) {
    if (error.kind === 'client') return error.rawMessage ? errorKeyText(error.rawMessage, i18n) : i18n._(NETWORK_ABNORMAL);
    return serverErrorMessage(error.status, i18n);
  }
  if (error instanceof Error) return error.message || i18n._(NETWORK_ABNORMAL);
  if (typeof error === 'string' && error) return errorKeyText(error, i18n);
  return i18n._(NETWORK_ABNORMAL);
}

/** Shows an error as a notification; server faults are logged to the console as well. */
export function notifyError(error: unknown, i18n: I18n = globalI18n): void {
  if (isApiError(error) && error.kind !== 'client') console.error(error);
  notifications.show({ color: 'red', title: i18n._(msg`Error`), message: describeError(error, i18n) });
}
