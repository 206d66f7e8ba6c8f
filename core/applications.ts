/**
 * External applications: the §4 connection states, the create/edit rules and the
 * request-signing scheme of the open API, shared by the server, the agent and the browser.
 *
 * Signing (a documented equivalent of RFC 9421 for one fixed set of components): every
 * request to `/open-api/v1` carries
 *   X-Provena-Key:        the key id (`ak_…`)
 *   X-Provena-Timestamp:  Unix seconds; the server refuses one more than 300 s away from its clock
 *   X-Provena-Nonce:      16–64 characters of [A-Za-z0-9_-], never reused by a key within the window
 *   X-Provena-Signature:  `v1=` + base64(HMAC-SHA256(secret, signing string))
 * where the signing string is the lines
 *   provena-v1 \n METHOD \n path-with-query \n timestamp \n nonce \n hex(SHA-256(raw body))
 * (no trailing newline; an empty body hashes the empty string). The secret is the one shown
 * once when the key was made. Webhooks the platform sends to an application are signed the
 * same way with that application's newest active key, so a receiver reuses this code.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toBase64, toHex, utf8 } from './ledger/bytes.ts';
import type { ErrorKey } from './errors.ts';

/** §4 application connection states. */
export const APPLICATION_STATES = ['not_connected', 'normal', 'abnormal', 'interrupted'] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

export const APPLICATION_NAME_MAX = 64;
export const APPLICATION_DESCRIPTION_MAX = 500;
/** Expected push interval and grace period: from 5 seconds to 30 days. */
export const INTERVAL_MIN_SECONDS = 5;
export const INTERVAL_MAX_SECONDS = 30 * 24 * 60 * 60;
export const ALARM_PHONES_MAX = 10;
export const WEBHOOKS_MAX = 5;
/** Two keys may be active at once (rotation: make the new one, switch, revoke the old). */
export const ACTIVE_KEYS_MAX = 2;
export const FILE_BATCH_MAX = 500;
export const FILE_NAME_MAX = 400;
/** Metadata is a JSON object of at most this many bytes once serialised. */
export const METADATA_MAX_BYTES = 8 * 1024;

export const SIGNATURE_WINDOW_SECONDS = 300;
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const KEY_ID_PATTERN = /^ak_[0-9a-f]{24}$/;
export const HEADER = {
  key: 'x-provena-key',
  timestamp: 'x-provena-timestamp',
  nonce: 'x-provena-nonce',
  signature: 'x-provena-signature',
  idempotency: 'idempotency-key',
} as const;

export function bodyDigestHex(body: string | Uint8Array): string {
  return toHex(sha256(typeof body === 'string' ? utf8.encode(body) : body));
}

export function signingString(input: { method: string; path: string; timestamp: string | number; nonce: string; body: string | Uint8Array }): string {
  return ['provena-v1', input.method.toUpperCase(), input.path, String(input.timestamp), input.nonce, bodyDigestHex(input.body)].join('\n');
}

/** `v1=` + base64 HMAC-SHA256 of the signing string under the secret (its UTF-8 bytes). */
export function signRequest(secret: string, input: { method: string; path: string; timestamp: string | number; nonce: string; body: string | Uint8Array }): string {
  return `v1=${toBase64(hmac(sha256, utf8.encode(secret), utf8.encode(signingString(input))))}`;
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The four headers of a signed request (the agent, tests and webhook deliveries use this). */
export function signedHeaders(keyId: string, secret: string, input: { method: string; path: string; body: string; now?: number; nonce?: string }): Record<string, string> {
  const timestamp = Math.floor((input.now ?? Date.now()) / 1000);
  const nonce = input.nonce ?? randomNonce();
  return {
    [HEADER.key]: keyId,
    [HEADER.timestamp]: String(timestamp),
    [HEADER.nonce]: nonce,
    [HEADER.signature]: signRequest(secret, { method: input.method, path: input.path, timestamp, nonce, body: input.body }),
  };
}

/** Constant-time comparison of two signatures. */
export function signaturesEqual(a: string, b: string): boolean {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

export type ApplicationInput = {
  name: string;
  description: string;
  interval_seconds: number;
  grace_seconds: number;
  alarm_phones: string[];
  webhook_urls: string[];
};

type Checked<T> = { ok: true; value: T } | { ok: false; message: ErrorKey; field_name: string };

const PHONE = /^1\d{10}$/;

function seconds(value: unknown): number | null {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < INTERVAL_MIN_SECONDS || n > INTERVAL_MAX_SECONDS) return null;
  return n;
}

export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && value.length <= 500;
  } catch {
    return false;
  }
}

