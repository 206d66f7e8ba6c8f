import type { Generated } from 'kysely';

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

export type LedgerKeysTable = { key_id: string; spki: string; pkcs8: string; created_at: number };

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
  pdf: Uint8Array | null;
  error: string | null;
  updated_at: number;
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

export type OperatorsTable = { id: Generated<number>; login_id: string; name: Generated<string>; password_hash: string; created_at: number };
export type OperatorSessionsTable = { id: string; operator_id: number; created_at: number; expires_at: number };
export type FilesTable = { id: string; size: number; type: string; created_at: number };
export type FileOwnersTable = { file_id: string; user_id: number; created_at: number };

export type LedgerAnchorsTable = { height: number; block_hash: string; chain_id: number; tx_hash: string; block_number: number; anchored_at: number };

export type Database = {
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  rate_limits: RateLimitsTable;
  ledger_keys: LedgerKeysTable;
  ledger_entries: LedgerEntriesTable;
  ledger_blocks: LedgerBlocksTable;
  proofs: ProofsTable;
  enterprises: EnterprisesTable;
  employees: EmployeesTable;
  invitations: InvitationsTable;
  enterprise_applications: EnterpriseApplicationsTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  files: FilesTable;
  file_owners: FileOwnersTable;
  ledger_anchors: LedgerAnchorsTable;
};
