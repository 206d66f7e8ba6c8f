import { api } from '@/api/client.ts';
import type { SearchResultDto } from '../../../core/search.ts';

/** §7 GET /search/dip-data with keyword (a DNA or a file fingerprint, already checked). */
export const searchDipData = (keyword: string, signal?: AbortSignal) => api.get<SearchResultDto>('/v1/search/dip-data', { query: { keyword }, signal });
