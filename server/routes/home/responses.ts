import { arrayOf, bool, nullableNum, nullableStr, num, obj, str } from '../schemas.ts';

/** core/home.ts HomeSummaryDto. */
export const homeSummary = obj({
  enterprise_id: num,
  enterprise_name: str,
  role: num,
  scope: str,
  is_vault_open: bool,
  counters: obj({
    assets: num,
    vault_projects: num,
    vault_files: num,
    disclosures: num,
    credits: obj({ available: num, consumed: num, pool: nullableNum }),
    members: nullableNum,
    pending_applications: nullableNum,
  }),
});

/**
 * core/home.ts HomeEventDto: one object with the properties of every source (a union in the
 * types), each present only on the sources that have it; where two sources share a name, the
 * wider type (nullable) covers both.
 */
export const homeEvent = obj({
  source: str,
  kind: str,
  event_id: str,
  at: num,
  actor_user_id: nullableNum,
  actor_name: str,
  is_mine: bool,
  // vault
  project_id: nullableNum,
  project_name: nullableStr,
  file_name: nullableStr,
  dip_id: nullableStr,
  credits: nullableNum,
  // member, credit
  member_user_id: nullableNum,
  member_name: str,
  role: nullableNum,
  is_about_me: bool,
  // disclosure
  disclosure_id: str,
  receiver_phone: str,
  // ledger
  entry_kind: str,
  // asset
  asset_name: str,
  asset_type: num,
  // credit
  amount: num,
  reference: nullableStr,
});

/** core/home.ts HomeActivityDto. */
export const homeActivity = obj({ items: arrayOf(homeEvent), next_cursor: nullableStr });
