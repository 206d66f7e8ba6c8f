import { isAdminRole, EMPLOYEE_STATUS } from '../../core/enterprise.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { checkApplicationInput, type ApplicationAlarmDto, type ApplicationState, type ApplicationStatsDto, type ApplicationTransitionDto } from '../../core/applications.ts';
import type { Paged } from '../../core/api-types.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import { forbidden, type MemberContext } from '../plugins/enterprises.ts';
import type { Keyring } from '../keys/keyring.ts';
import {
  ACTIVE_KEYS_MAX,
  activeKeyCount,
  applicationDtos,
  createKey,
  failNotFound,
  fileDto,
  filesQuery,
  visibleApplications,
  type ApplicationRow,
  type ApplicationViewer,
} from './applications.ts';

/**
 * External applications, the management side (the routes check the member and the
 * administrator level; these functions decide, read and write): administrators create, edit,
 * pause and delete applications and their keys; a member sees the applications they own
 * (roles 1–3 see all of the enterprise's). An application the caller may not see is not_found.
 */

export type ApplicationCtx = MemberContext & { viewer: ApplicationViewer };
type PageWindow = { page: number; size: number; offset: number };

const nameTaken = () => fail('app_name_already_exists', 'name');

export async function visibleOr404(db: Db, m: ApplicationCtx, id: number): Promise<ApplicationRow> {
  const row = (await visibleApplications(db, m.viewer).selectAll('a').where('a.id', '=', id).executeTakeFirst()) as ApplicationRow | undefined;
  if (!row) failNotFound();
  return row;
}

async function dtoOf(db: Db, id: number) {
  const row = (await db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as ApplicationRow;
  return (await applicationDtos(db, [row]))[0]!;
}

/** Create: §8 app_name_already_exists within the enterprise; the first key's secret is in this answer and never again. */
export async function createApplication(db: Db, keyring: Keyring, m: ApplicationCtx, raw: Record<string, unknown>) {
  const checked = checkApplicationInput(raw);
  if (!checked.ok) fail(checked.message, checked.field_name);
  const v = checked.value as Required<typeof checked.value>;
  let ownerId = m.user.id;
  const asked = raw.owner_user_id;
  if (typeof asked === 'number' && asked !== m.user.id) {
    const member = await db.selectFrom('employees').select('user_id').where('enterprise_id', '=', m.employee.enterprise_id).where('user_id', '=', asked).where('status', '=', EMPLOYEE_STATUS.confirmed).executeTakeFirst();
    if (!member) fail('invalid_param', 'owner_user_id');
    ownerId = asked;
  }
  const enterpriseId = m.employee.enterprise_id;
  if (await db.selectFrom('applications').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', v.name).where('deleted_at', 'is', null).executeTakeFirst()) nameTaken();
  const now = Date.now();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('applications')
        .values({
          enterprise_id: enterpriseId,
          owner_user_id: ownerId,
          name: v.name,
          description: v.description,
          interval_seconds: v.interval_seconds,
          grace_seconds: v.grace_seconds,
          alarm_phones: JSON.stringify(v.alarm_phones),
          webhook_urls: JSON.stringify(v.webhook_urls),
          deleted_at: null,
          state_since: now,
          last_seen_at: null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const key = await createKey(trx, keyring, Number(row.id), now);
      return { application_id: Number(row.id), ...key };
    });
  } catch (error) {
    if (!(error instanceof ApiError) && isUniqueViolation(error)) nameTaken();
    throw error;
  }
}

export async function applicationPage(db: Db, m: ApplicationCtx, w: PageWindow, state: ApplicationState | undefined) {
  let q = visibleApplications(db, m.viewer);
  if (state) q = q.where('a.state', '=', state);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = (await q.selectAll('a').orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(w.size).offset(w.offset).execute()) as ApplicationRow[];
  return { items: await applicationDtos(db, rows), page: w.page, page_size: w.size, total: Number(total.n), can_manage: isAdminRole(m.employee.role) };
}

export async function applicationDetail(db: Db, m: ApplicationCtx, id: number) {
  const row = await visibleOr404(db, m, id);
  return { ...(await applicationDtos(db, [row]))[0]!, can_manage: isAdminRole(m.employee.role) };
}

/** Edit (administrators): any of the create fields, and `is_paused` (a paused application is not monitored and raises no alarm). */
export async function updateApplication(db: Db, m: ApplicationCtx, id: number, raw: Record<string, unknown>) {
  const row = await visibleOr404(db, m, id);
  const checked = checkApplicationInput(raw, true);
  if (!checked.ok) fail(checked.message, checked.field_name);
  const v = checked.value;
  if (v.name !== undefined && v.name !== row.name) {
    if (await db.selectFrom('applications').select('id').where('enterprise_id', '=', row.enterprise_id).where('name', '=', v.name).where('deleted_at', 'is', null).executeTakeFirst()) nameTaken();
  }
  const isPaused = raw.is_paused;
  try {
    await db
      .updateTable('applications')
      .set({
        ...(v.name !== undefined ? { name: v.name } : {}),
        ...(v.description !== undefined ? { description: v.description } : {}),
        ...(v.interval_seconds !== undefined ? { interval_seconds: v.interval_seconds } : {}),
        ...(v.grace_seconds !== undefined ? { grace_seconds: v.grace_seconds } : {}),
        ...(v.alarm_phones !== undefined ? { alarm_phones: JSON.stringify(v.alarm_phones) } : {}),
        ...(v.webhook_urls !== undefined ? { webhook_urls: JSON.stringify(v.webhook_urls) } : {}),
        ...(typeof isPaused === 'boolean' ? { is_paused: isPaused ? 1 : 0 } : {}),
      })
      .where('id', '=', row.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) nameTaken();
    throw error;
  }
  return dtoOf(db, row.id);
}

/** Delete (administrators): the application and its keys stop; its files' ledger entries and proofs stay. */
export async function deleteApplication(db: Db, m: ApplicationCtx, id: number): Promise<{ application_id: number }> {
  const row = await visibleOr404(db, m, id);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('applications').set({ deleted_at: now }).where('id', '=', row.id).execute();
    await trx.updateTable('application_keys').set({ revoked_at: now }).where('application_id', '=', row.id).where('revoked_at', 'is', null).execute();
  });
  return { application_id: row.id };
}

