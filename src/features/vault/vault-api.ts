import { api, isApiError } from '@/api/client.ts';
import { downloadFile } from '@/api/download.ts';
import { SMS_TYPES } from '../../../core/constants.ts';
import type { VaultAuthorizationDto, VaultFileDto, VaultLogDto, VaultProjectDto } from '../../../core/vault.ts';
import type { Paged } from '../../../core/api-types.ts';

/** The /api/v1/vault calls (§7 style: `{ data }`, paged lists). */

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

/** Downloads a file's certificate PDF (or rejects with the §8 error, e.g. the vault expired). */
export const downloadProof = (apiBase: string, file: { file_id: number; dip_id: string }) =>
  downloadFile(`${apiBase}/v1/vault/files/${file.file_id}/proof`, `provena-proof-${file.dip_id}.pdf`);
