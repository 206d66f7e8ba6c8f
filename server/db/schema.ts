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

export type Database = {
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  rate_limits: RateLimitsTable;
};
