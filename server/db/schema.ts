import type { Generated } from 'kysely';
import type { ApplicationTables } from './schema-applications.ts';

/** Times are integer milliseconds since the epoch (§3). */
export type UsersTable = {
  id: Generated<number>;
  phonenumber: string;
  login_id: string | null;
  name: string;
  password_hash: string;
  card_no: Generated<string>;
  real_name: Generated<string>;
  icon_color: string;
  tag: Generated<number>;
  is_frozen: Generated<number>;
  failed_logins: Generated<number>;
  locked_until: Generated<number>;
  current_enterprise_id: Generated<number | null>;
  created_at: number;
  updated_at: number;
};

export type SessionsTable = {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  phone_change_until: Generated<number>;
  ip: string;
  user_agent: string;
};

export type SmsCodesTable = {
  id: Generated<number>;
  phone: string;
  type: number;
  code_hash: string;
  created_at: number;
  expires_at: number;
  attempts: Generated<number>;
  used_at: number | null;
};

export type SmsOutboxTable = {
  id: Generated<number>;
  phone: string;
  code: string;
  type: number;
  body: string;
  sent_at: number;
};

export type RateLimitsTable = {
  key: string;
  window_start: number;
  count: number;
};

/** `sealed_key`: the private key sealed by the keyring (server/keys/keyring.ts), never plaintext. */
export type LedgerKeysTable = { key_id: string; spki: string; sealed_key: string; created_at: number; retired_at: number | null };
/** Proof-signing and time-stamping keys, each certified by the platform root. */
export type PlatformKeysTable = { key_id: string; purpose: string; spki: string; sealed_key: string; certificate: string; root_fingerprint: string; created_at: number; retired_at: number | null };
export type PlatformRootsTable = { fingerprint: string; spki: string; sealed_key: string; certificate: string; created_at: number };
export type LedgerKeyCertificatesTable = { key_id: string; root_fingerprint: string; certificate: string; created_at: number };

export type LedgerEntriesTable = {
  id: Generated<number>;
  dna: string;
  record: string;
  leaf_hash: string;
  file_hash: string;
  salt: string;
  kind: string;
  enterprise_name: string;
  registrant_user_id: number | null;
  registered_at: number;
  leaf_index: number | null;
  block_height: number | null;
  /** Migration 0043: the certificate's validity and language, until the sealer creates the entry's `proofs` row (NULL on entries registered before). */
  proof_valid_ms: number | null;
  proof_locale: string | null;
};

export type LedgerBlocksTable = {
  height: number;
  hash: string;
  prev_hash: string;
  tree_size: number;
  root: string;
  sealed_at: number;
  key_id: string;
  header: string;
  signature: string;
  entry_count: number;
};

/** Proof certificate jobs: status 1–4 generating, 5 generated, 6 regenerated (§3). */
export type ProofsTable = {
  dna: string;
  status: number;
  generation: Generated<number>;
  valid_ms: number;
  issued_at: number | null;
  expires_at: number | null;
  /** Only in rows written before migration 0036 (and not yet moved by the backfill); see pdf_key. */
  pdf: Uint8Array | null;
  /** The certificate in the object store (`proofs/<dna>/<generation>.pdf`), its size and SHA-256 (hex); null until rendered. */
  pdf_key: string | null;
  pdf_size: number | null;
  pdf_sha256: string | null;
  error: string | null;
  updated_at: number;
  /** zh, en or ja: the certificate's main language (the registrant's). */
  locale: Generated<string>;
  /** 1 when `pdf` carries the platform's page signature (PAdES); older certificates are signed in place. */
  page_signed: Generated<number>;
};

export type EnterprisesTable = {
  id: Generated<number>;
  name: string;
  license_no: string;
  legal_person: string;
  license_image_id: string;
  channel: number;
  apply_book_id: string | null;
  organization_code_certificate_id: string | null;
  verify_status: number;
  private_key_status: Generated<number>;
  invitation_code: string;
  created_by: number;
  created_at: number;
  updated_at: number;
};

/** Membership: role 0–4 (§3), status 1 confirmed, 2 applied, 3 rejected, 4 frozen. */
export type EmployeesTable = {
  id: Generated<number>;
  enterprise_id: number;
  user_id: number;
  role: Generated<number>;
  status: number;
  /** The name an administrator gave this member here ('' = the account's own name). */
  display_name: Generated<string>;
  created_at: number;
  updated_at: number;
};

