import type { LightMyRequestResponse } from 'fastify';
import { signedHeaders } from '../../core/applications.ts';
import type { Harness } from './harness.ts';

export type AppCredentials = { application_id: number; key_id: string; secret: string };

/** An application made through the management API by an administrator's cookie. */
export async function createApplication(h: Harness, cookie: string, fields: Record<string, unknown> = {}): Promise<AppCredentials> {
  const res = await h.request({ method: 'POST', url: '/api/v1/applications', cookie, body: { name: `应用${Math.random().toString(36).slice(2, 8)}`, description: '', interval_seconds: 60, grace_seconds: 30, ...fields } });
  if (res.statusCode !== 200) throw new Error(`create application failed: ${res.body}`);
  return res.json().data;
}

/** A request to the open API signed with the application's key (scheme in core/applications.ts). */
export function signed(
  h: Harness,
  creds: { key_id: string; secret: string },
  method: string,
  url: string,
  body?: unknown,
  opts: { headers?: Record<string, string>; now?: number; nonce?: string; tamper?: (headers: Record<string, string>) => void } = {},
): Promise<LightMyRequestResponse> {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const headers = signedHeaders(creds.key_id, creds.secret, { method, path: url, body: raw, ...(opts.now !== undefined ? { now: opts.now } : {}), ...(opts.nonce ? { nonce: opts.nonce } : {}) });
  opts.tamper?.(headers);
  return h.app.inject({ method: method as 'GET', url, ...(raw ? { payload: raw } : {}), headers: { ...headers, ...(raw ? { 'content-type': 'application/json' } : {}), ...opts.headers } });
}
