import { api } from '@/api/client.ts';
import { downloadFile } from '@/api/download.ts';
import type { AssetBatchResponse, AssetDto, AssetListQuery, AssetPage, AssetRegisterInput, AssetRegistrantDto } from '../../../core/assets.ts';
import type { CreditSummaryDto } from '../../../core/credits.ts';

/** The /api/v1/assets calls (§7 style: `{ data }`, paged lists, array parameters repeat the key). */

export const fetchAssets = (query: AssetListQuery, signal?: AbortSignal) => api.get<AssetPage>('/v1/assets', { query, signal });
export const fetchRegistrants = (signal?: AbortSignal) => api.get<AssetRegistrantDto[]>('/v1/assets/registrants', { signal });
export const fetchAsset = (dna: string, signal?: AbortSignal) => api.get<AssetDto>(`/v1/assets/${encodeURIComponent(dna)}`, { signal });
export const registerAsset = (input: AssetRegisterInput) => api.post<AssetDto>('/v1/assets', input);
export const registerAssets = (items: AssetRegisterInput[], signal?: AbortSignal) => api.post<AssetBatchResponse>('/v1/assets/batch', { items }, { signal });

/** Downloads an asset's certificate PDF (or rejects with the §8 error the server answered). */
export const downloadAssetProof = (apiBase: string, asset: { dip_id: string }) =>
  downloadFile(`${apiBase}/v1/assets/${encodeURIComponent(asset.dip_id)}/proof`, `provena-proof-${asset.dip_id}.pdf`);

/** The caller's own credits (§3 available credits), to show beside the price before registering. */
export const fetchCreditSummary = (signal?: AbortSignal) => api.get<CreditSummaryDto>('/v1/credits/summary', { signal });