export type InvitationsTable = {
  id: Generated<number>;
  enterprise_id: number;
  user_id: number;
  inviter_id: number;
  role: Generated<number>;
  status: number;
  /** The name the administrator typed for the invited account; it becomes employees.display_name on acceptance. */
  member_name: Generated<string>;
  created_at: number;
  updated_at: number;
};

export type EnterpriseApplicationsTable = {
  id: Generated<number>;
  user_id: number;
  name: string;
  license_no: string;
  legal_person: string;
  license_image_id: string;
  apply_book_id: string;
  organization_code_certificate_id: string | null;
  status: number;
  reason: Generated<string>;
  enterprise_id: number | null;
  reviewed_by: number | null;
  reviewed_at: number | null;
  created_at: number;
  updated_at: number;
};

export type OperatorsTable = {
  id: Generated<number>;
  login_id: string;
  name: Generated<string>;
  password_hash: string;
  created_at: number;
  /** Sealed TOTP secret (null until enrolled) and the one offered at enrollment. */
  totp_secret: string | null;
  totp_pending: string | null;
  totp_last_step: Generated<number>;
};
export type OperatorRecoveryCodesTable = { id: Generated<number>; operator_id: number; code_hash: string; used_at: number | null };
/** Append-only (database triggers refuse UPDATE and DELETE). */
export type OperatorAuditTable = { id: Generated<number>; operator_id: number | null; login_id: string; action: string; target: Generated<string>; detail: Generated<string>; ip: Generated<string>; created_at: number };
export type OperatorSessionsTable = { id: string; operator_id: number; created_at: number; expires_at: number };
export type FilesTable = { id: string; size: number; type: string; created_at: number };
export type FileOwnersTable = { file_id: string; user_id: number; created_at: number };

export type LedgerCheckpointAnchorsTable = {
  height: number;
  tree_size: number;
  note: string;
  checkpoint_hash: string;
  chain_id: number;
  address: string;
  tx_hash: string;
  block_number: number;
  anchored_at: number;
};
/** An anchor transaction signed and about to be (or already) sent: see migration 0037. */
export type LedgerAnchorIntentsTable = {
  address: string;
  nonce: number;
  height: number;
  tree_size: number;
  note: string;
  checkpoint_hash: string;
  chain_id: number;
  tx_hash: string;
  raw_tx: string;
  state: 'sent' | 'recorded' | 'replaced' | 'failed';
  created_at: number;
};
/** Migration 0040: resumable uploads shared by API replicas (server/storage/shared-staging.ts). */
export type UploadSessionsTable = {
  id: string;
  meta: string;
  upload_offset: number;
  size: number;
  lock_owner: string | null;
  lock_until: number | null;
  created_at: number;
  finished_at: number | null;
};
export type LedgerAnchorsTable = { height: number; block_hash: string; chain_id: number; tx_hash: string; block_number: number; anchored_at: number };

/** Vault: trade-secret projects, their registered files, the audit log, unlocked sessions. */
export type VaultProjectsTable = {
  id: Generated<number>;
  enterprise_id: number;
  owner_user_id: number;
  name: string;
  description: Generated<string>;
  created_at: number;
  updated_at: number;
};
export type VaultFilesTable = {
  id: Generated<number>;
  project_id: number;
  enterprise_id: number;
  user_id: number;
  name: string;
  file_hash: string;
  digest: string;
  size: Generated<number>;
  dna: string;
  credits: Generated<number>;
  created_at: number;
};
export type VaultLogsTable = {
  id: Generated<number>;
  enterprise_id: number;
  project_id: number | null;
  user_id: number;
  action: string;
  detail: Generated<string>;
  created_at: number;
};
export type VaultSessionsTable = { session_id: string; user_id: number; enterprise_id: number; unlocked_at: number; expires_at: number };

/** Digital assets: registered files of an enterprise with their §3 type. */
export type AssetsTable = {
  id: Generated<number>;
  enterprise_id: number;
  user_id: number;
  name: string;
  type: number;
  description: Generated<string>;
  file_hash: string;
  digest: string;
  size: Generated<number>;
  dna: string;
  credits: Generated<number>;
  created_at: number;
};

