import { api } from '@/api/client.ts';
import {
  decodeMetricBinary,
  type ActivatePayload,
  type BridgePayload,
  type CommunityPayload,
  type EnterprisePayload,
  type GraphPayload,
  type LatestActivatePayload,
  type MetricBinary,
  type Paged,
  type ScorePayload,
  type StructuralHolePayload,
  type TimelineEntry,
  type TimelinePayload,
} from '../../../core/score-api.ts';

/** The §7 enterprise-score API (base from the deployment configuration). */
const V = '/v1';

/**
 * The whole map in its binary form (typed arrays, ready for the layout worker), with the
 * data version the layout cache is keyed by.
 */
export async function fetchMetric(scoreBase: string, signal?: AbortSignal): Promise<MetricBinary> {
  const response = await fetch(`${scoreBase}${V}/metric?format=binary`, { credentials: 'include', signal });
  if (!response.ok) throw new Error(`metric: HTTP ${response.status}`);
  return decodeMetricBinary(await response.arrayBuffer());
}

export const fetchEnterprise = (uuid: string, signal?: AbortSignal) => api.get<EnterprisePayload>(`${V}/enterprise`, { base: 'score', query: { uuid }, signal });
export const activateEnterprise = (uuid: string) => api.post<ActivatePayload>(`${V}/enterprise/activate/${encodeURIComponent(uuid)}`, undefined, { base: 'score' });
export const fetchLatestActivation = (signal?: AbortSignal) => api.get<LatestActivatePayload>(`${V}/enterprise/latest-activate`, { base: 'score', signal });

/** Pages through a paged call until every item is loaded. */
async function loadAll<T>(load: (page: number) => Promise<Paged<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const { data, total } = await load(page);
    items.push(...data);
    if (data.length === 0 || items.length >= total) return items;
  }
}

export const fetchTimeline = (uuid: string, signal?: AbortSignal): Promise<TimelineEntry[]> =>
  loadAll((page) => api.get<TimelinePayload>(`${V}/score/timeline/${encodeURIComponent(uuid)}`, { base: 'score', query: { page, page_size: 500 }, signal }));

export const fetchScores = (uuid: string, signal?: AbortSignal) =>
  loadAll((page) => api.get<ScorePayload>(`${V}/score/${encodeURIComponent(uuid)}`, { base: 'score', query: { page, page_size: 500 }, signal }));

export const fetchGraphs = (uuid: string, range: { start?: number; end?: number }, signal?: AbortSignal) =>
  api.get<GraphPayload>(`${V}/score/graph/${encodeURIComponent(uuid)}`, { base: 'score', query: { page_size: 30, ...range }, signal });

export const fetchCommunities = (uuid: string, range: { start?: number; end?: number }, signal?: AbortSignal) =>
  api.get<CommunityPayload>(`${V}/score/community/${encodeURIComponent(uuid)}`, { base: 'score', query: { page_size: 30, ...range }, signal });

export const fetchStructuralHoles = (uuid: string, page: number, pageSize: number, signal?: AbortSignal) =>
  api.get<StructuralHolePayload>(`${V}/score/structual_hole/${encodeURIComponent(uuid)}`, { base: 'score', query: { page, page_size: pageSize }, signal });

export const fetchBridges = (uuid: string, page: number, pageSize: number, signal?: AbortSignal) =>
  api.get<BridgePayload>(`${V}/score/bridge/${encodeURIComponent(uuid)}`, { base: 'score', query: { page, page_size: pageSize }, signal });
