import { api } from '@/api/client.ts';
import type { Trust } from '../../../workers/verify/verify.worker.ts';

type PlatformKey = { key_id: string; purpose?: string; algorithm: string; spki: string; created_at: number; root_fingerprint: string | null };
type PlatformRoot = { fingerprint: string; certificate: string; created_at: number };

const TRUST_STORAGE_KEY = 'provena-platform-trust';

/**
 * The platform's published signing keys and X.509 roots: the page pins them. They are
 * kept in local storage, so that a page that later verifies offline still pins what it
 * saw online rather than trusting whatever key a proof names.
 */
export async function fetchPlatformTrust(): Promise<Trust> {
  try {
    const [keys, roots] = await Promise.all([api.get<PlatformKey[]>('/v1/ledger/platform-keys'), api.get<PlatformRoot[]>('/v1/ledger/platform-roots')]);
    // Only block-signing keys sign blocks; proof-signing and time-stamping keys are listed beside them.
    const trust: Trust = { keyIds: keys.filter((k) => (k.purpose ?? 'block') === 'block').map((k) => k.key_id), rootFingerprints: roots.map((r) => r.fingerprint) };
    try {
      localStorage.setItem(TRUST_STORAGE_KEY, JSON.stringify(trust));
    } catch {
      // Not kept; this visit still pins.
    }
    return trust;
  } catch (error) {
    const kept = readKeptTrust();
    if (kept) return kept;
    throw error;
  }
}

function readKeptTrust(): Trust | null {
  try {
    const v = JSON.parse(localStorage.getItem(TRUST_STORAGE_KEY) ?? 'null') as Trust | null;
    const isList = (x: unknown) => Array.isArray(x) && x.every((k) => typeof k === 'string' && /^[0-9a-f]{64}$/.test(k));
    return v && isList(v.keyIds) && isList(v.rootFingerprints) ? v : null;
  } catch {
    return null;
  }
}