/** Stored files and disclosures. */
export type StoredFilesTable = { id: string; size: number; created_at: number };
export type StoredFileOwnersTable = { file_id: string; enterprise_id: number; user_id: number; name: string; created_at: number };
export type DisclosuresTable = {
  id: string;
  enterprise_id: number;
  sender_user_id: number;
  file_id: string;
  name: string;
  received_phone: string;
  store_name: string;
  type: number;
  store_forever: number;
  expires_at: number | null;
  status: number;
  created_at: number;
  revoked_at: number | null;
};
export type DisclosureEventsTable = { id: Generated<number>; disclosure_id: string; kind: string; at: number; detail: string | null };
export type DisclosureSessionsTable = { token_hash: string; disclosure_id: string; verified_at: number; accepted_at: number | null; expires_at: number };
export type DisclosureLinksTable = { token_hash: string; disclosure_id: string; session_hash: string; created_at: number; expires_at: number };
export type DisclosureReceiptsTable = {
  id: Generated<number>;
  disclosure_id: string;
  session_hash: string;
  dna: string;
  file_hash: string;
  agreement_hash: string;
  receiver_phone: string;
  ip: string;
  user_agent: string;
  received_at: number;
};

/** Credits: accounts (user_id null = the enterprise's pool), the movements ledger, top-up orders. */
export type CreditAccountsTable = { id: Generated<number>; enterprise_id: number; user_id: number | null; balance: Generated<number>; created_at: number; updated_at: number };
export type CreditMovementsTable = {
  id: Generated<number>;
  account_id: number;
  enterprise_id: number;
  user_id: number | null;
  kind: string;
  delta: number;
  balance_after: number;
  reference: string | null;
  detail: Generated<string>;
  counterpart_account_id: number | null;
  actor_user_id: number | null;
  actor_operator_id: number | null;
  created_at: number;
};
export type CreditOrdersTable = {
  id: Generated<number>;
  order_no: string;
  enterprise_id: number;
  amount: number;
  note: Generated<string>;
  provider: string;
  status: number;
  reason: Generated<string>;
  created_by: number;
  cancelled_by: number | null;
  decided_by_operator: number | null;
  decided_at: number | null;
  created_at: number;
  updated_at: number;
};
/** Membership history (home feed): whom it is about, who did it, what (core/home.ts MEMBER_EVENT_KINDS). */
export type MemberEventsTable = {
  id: Generated<number>;
  enterprise_id: number;
  user_id: number;
  actor_user_id: number | null;
  kind: string;
  role: number | null;
  created_at: number;
};

/** Enterprise keys in custody, their certificates, cancel-custody requests and the key log (0014). */
export type EnterpriseCasTable = { fingerprint: string; root_fingerprint: string; spki: string; sealed_key: string; certificate: string; created_at: number };
export type EnterpriseKeysTable = {
  id: Generated<number>;
  enterprise_id: number;
  spki: string;
  encrypted_pem: string | null;
  pem_sha256: string;
  kdf_iterations: number;
  csr: string;
  deposit_signature: string;
  deposited_by: number;
  deposited_at: number;
  retired_at: number | null;
  delete_after: number | null;
  deleted_at: number | null;
};
export type EnterpriseCertificatesTable = {
  id: Generated<number>;
  enterprise_id: number;
  key_id: number;
  ca_fingerprint: string;
  serial_number: string;
  fingerprint: string;
  subject: string;
  not_before: number;
  not_after: number;
  der: string;
  dna: string;
  revoked_at: number | null;
  revocation_reason: number | null;
  created_at: number;
};
export type KeyCustodyRequestsTable = {
  id: Generated<number>;
  enterprise_id: number;
  key_id: number | null;
  requested_by: number;
  reason: Generated<string>;
  status: number;
  operator_id: number | null;
  review_reason: Generated<string>;
  reviewed_at: number | null;
  created_at: number;
  updated_at: number;
};
export type EnterpriseKeyLogTable = {
  id: Generated<number>;
  enterprise_id: number;
  key_id: number | null;
  certificate_id: number | null;
  user_id: number | null;
  operator_id: number | null;
  action: string;
  from_status: number | null;
  to_status: number | null;
  file_hash: string | null;
  ref_id: number | null;
  detail: Generated<string>;
  ip: Generated<string>;
  created_at: number;
};

