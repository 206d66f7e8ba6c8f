import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';

/**
 * The verifier's pinned platform roots: `$XDG_CONFIG_HOME/provena/trust.json` (default
 * `~/.config/provena`), a 0600 file in a 0700 folder. A root is added only by `provena trust
 * add <platform URL>`, which shows the fingerprint it pins; `provena verify` trusts these,
 * `PROVENA_TRUST_ROOTS` (comma-separated fingerprints, for CI) and `--trust-root`.
 */
export type TrustedRoot = { fingerprint: string; platform: string; added_at: string };
type TrustFile = { roots: TrustedRoot[] };

export const FINGERPRINT = /^[0-9a-f]{64}$/;

export function trustDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'provena');
}

export function trustFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(trustDir(env), 'trust.json');
}

/** The stored roots; none when there is no file. A file that is not ours to read is an error, not "nothing trusted". */
export function readTrustedRoots(env: NodeJS.ProcessEnv = process.env): TrustedRoot[] {
  let text: string;
  try {
    text = fs.readFileSync(trustFile(env), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const v = JSON.parse(text) as TrustFile;
  if (!v || !Array.isArray(v.roots)) throw new Error(`${trustFile(env)} is not a provena trust file`);
  return v.roots.filter((r) => r && typeof r.fingerprint === 'string' && FINGERPRINT.test(r.fingerprint));
}

export function writeTrustedRoots(roots: TrustedRoot[], env: NodeJS.ProcessEnv = process.env): void {
  const dir = trustDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = trustFile(env);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify({ roots } satisfies TrustFile, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

/** Fingerprints from PROVENA_TRUST_ROOTS; a malformed one is a usage error (returned as `bad`). */
export function envTrustedRoots(env: NodeJS.ProcessEnv = process.env): { roots: string[]; bad: string[] } {
  const items = (env.PROVENA_TRUST_ROOTS ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  return { roots: items.filter((s) => FINGERPRINT.test(s)), bad: items.filter((s) => !FINGERPRINT.test(s)) };
}

/** The platform's published roots, each fingerprint recomputed from its certificate (base64 DER). */
export async function fetchPlatformRoots(platformUrl: string, fetchImpl: typeof fetch = fetch): Promise<Array<{ fingerprint: string; created_at: number }>> {
  const url = new URL('/api/v1/ledger/platform-roots', platformUrl);
  const res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  const body = (await res.json()) as { data?: Array<{ fingerprint?: unknown; certificate?: unknown; created_at?: unknown }> };
  if (!Array.isArray(body.data) || body.data.length === 0) throw new Error(`${url} lists no platform roots`);
  return body.data.map((r) => {
    if (typeof r.certificate !== 'string' || typeof r.fingerprint !== 'string') throw new Error(`${url}: a root without its certificate`);
    const computed = createHash('sha256').update(Buffer.from(r.certificate, 'base64')).digest('hex');
    if (computed !== r.fingerprint.toLowerCase()) throw new Error(`${url}: the fingerprint ${r.fingerprint} is not its certificate's (${computed})`);
    return { fingerprint: computed, created_at: Number(r.created_at) };
  });
}
