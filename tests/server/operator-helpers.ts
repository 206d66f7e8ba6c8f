import * as OTPAuth from 'otpauth';
import { upsertOperator } from '../../server/services/operators.ts';
import type { Harness } from './harness.ts';

/** The code an authenticator app shows for a base32 secret at `timestamp`. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });
}

/**
 * Creates an operator (as `provena operator-create` does) and logs it in the way a new
 * operator does: password, enrollment of the authenticator from the offered secret, and
 * a first code. Returns the console cookie, the secret and the recovery codes.
 */
export async function enrolledOperator(h: Harness, loginId: string, password = 'OperatorPass1'): Promise<{ cookie: string; secret: string; recoveryCodes: string[] }> {
  await upsertOperator(h.app.db, { loginId, password });
  const first = await h.request({ method: 'POST', url: '/api/v1/operator/tokens', body: { login_id: loginId, password } });
  const secret = first.json().data?.enroll?.secret as string | undefined;
  if (first.statusCode !== 200 || !secret) throw new Error(`operator enrollment not offered: ${first.body}`);
  const res = await h.request({ method: 'POST', url: '/api/v1/operator/tokens', body: { login_id: loginId, password, totp_code: totpCode(secret) } });
  if (res.statusCode !== 200) throw new Error(`operator login failed: ${res.body}`);
  return { cookie: res.cookies.map((c) => `${c.name}=${c.value}`).join('; '), secret, recoveryCodes: res.json().data.recovery_codes };
}

/** A logged-in operator's console cookie. */
export async function operatorLogin(h: Harness, loginId: string, password = 'OperatorPass1'): Promise<string> {
  return (await enrolledOperator(h, loginId, password)).cookie;
}