/** Source-code projects. */
export type RepoProjectsTable = {
  id: Generated<number>;
  enterprise_id: number;
  owner_user_id: number;
  name: string;
  description: Generated<string>;
  url: Generated<string>;
  dna: string;
  created_at: number;
};
export type RepoTokensTable = {
  id: Generated<number>;
  project_id: number;
  token_sha256: string;
  prefix: string;
  created_by: number;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
};
export type RepoCommitsTable = {
  id: Generated<number>;
  project_id: number;
  enterprise_id: number;
  user_id: number;
  commit_id: string;
  tree_id: string;
  record: string;
  record_sha256: string;
  author_name: string;
  author_time: number;
  dna: string;
  credits: Generated<number>;
  created_at: number;
  /** When a force-push left it unreachable from every reported ref (migration 0028). */
  orphaned_at: number | null;
  /** JSON CommitChange[]: changed paths with line counts against the first parent, as the reader computed them. */
  changes: string | null;
};
export type RepoRefsTable = {
  id: Generated<number>;
  project_id: number;
  name: string;
  commit_id: string;
  updated_at: number;
};
export type RepoForcePushesTable = {
  id: Generated<number>;
  project_id: number;
  ref_name: string;
  old_commit: string;
  new_commit: string;
  orphaned: Generated<string>;
  user_id: number;
  detected_at: number;
};
/** Partner applications from the partners page. */
export type PartnerContractsTable = {
  id: Generated<number>;
  enterprise_name: string;
  name: string;
  contract_number: string;
  corporation: string;
  ip: Generated<string>;
  created_at: number;
};
/** The chat assistant. */
export type GptConversationsTable = { id: Generated<number>; enterprise_id: number; user_id: number; title: string; created_at: number; last_message_at: number };
export type GptMessagesTable = { id: Generated<number>; conversation_id: number; role: string; content: string; citations: Generated<string>; status: Generated<string>; engine: string | null; created_at: number };
export type GptUsageTable = { id: Generated<number>; enterprise_id: number; user_id: number; conversation_id: number | null; engine: string; model: Generated<string>; prompt_tokens: number; completion_tokens: number; created_at: number };

export type Database = {
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  rate_limits: RateLimitsTable;
  ledger_keys: LedgerKeysTable;
  platform_roots: PlatformRootsTable;
  platform_keys: PlatformKeysTable;
  ledger_key_certificates: LedgerKeyCertificatesTable;
  ledger_entries: LedgerEntriesTable;
  ledger_blocks: LedgerBlocksTable;
  proofs: ProofsTable;
  enterprises: EnterprisesTable;
  employees: EmployeesTable;
  invitations: InvitationsTable;
  enterprise_applications: EnterpriseApplicationsTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_recovery_codes: OperatorRecoveryCodesTable;
  operator_audit: OperatorAuditTable;
  files: FilesTable;
  file_owners: FileOwnersTable;
  ledger_anchors: LedgerAnchorsTable;
  ledger_checkpoint_anchors: LedgerCheckpointAnchorsTable;
  ledger_anchor_intents: LedgerAnchorIntentsTable;
  upload_sessions: UploadSessionsTable;
  stored_files: StoredFilesTable;
  stored_file_owners: StoredFileOwnersTable;
  disclosures: DisclosuresTable;
  disclosure_events: DisclosureEventsTable;
  disclosure_sessions: DisclosureSessionsTable;
  disclosure_links: DisclosureLinksTable;
  disclosure_receipts: DisclosureReceiptsTable;
  vault_projects: VaultProjectsTable;
  vault_files: VaultFilesTable;
  vault_logs: VaultLogsTable;
  vault_sessions: VaultSessionsTable;
  credit_accounts: CreditAccountsTable;
  credit_movements: CreditMovementsTable;
  credit_orders: CreditOrdersTable;
  assets: AssetsTable;
  member_events: MemberEventsTable;
  enterprise_cas: EnterpriseCasTable;
  enterprise_keys: EnterpriseKeysTable;
  enterprise_certificates: EnterpriseCertificatesTable;
  key_custody_requests: KeyCustodyRequestsTable;
  enterprise_key_log: EnterpriseKeyLogTable;
  repo_projects: RepoProjectsTable;
  repo_tokens: RepoTokensTable;
  repo_commits: RepoCommitsTable;
  repo_refs: RepoRefsTable;
  repo_force_pushes: RepoForcePushesTable;
  partner_contracts: PartnerContractsTable;
  gpt_conversations: GptConversationsTable;
  gpt_messages: GptMessagesTable;
  gpt_usage: GptUsageTable;
} & ApplicationTables;
