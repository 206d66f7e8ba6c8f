import type {
  AddMemberResult,
  BulkRowResult,
  CompanyDto,
  EmployeeDto,
  InvitationDto,
  InvitedCompany,
  LicenceOcrDto,
  OperatorApplicationDto,
  OperatorDto,
  OperatorAuditEntryDto,
  OperatorJobsDto,
  OperatorLoginResult,
  UploadInfo,
  UserDto,
} from '../../../core/api-types.ts';
import { SMS_TYPES } from '../../../core/constants.ts';
import { fileIdentity } from '../../../core/file-identity.ts';
import { toHex } from '../../../core/ledger/bytes.ts';
import { ApiError, api, isApiError } from '@/api/client.ts';

let companyInFlight: Promise<CompanyDto> | null = null;
/**
 * The Company state. Callers at the same moment (the dashboard guard and the navigation's search
 * box mount together) share one request; a call after it settled asks again.
 */
export const fetchCompany = (): Promise<CompanyDto> =>
  (companyInFlight ??= api.get<CompanyDto>('/v1/enterprises').finally(() => {
    companyInFlight = null;
  }));
export const commitUserAuth = (body: { card_no: string; name: string; front_image_id?: string; back_image_id?: string }) => api.post<UserDto>('/v2/users/verified-token', body);
export type IdCardOcrDto = { card_no: string; name: string; valid_until: string };
export const ocrIdCard = (imageId: string, side: 'front' | 'back') => api.post<IdCardOcrDto>('/v1/users/ocr/identity-card', { image_id: imageId, side });
export const joinByName = (name: string) => api.post<CompanyDto>('/v1/enterprises/employees', { name });
export const joinByCode = (invitationCode: string) => api.post<CompanyDto>('/v2/enterprises/employees', { invitation_code: invitationCode });
export const fetchInvitedCompany = () => api.get<InvitedCompany | null>('/v2/users/invitation/enterprise');
export const dealInvite = (id: number, status: 2 | 3) => api.put<CompanyDto>(`/v2/users/invitation/${id}`, { status });
export const switchDisplayCompany = (enterpriseId: number) => api.put<CompanyDto>('/v1/users/switch-enterprise', { enterprise_id: enterpriseId });
export const sendLegalPersonCode = () => api.get<null>('/v1/validation/private-code', { query: { type: SMS_TYPES.legalPerson } });
export const ocrLicence = (imageId: string) => api.post<LicenceOcrDto>('/v1/enterprises/ocr/license', { image_id: imageId });

export type LicenceForm = { name: string; license: string; legal_person: string; license_image_id: string };
export const createByLegalPerson = (body: LicenceForm & { validation_code: string }) => api.post<CompanyDto>('/v1/enterprises/legal-person', body);
export const createByTable = (body: LicenceForm & { apply_book_id: string; organization_code_certificate_id: string | null }) => api.post<CompanyDto>('/v1/enterprises/agent', body);
export const recommitByTable = (body: LicenceForm & { apply_book_id: string; organization_code_certificate_id: string | null }) => api.put<CompanyDto>('/v2/enterprises/agent', body);
export const applicationFormUrl = (name: string, license: string) =>
  `/api/v1/enterprises/application-form?name=${encodeURIComponent(name)}&license=${encodeURIComponent(license)}`;

export type EmployeePage = { items: EmployeeDto[]; total: number; page: number; page_size: number };
export const fetchEmployees = (query: { keyword?: string; status?: number; page: number; page_size: number }) => api.get<EmployeePage>('/v1/enterprises/employees', { query });
export const setEmployeeStatus = (employeeId: number, status: number) => api.put<unknown>('/v1/enterprises/employees', { employee_id: employeeId, status });
export const setMemberRole = (employeeId: number, role: number) => api.put<unknown>(`/v2/users/members/${employeeId}`, { role });
export type NewMember = { phone: string; name: string; role: number; password: string };
export const addMember = (member: NewMember, signal?: AbortSignal) => api.post<AddMemberResult>('/v2/users/members', member, { signal });
export const addMembers = (members: NewMember[]) => api.post<{ imported: boolean; results: BulkRowResult[] }>('/v2/users/invitation/members', { members });
export const fetchInvitations = () => api.get<InvitationDto[]>('/v2/enterprises/invitations');
export const regenerateInvitationCode = () => api.put<{ invitation_code: string }>('/v1/enterprises/invitation-code');

export const operatorLogin = (body: { login_id: string; password: string; totp_code?: string; recovery_code?: string }) => api.post<OperatorLoginResult>('/v1/operator/tokens', body);
export const fetchOperatorAudit = (page: number, pageSize: number) =>
  api.get<{ items: OperatorAuditEntryDto[]; total: number; page: number; page_size: number }>('/v1/operator/audit', { query: { page, page_size: pageSize } });
export const fetchOperatorJobs = () => api.get<OperatorJobsDto>('/v1/operator/jobs');
export const operatorLogout = () => api.delete<null>('/v1/operator/tokens');
export const fetchOperator = () => api.get<OperatorDto>('/v1/operator/me');
export const fetchApplications = (status?: number) => api.get<OperatorApplicationDto[]>('/v1/operator/applications', { query: { status } });
export const reviewApplication = (id: number, status: 2 | 3, reason: string) => api.put<unknown>(`/v1/operator/applications/${id}`, { status, reason });

/** §7 file service: upload info by identity, then multipart POST with body_params; resolves with the identity. */
export async function uploadSmallFile(file: File): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  const uuid = fileIdentity(toHex(digest), file.name);
  const info = await api.post<UploadInfo>('/v1/files/upload-request', { uuid });
  if (info.exists) return uuid;
  const form = new FormData();
  for (const [key, value] of Object.entries(info.body_params)) form.append(key, value);
  form.append('name', file.name);
  form.append('file', file);
  let response: Response;
  try {
    response = await fetch(info.url, { method: 'POST', body: form, credentials: 'include' });
  } catch {
    throw new ApiError({ status: 0, kind: 'network', rawMessage: 'upload_failed' });
  }
  const body = (await response.json().catch(() => null)) as { message?: string; field_name?: string } | null;
  if (response.status === 200) return uuid;
  if (response.status === 400) throw new ApiError({ status: 400, kind: 'client', rawMessage: body?.message ?? 'upload_failed', fieldName: body?.field_name, body });
  throw new ApiError({ status: response.status, kind: 'exception', rawMessage: 'upload_failed', body });
}

export { isApiError };
