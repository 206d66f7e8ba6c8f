import { api } from '@/api/client.ts';
import type { Paged } from '../../../core/api-types.ts';
import type { PartnerContractBody, PartnerContractDto, PartnerTotalDto, PublicFiguresDto } from '../../../core/partners.ts';

/** Partner recruitment and the front pages' figures. */
export const fetchPartnerTotal = (signal?: AbortSignal) => api.get<PartnerTotalDto>('/v1/partners/total', { signal });
export const submitPartnerContract = (body: PartnerContractBody) => api.post<null>('/v1/partners/contracts', body);
export const fetchPublicFigures = (signal?: AbortSignal) => api.get<PublicFiguresDto>('/v1/public/figures', { signal });
export const fetchOperatorPartnerContracts = (query: { page: number; page_size: number }, signal?: AbortSignal) =>
  api.get<Paged<PartnerContractDto>>('/v1/operator/partner-contracts', { query, signal });
export const partnerExportUrl = (format: 'csv' | 'xlsx') => `/api/v1/operator/partner-contracts/export?format=${format}`;
