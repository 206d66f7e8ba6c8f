import type { Generated } from 'kysely';

/** External applications (migration 0025). Times are milliseconds since the epoch. */
export type ApplicationsTable = {
  id: Generated<number>;
  enterprise_id: number;
  owner_user_id: number;
  name: string;
  description: Generated<string>;
  interval_seconds: number;
  grace_seconds: number;
  /** JSON arrays. */
  alarm_phones: Generated<string>;
  webhook_urls: Generated<string>;
  is_paused: Generated<number>;
  deleted_at: number | null;
  state: Generated<string>;
  state_reason: Generated<string>;
  state_since: number | null;
  last_seen_at: number | null;
  created_at: number;
};

export type ApplicationKeysTable = {
  key_id: string;
  application_id: number;
  /** The secret sealed under the platform key-encryption key (the server needs it to check HMACs). */
  sealed_secret: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
};

export type ApplicationNoncesTable = { key_id: string; nonce: string; expires_at: number };

export type ApplicationFilesTable = {
  id: Generated<number>;
  application_id: number;
  enterprise_id: number;
  name: string;
  file_hash: string;
  digest: string;
  size: number;
  metadata: string | null;
  dna: string;
  credits: Generated<number>;
  created_at: number;
};

export type ApplicationIdempotencyTable = { application_id: number; idem_key: string; request_hash: string; status: number; response: string; created_at: number };

/** Per application and minute: what arrived, for the state, the error rate and the charts. */
export type ApplicationStatsTable = {
  application_id: number;
  minute: number;
  registrations: Generated<number>;
  bytes: Generated<number>;
  heartbeats: Generated<number>;
  refusals: Generated<number>;
  signature_failures: Generated<number>;
};

export type ApplicationTransitionsTable = { id: Generated<number>; application_id: number; from_state: string; to_state: string; reason: string; at: number };

export type ApplicationAlarmsTable = {
  id: Generated<number>;
  application_id: number;
  transition_id: number | null;
  kind: string;
  state: string;
  reason: string;
  created_at: number;
  acknowledged_at: number | null;
  acknowledged_by: number | null;
};

export type ApplicationDeliveriesTable = {
  id: Generated<number>;
  alarm_id: number;
  channel: string;
  target: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  last_error: Generated<string>;
  response_status: number | null;
  delivered_at: number | null;
  created_at: number;
};

export type ApplicationTables = {
  applications: ApplicationsTable;
  application_keys: ApplicationKeysTable;
  application_nonces: ApplicationNoncesTable;
  application_files: ApplicationFilesTable;
  application_idempotency: ApplicationIdempotencyTable;
  application_stats: ApplicationStatsTable;
  application_transitions: ApplicationTransitionsTable;
  application_alarms: ApplicationAlarmsTable;
  application_deliveries: ApplicationDeliveriesTable;
};
