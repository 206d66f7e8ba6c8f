import { api } from '@/api/client.ts';
import type { HomeActivityDto, HomeSummaryDto } from '../../../core/home.ts';

/** GET /api/v1/home/summary and /api/v1/home/activity (dashboard home). */
export const fetchHomeSummary = (signal?: AbortSignal) => api.get<HomeSummaryDto>('/v1/home/summary', { signal });
export const fetchHomeActivity = (query: { cursor?: string; limit?: number }, signal?: AbortSignal) => api.get<HomeActivityDto>('/v1/home/activity', { query, signal });
