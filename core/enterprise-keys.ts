/**
 * The enterprise key, its certificate and the platform's custody of the key (§3
 * private_key_status, §4, §6 "cancel key custody", §7 v1 PUT /enterprises). Shared by the
 * server (who may do what, the transitions) and the browser (the same rules, the screens).
 * docs/enterprise-keys.md tells the whole story.
 */
import { ROLES } from './constants.ts';
import type { ErrorKey } from './errors.ts';
import { concat, utf8 } from './ledger/bytes.ts';

/**
 * §3/§4 private_key_status. §4 fixes 1 (custodied), 2 (custody cancelled: under review, an
 * agent follows up) and 4 (identity revoked); 0 and 3 fill the gaps a real life cycle has:
 * no key deposited yet, and custody ended (the operator completed the cancellation).
 */
export const PRIVATE_KEY_STATUS = { none: 0, custodied: 1, cancelRequested: 2, custodyEnded: 3, revoked: 4 } as const;
export type PrivateKeyStatus = (typeof PRIVATE_KEY_STATUS)[keyof typeof PRIVATE_KEY_STATUS];

/** A key ceremony (new key, new certificate) may start from these states. */
export const DEPOSIT_FROM: readonly number[] = [PRIVATE_KEY_STATUS.none, PRIVATE_KEY_STATUS.custodyEnded, PRIVATE_KEY_STATUS.revoked];

/** A cancel-custody request reviewed by a platform operator. */
export const CUSTODY_REQUEST_STATUS = { pending: 1, completed: 2, rejected: 3, withdrawn: 4, superseded: 5 } as const;

/** RFC 5280 §5.3.1 CRLReason values the platform records. */
export const REVOCATION_REASON = { unspecified: 0, keyCompromise: 1, superseded: 4, cessationOfOperation: 5 } as const;
export const REVOCATION_REASON_VALUES: readonly number[] = Object.values(REVOCATION_REASON);

/** Enterprise certificates are valid for two years. */
export const ENTERPRISE_CERT_VALIDITY_DAYS = 730;
/** After custody ends the encrypted key stays downloadable this long, then it is erased. */
export const KEY_LAST_DOWNLOAD_DAYS = 7;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The kind of ledger entry that registers an enterprise certificate's SHA-256. */
export const CERTIFICATE_LEDGER_KIND = 'certificate';

/** Key passphrase rules (checked in the browser only: the platform never sees the passphrase). */
export const KEY_PASSPHRASE_MIN = 12;
export const KEY_PASSPHRASE_MAX = 256;
/** A passphrase this long may be plain words (one character class). */
export const KEY_PASSPHRASE_LONG = 20;

function classesOf(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
}

/**
 * The key passphrase: 12–256 characters; under 20 characters it needs three of lower
 * case, upper case, digits and symbols; no run of one character over three; it must not
 * contain the enterprise name, licence number or the member's phone (`avoid`).
 */
export function checkKeyPassphrase(value: string, avoid: readonly string[] = []): ErrorKey | null {
  if (!value) return 'required';
  if (Array.from(value).length < KEY_PASSPHRASE_MIN) return 'key_passphrase_too_short';
  if (Array.from(value).length > KEY_PASSPHRASE_MAX) return 'lt';
  const lower = value.toLowerCase();
  if (avoid.some((word) => word.trim().length >= 4 && lower.includes(word.trim().toLowerCase()))) return 'key_passphrase_contains_identity';
  if (/(.)\1{3,}/u.test(value)) return 'key_passphrase_weak';
  if (Array.from(value).length < KEY_PASSPHRASE_LONG && classesOf(value) < 3) return 'key_passphrase_weak';
  return null;
}

/** A rough strength for the meter, 0 (weak) – 4 (very strong): estimated bits / 20. */
export function passphraseStrength(value: string): number {
  if (!value) return 0;
  const pools = [/[a-z]/.test(value) ? 26 : 0, /[A-Z]/.test(value) ? 26 : 0, /\d/.test(value) ? 10 : 0, /[^A-Za-z0-9]/.test(value) ? 33 : 0];
  const pool = Math.max(10, pools.reduce((a, b) => a + b, 0));
  const unique = new Set(Array.from(value)).size;
  const effective = Math.min(Array.from(value).length, unique * 2);
  return Math.max(0, Math.min(4, Math.floor((effective * Math.log2(pool)) / 20)));
}

/** What the caller may do with the key, by role (§3) and status; the server and the screens use the same answer. */
export type KeyPermissions = {
  /** Start the key ceremony: super administrator only (the enterprise's identity is the owner's act). */
  can_deposit: boolean;
  /** Fetch the encrypted key to sign with it: administrators (1, 2), while custodied. */
  can_sign: boolean;
  /** §6 cancel key custody: administrators (1, 2), from custodied. */
  can_cancel_custody: boolean;
  /** Withdraw a pending cancellation before an agent acts: administrators. */
  can_withdraw_cancel: boolean;
  /** Revoke the enterprise identity (certificate revoked, key erased at once): super administrator. */
  can_revoke: boolean;
  /** Download the encrypted key (backup; the last window after custody ends): administrators. */
  can_download_key: boolean;
  /** The key usage history: administrators and the confidentiality officer (§6 sees all enterprise data). */
  can_view_log: boolean;
};

export function isKeyAdmin(role: number): boolean {
  return role === ROLES.superAdmin || role === ROLES.admin;
}