/** §5-style checks of a create/edit form, each answering on its field. `partial` (edit) lets fields be absent. */
export function checkApplicationInput(raw: unknown, partial = false): Checked<Partial<ApplicationInput>> {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const out: Partial<ApplicationInput> = {};
  if (!partial || r.name !== undefined) {
    const name = typeof r.name === 'string' ? r.name.trim() : '';
    if (!name) return { ok: false, message: 'required', field_name: 'name' };
    if (name.length > APPLICATION_NAME_MAX) return { ok: false, message: 'invalid_param', field_name: 'name' };
    out.name = name;
  }
  if (!partial || r.description !== undefined) {
    const d = r.description ?? '';
    if (typeof d !== 'string' || d.length > APPLICATION_DESCRIPTION_MAX) return { ok: false, message: 'invalid_param', field_name: 'description' };
    out.description = d.trim();
  }
  for (const field of ['interval_seconds', 'grace_seconds'] as const) {
    if (partial && r[field] === undefined) continue;
    if (r[field] === undefined || r[field] === null || r[field] === '') return { ok: false, message: 'required', field_name: field };
    const n = seconds(r[field]);
    if (n === null) return { ok: false, message: 'invalid_param', field_name: field };
    out[field] = n;
  }
  if (!partial || r.alarm_phones !== undefined) {
    const phones = r.alarm_phones ?? [];
    if (!Array.isArray(phones) || phones.length > ALARM_PHONES_MAX || !phones.every((p) => typeof p === 'string' && PHONE.test(p.trim()))) return { ok: false, message: 'phone_invalid', field_name: 'alarm_phones' };
    out.alarm_phones = [...new Set(phones.map((p: string) => p.trim()))];
  }
  if (!partial || r.webhook_urls !== undefined) {
    const urls = r.webhook_urls ?? [];
    if (!Array.isArray(urls) || urls.length > WEBHOOKS_MAX || !urls.every((u) => typeof u === 'string' && isWebhookUrl(u.trim()))) return { ok: false, message: 'invalid_param', field_name: 'webhook_urls' };
    out.webhook_urls = [...new Set(urls.map((u: string) => u.trim()))];
  }
  return { ok: true, value: out };
}

export type ApplicationKeyDto = { key_id: string; created_at: number; revoked_at: number | null; last_used_at: number | null };

/** An application as the management API answers it: what was set (ApplicationInput) and what the platform knows of it. */
export type ApplicationDto = ApplicationInput & {
  application_id: number;
  is_paused: boolean;
  state: ApplicationState;
  state_reason: string;
  state_since: number | null;
  last_seen_at: number | null;
  owner_user_id: number;
  owner_name: string;
  file_count: number;
  created_at: number;
  keys: ApplicationKeyDto[];
  unacknowledged_alarms: number;
};

export type ApplicationFileDto = {
  file_id: number;
  application_id: number;
  dip_id: string;
  name: string;
  file_hash: string;
  size: number;
  metadata: Record<string, unknown> | null;
  credits: number;
  proof_status: number;
  is_generated: boolean;
  block_height: number | null;
  registered_at: number;
};

export type ApplicationTransitionDto = { transition_id: number; from_state: ApplicationState; to_state: ApplicationState; reason: string; at: number };

export type ApplicationDeliveryDto = { channel: 'sms' | 'webhook'; target: string; status: 'pending' | 'delivered' | 'failed'; attempts: number; last_error: string; delivered_at: number | null };

export type ApplicationAlarmDto = {
  alarm_id: number;
  kind: 'abnormal' | 'interrupted' | 'recovered' | 'reminder';
  state: ApplicationState;
  reason: string;
  created_at: number;
  acknowledged_at: number | null;
  acknowledged_by: string;
  deliveries: ApplicationDeliveryDto[];
};

export type ApplicationStatsDto = { bucket_seconds: number; points: Array<{ at: number; registrations: number; bytes: number; errors: number }> };
