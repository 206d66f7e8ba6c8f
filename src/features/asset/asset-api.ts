import { api, ApiError, SERVER_EXCEPTION } from '@/api/client.ts';
import type { AssetBatchResponse, AssetDto, AssetListQuery, AssetPage, AssetRegisterInput, AssetRegistrantDto } from '../../../core/assets.ts';
import type { CreditSummaryDto } from '../../../core/credits.ts';

/** The /api/v1/assets calls (issue 6, §7 style: `{ data }`, paged lists, array parameters repeat the key). */

export const fetchAssets = (query: AssetListQuery, signal?: AbortSignal) => api.get<AssetPage>('/v1/assets', { query, signal });
export const fetchRegistrants = (signal?: AbortSignal) => api.get<AssetRegistrantDto[]>('/v1/assets/registrants', { signal });
export const fetchAsset = (dna: string, signal?: AbortSignal) => api.get<AssetDto>(`/v1/assets/${encodeURIComponent(dna)}`, { signal });
export const registerAsset = (input: AssetRegisterInput) => api.post<AssetDto>('/v1/assets', input);
export const registerAssets = (items: AssetRegisterInput[], signal?: AbortSignal) => api.post<AssetBatchResponse>('/v1/assets/batch', { items }, { signal });

/**
 * Downloads an asset's certificate PDF. The answer is a PDF or a §8 JSON error, so it is
 * fetched and checked before the browser saves it.
 */
export async function downloadAssetProof(apiBase: string, asset: { dip_id: string }): Promise<void> {
  const response = await fetch(`${apiBase}/v1/assets/${encodeURIComponent(asset.dip_id)}/proof`, { credentials: 'include' });
  if (response.status !== 200) {
    const body = (await response.json().catch(() => null)) as { message?: string; field_name?: string } | null;
    throw new ApiError({ status: response.status, kind: response.status === 400 ? 'client' : 'exception', rawMessage: body?.message ?? SERVER_EXCEPTION, fieldName: body?.field_name, body });
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `provena-proof-${asset.dip_id}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The caller's own credits (§3 available credits), to show beside the price before registering. */
export const fetchCreditSummary = (signal?: AbortSignal) => api.get<CreditSummaryDto>('/v1/credits/summary', { signal });
