import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { KeyLogAction } from '../../../core/enterprise-keys.ts';

/** §3 private_key_status as the enterprise centre shows it. */
export const KEY_STATUS_LABELS: Record<number, MessageDescriptor> = {
  0: msg`No key yet`,
  1: msg`Custodied`,
  2: msg`Custody cancelled, under review`,
  3: msg`Custody ended`,
  4: msg`Identity revoked`,
};
export const KEY_STATUS_COLORS: Record<number, string> = { 0: 'gray', 1: 'green', 2: 'orange', 3: 'gray', 4: 'red' };

export const KEY_STATUS_HINTS: Record<number, MessageDescriptor> = {
  0: msg`The enterprise has no digital identity yet. The super administrator creates the enterprise key in the browser; the platform keeps only the encrypted key and issues the enterprise certificate.`,
  1: msg`The platform keeps the encrypted enterprise key in custody. Administrators sign files with it; only someone who knows the key passphrase can use it.`,
  2: msg`An administrator has cancelled the custody. A platform agent will contact the enterprise to confirm; until then the key cannot be used for signing.`,
  3: msg`Custody has ended and the certificate is revoked. The encrypted key can be downloaded until it is erased; the super administrator may create a new key.`,
  4: msg`The enterprise identity is revoked: the certificate is revoked and the key erased. The super administrator may create a new key and certificate.`,
};

export const CUSTODY_REQUEST_LABELS: Record<number, MessageDescriptor> = {
  1: msg`Pending review`,
  2: msg`Completed`,
  3: msg`Rejected`,
  4: msg`Withdrawn`,
  5: msg`Superseded by revocation`,
};

/** RFC 5280 CRLReason. */
export const REVOCATION_REASON_LABELS: Record<number, MessageDescriptor> = {
  0: msg`Unspecified`,
  1: msg`Key compromise`,
  4: msg`Superseded`,
  5: msg`Cessation of operation`,
};

export const KEY_LOG_LABELS: Record<KeyLogAction, MessageDescriptor> = {
  key_deposited: msg`Deposited the enterprise key`,
  certificate_issued: msg`Certificate issued`,
  key_fetched: msg`Fetched the key to sign`,
  signed: msg`Signed a file`,
  key_downloaded: msg`Downloaded the encrypted key`,
  custody_cancel_requested: msg`Cancelled the custody`,
  custody_cancel_withdrawn: msg`Withdrew the cancellation`,
  custody_cancel_rejected: msg`Cancellation rejected by the platform`,
  custody_cancel_completed: msg`Cancellation completed by the platform`,
  certificate_revoked: msg`Certificate revoked`,
  identity_revoked: msg`Revoked the enterprise identity`,
  key_deleted: msg`Encrypted key erased`,
};

export const CERTIFICATE_STATUS_LABELS: Record<string, MessageDescriptor> = {
  active: msg`Valid`,
  expired: msg`Expired`,
  revoked: msg({ message: 'Revoked', context: 'certificate' }),
};
export const CERTIFICATE_STATUS_COLORS: Record<string, string> = { active: 'green', expired: 'gray', revoked: 'red' };
