import { arrayOf, bool, nullableNum, num, obj, ok, pageSchema, str } from '../schemas.ts';

/** The 2xx answers of the applications management routes (core/applications.ts DTOs); a file's metadata is kept whole. */

const key = obj({ key_id: str, created_at: num, revoked_at: nullableNum, last_used_at: nullableNum });
const applicationFields = {
  application_id: num,
  name: str,
  description: str,
  interval_seconds: num,
  grace_seconds: num,
  alarm_phones: arrayOf(str),
  webhook_urls: arrayOf(str),
  is_paused: bool,
  state: str,
  state_reason: str,
  state_since: nullableNum,
  last_seen_at: nullableNum,
  owner_user_id: num,
  owner_name: str,
  file_count: num,
  created_at: num,
  keys: arrayOf(key),
  unacknowledged_alarms: num,
};
const fileFields = {
  file_id: num,
  application_id: num,
  dip_id: str,
  name: str,
  file_hash: str,
  size: num,
  metadata: { type: ['object', 'null'], additionalProperties: true },
  credits: num,
  proof_status: num,
  is_generated: bool,
  block_height: nullableNum,
  registered_at: num,
};

export const createdResponse = ok(obj({ application_id: num, key_id: str, secret: str }));
export const applicationResponse = ok(obj(applicationFields));
export const managedApplicationResponse = ok(obj({ ...applicationFields, can_manage: bool }));
export const applicationPageResponse = ok({ ...pageSchema(obj(applicationFields)), properties: { ...pageSchema(obj(applicationFields)).properties, can_manage: bool } });
export const deletedResponse = ok(obj({ application_id: num }));
export const filePageResponse = ok(pageSchema(obj(fileFields)));
export const fileResponse = ok(obj({ ...fileFields, application_name: str }));
export const statsResponse = ok(obj({ bucket_seconds: num, points: arrayOf(obj({ at: num, registrations: num, bytes: num, errors: num })) }));
export const transitionsResponse = ok(arrayOf(obj({ transition_id: num, from_state: str, to_state: str, reason: str, at: num })));
export const alarmsResponse = ok(
  arrayOf(
    obj({
      alarm_id: num,
      kind: str,
      state: str,
      reason: str,
      created_at: num,
      acknowledged_at: nullableNum,
      acknowledged_by: str,
      deliveries: arrayOf(obj({ channel: str, target: str, status: str, attempts: num, last_error: str, delivered_at: nullableNum })),
    }),
  ),
);
export const acknowledgedResponse = ok(obj({ alarm_id: num }));
