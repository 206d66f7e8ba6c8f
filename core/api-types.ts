/** Shapes of the accounts API (§3 User, §7 calls) shared by server and browser. */

/** A §7 paged list, as every list call of the API answers it. */
export type Paged<T> = { items: T[]; page: number; page_size: number; total: number };

export type UserDto = {
  id: number;
  login_id: string | null;
  phonenumber: string;
  name: string;
  card_no: string;
  real_name: string;
  icon_color: string;
  allowEditProfile: boolean;
  created_at: number;
};

export type PasswordLoginBody = { login_id: string; password: string };
export type CodeLoginBody = { login_id: string; validation_code: string };
export type RegisterBody = { phonenumber: string; name?: string; password: string; validation_code: string };
export type ResetBody = { phonenumber: string; password: string; repeat_password?: string; validation_code?: string };
export type ChangePasswordBody = { old_password: string; new_password: string };
export type ChangeNameBody = { name: string };
export type OldPhoneCodeBody = { validation_code: string };
export type ChangePhoneBody = { new_phone_number: string; validation_code: string };
export type SmsOutboxEntry = { phone: string; code: string; type: number; sent_at: number };

/** §3 Company client state (GET /api/v1/enterprises). */
export type CompanyListItem = { enterprise_id: number; enterprise_name: string; locked: boolean; member_confirmed_status: number };
export type InvitedCompany = { invitation_id: number; enterprise_id: number; enterprise_name: string; inviter: string };
export type EnterpriseApplicationDto = { id: number; name: string; status: number; reason: string; created_at: number };
export type CompanyDto = {
  enterprise_id: number | null;
  name: string;
  verified: boolean;
  verify_status: number;
  license: string;
  legal_person: string;
  role: number;
  is_admin: boolean;
  private_key_status: number;
  /** §3: the enterprise's current (unrevoked) certificate as PEM, '' when it has none. */
  certificate: string;
  /** §3: the ledger DNA that registers that certificate's SHA-256. */
  certificate_dna: string;
  member_confirmed_status: number;
  status: number;
  invitation_code: string;
  /** §3 integrals: the member's available credits in the displayed company. */
  integrals: number;
  companies: CompanyListItem[];
  invited_company: InvitedCompany | null;
  application: EnterpriseApplicationDto | null;
};
export type EmployeeDto = { employee_id: number; user_id: number; name: string; real_name: string; phone: string; role: number; status: number; created_at: number };
export type InvitationDto = { id: number; name: string; phone: string; role: number; status: number; inviter: string; created_at: number };
export type LicenceOcrDto = { name: string; license: string; legal_person: string; is_legal_person: boolean };
export type UploadInfo = { url: string; body_params: Record<string, string>; exists: boolean };
export type AddMemberResult = { phone: string; outcome: 'added' | 'invited'; employee_id?: number };
export type BulkRowResult = { row: number; phone: string; ok: boolean; outcome?: 'added' | 'invited'; message?: string; field_name?: string };
export type OperatorDto = { id: number; login_id: string; name: string };
/** POST /operator/tokens: a session (with the recovery codes right after enrollment), or an enrollment offer. */
export type OperatorLoginResult = (OperatorDto & { recovery_codes?: string[] }) | { enroll: { secret: string; uri: string } };
/** A background job as the operator console shows it: GET /api/v1/operator/jobs. */
export type OperatorJobDto = { id: string; name: string; state: 'queued' | 'active' | 'retry' | 'completed' | 'failed' | 'cancelled'; attempts: number; last_error: string | null; created_at: number; updated_at: number };
export type OperatorJobsDto = { backend: 'pg-boss' | 'in-process'; items: OperatorJobDto[] };
export type OperatorAuditEntryDto = { id: number; login_id: string; action: string; target: string; detail: Record<string, unknown>; ip: string; created_at: number };
export type OperatorApplicationDto = EnterpriseApplicationDto & {
  license_no: string;
  legal_person: string;
  license_image_id: string;
  apply_book_id: string;
  organization_code_certificate_id: string | null;
  applicant_phone: string;
  applicant_name: string;
};
