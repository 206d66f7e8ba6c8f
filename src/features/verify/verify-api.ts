import { api } from '@/api/client.ts';

type PlatformKey = { key_id: string; algorithm: string; spki: string; created_at: number };

/** The platform's published signing keys; the page pins them while it is online. */
export async function fetchPlatformKeyIds(): Promise<string[]> {
  const keys = await api.get<PlatformKey[]>('/v1/ledger/platform-keys');
  return keys.map((k) => k.key_id);
}
