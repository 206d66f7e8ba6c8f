import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';

/**
 * Passwords are stored as scrypt (N=2^15, r=8, p=1, 64-byte key, 16-byte salt):
 * slow and memory-hard, with no native dependency. The parameters are stored with
 * the hash so they can be raised later without invalidating old hashes.
 */
const PARAMS = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyB64, 'base64');
  const key = await derive(password, Buffer.from(saltB64, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Published once per login check that had no account to check against: the dummy
 * hash was verified instead, so that an unknown login id costs the same scrypt work as
 * a known one (no timing oracle). Tests subscribe to see that path taken.
 */
export const dummyVerifyChannel = diagnostics.channel('provena:password:dummy-verify');

let dummyHash: Promise<string> | undefined;

/** Checks `password` against `stored`, or, when there is no account, against a real scrypt hash of a random password (always false). */
export async function verifyPasswordOrDummy(password: string, stored: string | undefined): Promise<boolean> {
  if (stored !== undefined) return verifyPassword(password, stored);
  dummyHash ??= hashPassword(randomBytes(16).toString('base64'));
  await verifyPassword(password, await dummyHash);
  if (dummyVerifyChannel.hasSubscribers) dummyVerifyChannel.publish({});
  return false;
}
