/**
 * Vault rules shared by the server and the browser (§5, §8, §9).
 */
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX, REGISTERED_FILE_NAME_MAX } from './constants.ts';
import type { ErrorKey } from './errors.ts';
import { checkOptionalText, checkRequiredText } from './validation.ts';

/** §5 project name: required, at most 30 characters. */
export function checkProjectName(raw: string): ErrorKey | null {
  return checkRequiredText(raw, PROJECT_NAME_MAX);
}

/** §5 project description: optional, at most 200 characters. */
export function checkProjectDescription(raw: string): ErrorKey | null {
  return checkOptionalText(raw, PROJECT_DESCRIPTION_MAX);
}

/** §5 file to register: a name is required. */
export function checkVaultFileName(raw: string): ErrorKey | null {
  return checkRequiredText(raw, REGISTERED_FILE_NAME_MAX);
}

/** What each vault log entry records (the project log). */
export const VAULT_ACTIONS = ['vault_unlocked', 'vault_locked', 'project_created', 'project_updated', 'file_registered', 'proof_downloaded'] as const;
export type VaultAction = (typeof VAULT_ACTIONS)[number];

/** §3 proof status: 1–4 generating, 5–6 generated. */
export function isProofStatusGenerated(status: number): boolean {
  return status >= 5;
}

/** API shapes of /api/v1/vault (§7 style: `{ data }`, paged lists with page, page_size, total). */
export type VaultAuthorizationDto = { is_unlocked: boolean; unlocked_at: number | null; expires_at: number | null; session_seconds: number };
export type VaultProjectDto = {
  project_id: number;
  name: string;
  description: string;
  owner_user_id: number;
  owner_name: string;
  file_count: number;
  is_editable: boolean;
  created_at: number;
  updated_at: number;
};
export type VaultFileDto = {
  file_id: number;
  project_id: number;
  name: string;
  file_hash: string;
  size: number;
  dip_id: string;
  registrant_user_id: number;
  registrant_name: string;
  credits: number;
  proof_status: number;
  is_generated: boolean;
  block_height: number | null;
  registered_at: number;
  expired_at: number | null;
};
export type VaultLogDto = {
  log_id: number;
  project_id: number | null;
  project_name: string | null;
  user_id: number;
  user_name: string;
  action: VaultAction;
  detail: Record<string, unknown>;
  created_at: number;
};
