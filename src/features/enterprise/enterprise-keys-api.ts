import type { CertificateDto, KeyLogDto, KeyStateDto, KeyUsageDto, OperatorCustodyRequestDto, PkiCaDto } from '../../../core/enterprise-keys.ts';
import type { I18n } from '@lingui/core';
import { normalizeErrorKey } from '../../../core/errors.ts';
import { api, isApiError } from '@/api/client.ts';
import { describeError, errorKeyText } from '@/api/error-messages.ts';

/** The enterprise key, certificate and custody calls (docs/enterprise-keys.md). */
export type Paged<T> = { items: T[]; page: number; page_size: number; total: number };

export const fetchKeyState = (signal?: AbortSignal) => api.get<KeyStateDto>('/v1/enterprises/keys', { signal });
export const depositKey = (body: { encrypted_private_key: string; csr: string; deposit_signature: string }) => api.post<KeyStateDto>('/v1/enterprises/keys', body);
export const fetchCertificates = (query: { page: number; page_size: number }, signal?: AbortSignal) => api.get<Paged<CertificateDto>>('/v1/enterprises/certificates', { query, signal });
export const fetchCertificate = (id: number, signal?: AbortSignal) => api.get<CertificateDto>(`/v1/enterprises/certificates/${id}`, { signal });
export const fetchKeyLog = (query: { page: number; page_size: number }, signal?: AbortSignal) => api.get<Paged<KeyLogDto>>('/v1/enterprises/keys/log', { query, signal });
export const fetchKeyBackup = () => api.get<{ pem: string; file_name: string }>('/v1/enterprises/keys/backup');
export const startKeyUsage = (body: { file_hash: string; file_name: string; file_size: number }) => api.post<KeyUsageDto>('/v1/enterprises/keys/usages', body);
export const reportSignature = (usageId: number, signature: string) => api.put<{ log_id: number }>(`/v1/enterprises/keys/usages/${usageId}`, { signature });
/** §7 v1 PUT /enterprises (private_key_status). */
export const setKeyStatus = (body: { private_key_status: number; reason?: string; confirm_name?: string; revocation_reason?: number }) => api.put<KeyStateDto>('/v1/enterprises', body);
export const fetchPkiCa = (signal?: AbortSignal) => api.get<PkiCaDto>('/v1/pki/ca', { signal });

/** The CRL as bytes (DER); null when it cannot be had (the page then says revocation was not checked). */
export async function fetchCrl(apiBase: string, signal?: AbortSignal): Promise<Uint8Array | null> {
  try {
    // Always the current list: a revocation a minute ago must show, whatever an HTTP cache holds.
    const response = await fetch(`${apiBase}/v1/pki/crl`, { signal, cache: 'no-store' });
    return response.status === 200 ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

export const fetchCustodyRequests = (status?: number) => api.get<OperatorCustodyRequestDto[]>('/v1/operator/key-custody-requests', { query: { status } });
export const reviewCustodyRequest = (id: number, status: 2 | 3, reason: string) => api.put<unknown>(`/v1/operator/key-custody-requests/${id}`, { status, reason });

/** Saves bytes or text as a file in the browser. */
export function saveFile(name: string, content: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function derOfPem(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----[A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A file-name-safe short form of an enterprise name. */
export function fileSafe(name: string): string {
  return name.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 60) || 'enterprise';
}

/** A worker's error carries a §8 key as its message (wrong passphrase, mismatched key); anything else as usual. */
export function keyErrorText(error: unknown, i18n: I18n): string {
  if (error instanceof Error && !isApiError(error) && normalizeErrorKey(error.message)) return errorKeyText(error.message, i18n);
  return describeError(error, i18n);
}
