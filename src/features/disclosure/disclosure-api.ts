import type { CreateDisclosureInput, DisclosurePublicDto, DisclosureRecordDto, StoredFileDto } from '../../../core/disclosure.ts';
import type { Paged } from '../../../core/api-types.ts';
import { api } from '@/api/client.ts';

export type DisclosurePage = Paged<DisclosureRecordDto>;
export type DisclosureDetail = DisclosurePublicDto & { record?: DisclosureRecordDto };

// Sender (§7 v2).
export const fetchDisclosures = (query: { page: number; page_size: number }, signal?: AbortSignal) => api.get<DisclosurePage>('/v2/disclosures/records', { query, signal });
export const fetchDisclosableFiles = (signal?: AbortSignal) => api.get<StoredFileDto[]>('/v1/storage/files', { signal });
export const sendSenderCode = () => api.get<null>('/v2/disclosures/validation-code');
export const createDisclosure = (body: CreateDisclosureInput) => api.post<DisclosureRecordDto & { link: string }>('/v2/disclosures', body);
export const revokeDisclosure = (id: string) => api.put<DisclosureRecordDto>(`/v2/disclosures/records/${encodeURIComponent(id)}/revoke`);

// Receiver, no login (§7 v2, §4 receipt flow).
export const fetchDisclosure = (id: string, signal?: AbortSignal) => api.get<DisclosureDetail>(`/v2/disclosures/records/${encodeURIComponent(id)}`, { signal, isSessionProbe: true });
export const sendReceiverCode = (id: string) => api.post<null>(`/v2/disclosures/records/${encodeURIComponent(id)}/validation-code`, undefined, { isSessionProbe: true });
export const checkIdentify = (disclosureId: string, validationCode: string) =>
  api.put<{ step: number }>('/v2/disclosures/check-identify', { disclosure_id: disclosureId, validation_code: validationCode }, { isSessionProbe: true });
export const acceptProtocol = (id: string) => api.put<{ step: number }>(`/v2/disclosures/receive/${encodeURIComponent(id)}`, undefined, { isSessionProbe: true });
export const fetchFileLink = (id: string, signal?: AbortSignal) =>
  api.get<{ file_link: string }>(`/v2/disclosures/records/${encodeURIComponent(id)}/file-link`, { signal, isSessionProbe: true });