/** A new key (rotation): at most two active at once; its secret is shown in this answer only. */
export async function newApplicationKey(db: Db, keyring: Keyring, m: ApplicationCtx, id: number) {
  const row = await visibleOr404(db, m, id);
  const keys = await db.selectFrom('application_keys').select('revoked_at').where('application_id', '=', row.id).execute();
  if (activeKeyCount(keys) >= ACTIVE_KEYS_MAX) fail('too_frequent_operation', 'keys');
  return { application_id: row.id, ...(await createKey(db, keyring, row.id)) };
}

export async function revokeApplicationKey(db: Db, m: ApplicationCtx, id: number, keyId: string) {
  const row = await visibleOr404(db, m, id);
  const done = await db.updateTable('application_keys').set({ revoked_at: Date.now() }).where('application_id', '=', row.id).where('key_id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) fail('not_found', 'key_id');
  return dtoOf(db, row.id);
}

export async function applicationFilePage(db: Db, m: ApplicationCtx, id: number, w: PageWindow): Promise<Paged<ReturnType<typeof fileDto>>> {
  const row = await visibleOr404(db, m, id);
  const total = await db.selectFrom('application_files').select((eb) => eb.fn.countAll<number>().as('n')).where('application_id', '=', row.id).executeTakeFirstOrThrow();
  const rows = await filesQuery(db).where('f.application_id', '=', row.id).orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(w.size).offset(w.offset).execute();
  return { items: rows.map((r) => fileDto(r as Parameters<typeof fileDto>[0])), page: w.page, page_size: w.size, total: Number(total.n) };
}

/** A file by its DNA (what the §2 route and the search carry) or its row id; not_found otherwise. */
export async function fileOr404(db: Db, m: ApplicationCtx, applicationId: number, fileId: string) {
  const row = await visibleOr404(db, m, applicationId);
  let q = filesQuery(db).where('f.application_id', '=', row.id);
  if (DNA_PATTERN.test(fileId)) q = q.where('f.dna', '=', fileId);
  else if (/^\d{1,10}$/.test(fileId)) q = q.where('f.id', '=', Number(fileId));
  else fail('not_found', 'file_id');
  const file = await q.executeTakeFirst();
  if (!file) fail('not_found', 'file_id');
  return { application: row, file: fileDto(file as Parameters<typeof fileDto>[0]) };
}

/** Registrations, bytes and failures over time: `hours` back from now, in buckets of `bucket_seconds` (one point per bucket). */
export async function applicationStats(db: Db, m: ApplicationCtx, id: number, query: { hours?: number; bucket_seconds?: number }): Promise<ApplicationStatsDto> {
  const row = await visibleOr404(db, m, id);
  const hours = query.hours ?? 24;
  const bucket = (query.bucket_seconds ?? (hours <= 6 ? 60 : hours <= 72 ? 3600 : 86400)) * 1000;
  const now = Date.now();
  const from = Math.floor((now - hours * 3600_000) / bucket) * bucket;
  const rows = await db.selectFrom('application_stats').selectAll().where('application_id', '=', row.id).where('minute', '>=', from).orderBy('minute').execute();
  const points = new Map<number, { at: number; registrations: number; bytes: number; errors: number }>();
  for (let at = from; at <= now; at += bucket) points.set(at, { at, registrations: 0, bytes: 0, errors: 0 });
  for (const s of rows) {
    const at = Math.floor(Number(s.minute) / bucket) * bucket;
    const p = points.get(at) ?? { at, registrations: 0, bytes: 0, errors: 0 };
    p.registrations += Number(s.registrations);
    p.bytes += Number(s.bytes);
    p.errors += Number(s.refusals) + Number(s.signature_failures);
    points.set(at, p);
  }
  return { bucket_seconds: bucket / 1000, points: [...points.values()].sort((a, b) => a.at - b.at) };
}

export async function applicationTransitions(db: Db, m: ApplicationCtx, id: number): Promise<ApplicationTransitionDto[]> {
  const row = await visibleOr404(db, m, id);
  const rows = await db.selectFrom('application_transitions').selectAll().where('application_id', '=', row.id).orderBy('id', 'desc').limit(200).execute();
  return rows.map((t) => ({ transition_id: Number(t.id), from_state: t.from_state as ApplicationState, to_state: t.to_state as ApplicationState, reason: t.reason, at: Number(t.at) }));
}

export async function applicationAlarms(db: Db, m: ApplicationCtx, id: number): Promise<ApplicationAlarmDto[]> {
  const row = await visibleOr404(db, m, id);
  const alarms = await db
    .selectFrom('application_alarms as al')
    .leftJoin('users as u', 'u.id', 'al.acknowledged_by')
    .select(['al.id', 'al.kind', 'al.state', 'al.reason', 'al.created_at', 'al.acknowledged_at', 'u.real_name', 'u.name'])
    .where('al.application_id', '=', row.id)
    .orderBy('al.id', 'desc')
    .limit(100)
    .execute();
  const deliveries = alarms.length ? await db.selectFrom('application_deliveries').selectAll().where('alarm_id', 'in', alarms.map((a) => Number(a.id))).orderBy('id').execute() : [];
  return alarms.map((a) => ({
    alarm_id: Number(a.id),
    kind: a.kind as ApplicationAlarmDto['kind'],
    state: a.state as ApplicationState,
    reason: a.reason,
    created_at: Number(a.created_at),
    acknowledged_at: a.acknowledged_at === null ? null : Number(a.acknowledged_at),
    acknowledged_by: a.real_name || a.name || '',
    deliveries: deliveries
      .filter((d) => Number(d.alarm_id) === Number(a.id))
      .map((d) => ({ channel: d.channel as 'sms' | 'webhook', target: d.target, status: d.status as 'pending' | 'delivered' | 'failed', attempts: Number(d.attempts), last_error: d.last_error, delivered_at: d.delivered_at === null ? null : Number(d.delivered_at) })),
  }));
}

/** Acknowledge an alarm (the owner or an administrator): reminders stop until the next transition. */
export async function acknowledgeAlarm(db: Db, m: ApplicationCtx, id: number, alarmId: number): Promise<void> {
  const row = await visibleOr404(db, m, id);
  if (!isAdminRole(m.employee.role) && row.owner_user_id !== m.user.id) forbidden();
  const done = await db.updateTable('application_alarms').set({ acknowledged_at: Date.now(), acknowledged_by: m.user.id }).where('application_id', '=', row.id).where('id', '=', alarmId).where('acknowledged_at', 'is', null).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) {
    const exists = await db.selectFrom('application_alarms').select('id').where('application_id', '=', row.id).where('id', '=', alarmId).executeTakeFirst();
    if (!exists) fail('not_found', 'alarm_id');
  }
}
