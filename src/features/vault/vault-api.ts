import { api, ApiError, isApiError, SERVER_EXCEPTION } from '@/api/client.ts';
import { SMS_TYPES } from '../../../core/constants.ts';
import type { Paged, VaultAuthorizationDto, VaultFileDto, VaultLogDto, VaultProjectDto } from '../../../core/vault.ts';

/** The /api/v1/vault calls (issue 6, §7 style: `{ data }`, paged lists). */

export function isVaultExpired(error: unknown): boolean {
  return isApiError(error) && error.key === 'vault_login_status_expired';
}

export const fetchVaultAuthorization = (signal?: AbortSignal) => api.get<VaultAuthorizationDto>('/v1/vault/authorization', { signal });
/** Sends the unlock code (type 18) to the member's own phone. */
export const sendVaultCode = () => api.get<null>('/v1/validation/private-code', { query: { type: SMS_TYPES.vaultUnlock } });
export const unlockVault = (phone: string, code: string) => api.post<VaultAuthorizationDto>('/v1/vault/authorization', { new_phone_number: phone, validation_code: code });
export const lockVault = () => api.delete<VaultAuthorizationDto>('/v1/vault/authorization');

export const fetchProjects = (query: { page: number; page_size: number; keyword?: string }, signal?: AbortSignal) =>
  api.get<Paged<VaultProjectDto>>('/v1/vault/projects', { query, signal });
export const fetchProject = (projectId: number, signal?: AbortSignal) => api.get<VaultProjectDto>(`/v1/vault/projects/${projectId}`, { signal });
export const createProject = (input: { name: string; description: string }) => api.post<VaultProjectDto>('/v1/vault/projects', input);
export const updateProject = (projectId: number, input: { name: string; description: string }) => api.put<VaultProjectDto>(`/v1/vault/projects/${projectId}`, input);

/** A project's files; with `dip_id` and no `page`, the page holding that file (a search result). */
export const fetchFiles = (projectId: number, query: { page?: number; page_size: number; dip_id?: string }, signal?: AbortSignal) =>
  api.get<Paged<VaultFileDto>>(`/v1/vault/projects/${projectId}/files`, { query, signal });
export const registerFile = (projectId: number, input: { name: string; file_hash: string; size: number }) => api.post<VaultFileDto>(`/v1/vault/projects/${projectId}/files`, input);

export const fetchLogs = (query: { page: number; page_size: number; project_id?: number }, signal?: AbortSignal) => api.get<Paged<VaultLogDto>>('/v1/vault/logs', { query, signal });

/**
 * Downloads a file's certificate PDF. The answer is a PDF or a §8 JSON error (the vault
 * may have expired), so it is fetched and checked before the browser saves it.
 */
export async function downloadProof(apiBase: string, file: { file_id: number; dip_id: string }): Promise<void> {
  const response = await fetch(`${apiBase}/v1/vault/files/${file.file_id}/proof`, { credentials: 'include' });
  if (response.status !== 200) {
    const body = (await response.json().catch(() => null)) as { message?: string; field_name?: string } | null;
    throw new ApiError({ status: response.status, kind: response.status === 400 ? 'client' : 'exception', rawMessage: body?.message ?? SERVER_EXCEPTION, fieldName: body?.field_name, body });
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `provena-proof-${file.dip_id}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
