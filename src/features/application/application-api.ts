import { api } from '@/api/client.ts';
import { downloadFile } from '@/api/download.ts';
import type { Paged } from '../../../core/api-types.ts';
import type { ApplicationAlarmDto, ApplicationDto, ApplicationFileDto, ApplicationStatsDto, ApplicationTransitionDto } from '../../../core/applications.ts';

/** The /api/v1/applications calls. */

export type ApplicationForm = { name: string; description: string; interval_seconds: number; grace_seconds: number; alarm_phones: string[]; webhook_urls: string[] };
export type CreatedKey = { application_id: number; key_id: string; secret: string };
export type ApplicationPage = Paged<ApplicationDto> & { can_manage: boolean };
export type ApplicationDetail = ApplicationDto & { can_manage: boolean };
export type ApplicationFileDetail = ApplicationFileDto & { application_name: string };

const base = (id: number | string) => `/v1/applications/${encodeURIComponent(String(id))}`;

export const fetchApplications = (page: number, signal?: AbortSignal) => api.get<ApplicationPage>('/v1/applications', { query: { page }, signal });
export const createApplication = (form: ApplicationForm) => api.post<CreatedKey>('/v1/applications', form);
export const fetchApplication = (id: number | string, signal?: AbortSignal) => api.get<ApplicationDetail>(base(id), { signal });
export const updateApplication = (id: number, form: Partial<ApplicationForm> & { is_paused?: boolean }) => api.put<ApplicationDto>(base(id), form);
export const deleteApplication = (id: number) => api.delete<{ application_id: number }>(base(id));
export const createKey = (id: number) => api.post<CreatedKey>(`${base(id)}/keys`);
export const revokeKey = (id: number, keyId: string) => api.delete<ApplicationDto>(`${base(id)}/keys/${encodeURIComponent(keyId)}`);
export const fetchFiles = (id: number | string, page: number, signal?: AbortSignal) => api.get<Paged<ApplicationFileDto>>(`${base(id)}/files`, { query: { page }, signal });
export const fetchFile = (id: number | string, fileId: string, signal?: AbortSignal) => api.get<ApplicationFileDetail>(`${base(id)}/files/${encodeURIComponent(fileId)}`, { signal });
export const fetchStats = (id: number | string, hours: number, signal?: AbortSignal) => api.get<ApplicationStatsDto>(`${base(id)}/stats`, { query: { hours }, signal });
export const fetchTransitions = (id: number | string, signal?: AbortSignal) => api.get<ApplicationTransitionDto[]>(`${base(id)}/transitions`, { signal });
export const fetchAlarms = (id: number | string, signal?: AbortSignal) => api.get<ApplicationAlarmDto[]>(`${base(id)}/alarms`, { signal });
export const acknowledgeAlarm = (id: number, alarmId: number) => api.put<{ alarm_id: number }>(`${base(id)}/alarms/${alarmId}`);

export const downloadFileProof = (apiBase: string, applicationId: number | string, dna: string) => downloadFile(`${apiBase}${base(applicationId)}/files/${encodeURIComponent(dna)}/proof`, `provena-proof-${dna}.pdf`);