export function keyPermissions(role: number, status: number, isKeyStored: boolean): KeyPermissions {
  const isSuper = role === ROLES.superAdmin;
  const isAdmin = isKeyAdmin(role);
  return {
    can_deposit: isSuper && DEPOSIT_FROM.includes(status),
    can_sign: isAdmin && status === PRIVATE_KEY_STATUS.custodied && isKeyStored,
    can_cancel_custody: isAdmin && status === PRIVATE_KEY_STATUS.custodied,
    can_withdraw_cancel: isAdmin && status === PRIVATE_KEY_STATUS.cancelRequested,
    can_revoke: isSuper && (status === PRIVATE_KEY_STATUS.custodied || status === PRIVATE_KEY_STATUS.cancelRequested || status === PRIVATE_KEY_STATUS.custodyEnded),
    can_download_key: isAdmin && isKeyStored,
    can_view_log: isAdmin || role === ROLES.confidentialityOfficer,
  };
}

/**
 * §7 v1 PUT /enterprises (private_key_status): what an enterprise member may ask for.
 * 'forbidden' → 403 (the role may never do it), 'invalid' → 400 private_key_status_invalid
 * (not from this state), else the transition's name.
 */
export type MemberTransition = 'cancel_custody' | 'withdraw_cancel' | 'revoke_identity';
export function memberTransition(role: number, from: number, to: number): MemberTransition | 'forbidden' | 'invalid' {
  if (!isKeyAdmin(role)) return 'forbidden';
  if (to === PRIVATE_KEY_STATUS.revoked) {
    if (role !== ROLES.superAdmin) return 'forbidden';
    return keyPermissions(role, from, false).can_revoke ? 'revoke_identity' : 'invalid';
  }
  if (to === PRIVATE_KEY_STATUS.cancelRequested) return from === PRIVATE_KEY_STATUS.custodied ? 'cancel_custody' : 'invalid';
  if (to === PRIVATE_KEY_STATUS.custodied) return from === PRIVATE_KEY_STATUS.cancelRequested ? 'withdraw_cancel' : 'invalid';
  // 0 comes only with a new enterprise, 1 from 0/3/4 only through a deposit, 3 only from an operator.
  return 'invalid';
}

/**
 * The deposit proof: the new key signs SHA-256 of the encrypted PEM exactly as sent,
 * bound to the enterprise. The PEM is encrypted, so the platform cannot read its public
 * key; this signature, checked with the CSR's key, shows the PEM was deposited by the
 * holder of that key (and the browser checked before sending that the PEM opens to it).
 */
export function depositMessage(enterpriseId: number, pemSha256: Uint8Array): Uint8Array {
  return concat(utf8.encode(`provena-key-deposit-v1\0${enterpriseId}\0`), pemSha256);
}

/** The certificate subject the platform issues for an enterprise (and the CSR must carry exactly). */
export type EnterpriseSubject = { country: string; organization: string; organizationIdentifier: string; commonName: string };
export function enterpriseSubject(enterprise: { name: string; license_no: string }): EnterpriseSubject {
  // ETSI EN 319 412-1 §5.1.4 organizationIdentifier: "NTR" (national trade register) + ISO 3166 country + "-" + number.
  return { country: 'CN', organization: enterprise.name, organizationIdentifier: `NTRCN-${enterprise.license_no}`, commonName: enterprise.name };
}

/** Everything the key usage history records. */
export const KEY_LOG_ACTIONS = [
  'key_deposited',
  'certificate_issued',
  'key_fetched',
  'signed',
  'key_downloaded',
  'custody_cancel_requested',
  'custody_cancel_withdrawn',
  'custody_cancel_rejected',
  'custody_cancel_completed',
  'certificate_revoked',
  'identity_revoked',
  'key_deleted',
] as const;
export type KeyLogAction = (typeof KEY_LOG_ACTIONS)[number];

/** API shapes (§7 style `{ data }`). */
export type NameAttributeDto = { type: string; oid: string; value: string };
export type CertificateStatus = 'active' | 'expired' | 'revoked';
export type CertificateDto = {
  certificate_id: number;
  serial_number: string;
  subject: NameAttributeDto[];
  subject_text: string;
  issuer_text: string;
  not_before: number;
  not_after: number;
  fingerprint: string;
  key_usage: string[];
  public_key: string;
  signature_algorithm: string;
  dna: string;
  status: CertificateStatus;
  revoked_at: number | null;
  revocation_reason: number | null;
  created_at: number;
  /** The certificate, then the issuing CA and the platform root (PEM). */
  pem: string;
  chain_pem: string;
};
export type CustodyRequestDto = {
  id: number;
  status: number;
  reason: string;
  review_reason: string;
  requested_by: string;
  created_at: number;
  reviewed_at: number | null;
};
export type EnterpriseKeyDto = {
  key_id: number;
  deposited_at: number;
  deposited_by: string;
  is_stored: boolean;
  delete_after: number | null;
  deleted_at: number | null;
  pem_sha256: string;
  kdf_iterations: number;
};
export type KeyStateDto = {
  private_key_status: number;
  role: number;
  permissions: KeyPermissions;
  /** The subject a new CSR must carry (only to whoever may deposit). */
  subject: EnterpriseSubject | null;
  key: EnterpriseKeyDto | null;
  certificate: CertificateDto | null;
  custody_request: CustodyRequestDto | null;
};
export type KeyLogDto = {
  log_id: number;
  action: KeyLogAction;
  actor: string;
  is_operator: boolean;
  from_status: number | null;
  to_status: number | null;
  file_hash: string | null;
  detail: Record<string, unknown>;
  created_at: number;
};
export type KeyUsageDto = { usage_id: number; encrypted_private_key: string; certificate: CertificateDto };
export type OperatorCustodyRequestDto = CustodyRequestDto & {
  enterprise_id: number;
  enterprise_name: string;
  requester_phone: string;
  private_key_status: number;
  certificate_serial: string | null;
};
export type PkiCaDto = { roots: Array<{ fingerprint: string; pem: string }>; issuing_cas: Array<{ fingerprint: string; root_fingerprint: string; pem: string }> };
