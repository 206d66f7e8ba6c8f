import { anyObject, bool, nullableNum, nullableStr, num, obj, pageSchema, registrationFields, str } from '../schemas.ts';

export const vaultAuthorization = obj({ is_unlocked: bool, unlocked_at: nullableNum, expires_at: nullableNum, session_seconds: num });

export const vaultProject = obj({
  project_id: num,
  name: str,
  description: str,
  owner_user_id: num,
  owner_name: str,
  file_count: num,
  is_editable: bool,
  created_at: num,
  updated_at: num,
});

export const vaultFile = obj({
  file_id: num,
  project_id: num,
  name: str,
  file_hash: str,
  dip_id: str,
  ...registrationFields,
  registered_at: num,
  expired_at: nullableNum,
});

export const vaultLog = obj({ log_id: num, project_id: nullableNum, project_name: nullableStr, user_id: num, user_name: str, action: str, detail: anyObject, created_at: num });

export const projectPage = pageSchema(vaultProject);
export const filePage = pageSchema(vaultFile);
export const logPage = pageSchema(vaultLog);
