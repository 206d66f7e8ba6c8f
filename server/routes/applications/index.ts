import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAdminRole } from '../../../core/enterprise.ts';
import { EMPLOYEE_STATUS } from '../../../core/enterprise.ts';
import { isProofStatusGenerated } from '../../../core/vault.ts';
import { DNA_PATTERN } from '../../../core/ledger/record.ts';
import { checkApplicationInput, type ApplicationAlarmDto, type ApplicationState, type ApplicationStatsDto, type ApplicationTransitionDto } from '../../../core/applications.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { ApiError, fail } from '../../errors.ts';
import { forbidden, type MemberContext } from '../../plugins/enterprises.ts';
import { keyringOf } from '../../keys/platform-keys.ts';
import { contentDisposition } from '../../content-disposition.ts';
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
} from '../../services/applications.ts';
import { body, pageOf, paging, SIGNED_IN } from '../schemas.ts';

const appParam = { type: 'object', properties: { application_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, required: ['application_id'] } as const;
/** A file by its DNA (what the §2 route and the search carry) or its row id. */
const fileParam = { type: 'object', properties: { application_id: appParam.properties.application_id, file_id: { type: 'string', maxLength: 64 } }, required: ['application_id', 'file_id'] } as const;
const alarmParam = { type: 'object', properties: { application_id: appParam.properties.application_id, alarm_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, required: ['application_id', 'alarm_id'] } as const;
const keyParam = { type: 'object', properties: { application_id: appParam.properties.application_id, key_id: { type: 'string', maxLength: 40 } }, required: ['application_id', 'key_id'] } as const;
// A number or a numeric string from a form: checked by hand (checkApplicationInput) so that each rule answers on its field.
const seconds = {} as const;
const formFields = {
  name: { type: 'string', maxLength: 200 },
  description: { type: ['string', 'null'], maxLength: 2000 },
  interval_seconds: seconds,
  grace_seconds: seconds,
  alarm_phones: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 32 } },
  webhook_urls: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 1000 } },
} as const;

type Ctx = MemberContext & { viewer: ApplicationViewer };

/**
 * External applications, the management side: administrators create, edit,
 * pause and delete applications and their keys; a member sees the applications they own
 * (roles 1–3 see all of the enterprise's). The signed open API is in routes/open-api.
 */
export default async function applicationRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const keyring = keyringOf(db);

  async function memberOf(request: FastifyRequest, isAdmin = false): Promise<Ctx> {
    const m = await app.requireMember(request, isAdmin ? 'admin' : 'member');
    return { ...m, viewer: { userId: m.user.id, role: m.employee.role, enterpriseId: m.employee.enterprise_id } };
  }

  async function visibleOr404(m: Ctx, id: number): Promise<ApplicationRow> {
    const row = (await visibleApplications(db, m.viewer).selectAll('a').where('a.id', '=', id).executeTakeFirst()) as ApplicationRow | undefined;
    if (!row) failNotFound();
    return row;
  }

  async function dtoOf(id: number) {
    const row = (await db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as ApplicationRow;
    return (await applicationDtos(db, [row]))[0]!;
  }

  const nameTaken = () => fail('app_name_already_exists', 'name');

  /** Create: §8 app_name_already_exists within the enterprise; the first key's secret is in this answer and never again. */
  app.post<{ Body: Record<string, unknown> }>(
    '/api/v1/applications',
    { config: SIGNED_IN, schema: { body: body({ ...formFields, owner_user_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, []) } },
    async (request) => {
      const m = await memberOf(request, true);
      const checked = checkApplicationInput(request.body);
      if (!checked.ok) fail(checked.message, checked.field_name);
      const v = checked.value as Required<typeof checked.value>;
      let ownerId = m.user.id;
      const asked = request.body.owner_user_id;
      if (typeof asked === 'number' && asked !== m.user.id) {
        const member = await db.selectFrom('employees').select('user_id').where('enterprise_id', '=', m.employee.enterprise_id).where('user_id', '=', asked).where('status', '=', EMPLOYEE_STATUS.confirmed).executeTakeFirst();
        if (!member) fail('invalid_param', 'owner_user_id');
        ownerId = asked;
      }
      const enterpriseId = m.employee.enterprise_id;
      if (await db.selectFrom('applications').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', v.name).where('deleted_at', 'is', null).executeTakeFirst()) nameTaken();
      const now = Date.now();
      try {
        const created = await db.transaction().execute(async (trx) => {
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
        return { data: created };
      } catch (error) {
        if (!(error instanceof ApiError) && isUniqueViolation(error)) nameTaken();
        throw error;
      }
    },
  );

  app.get<{ Querystring: { page?: number; page_size?: number; state?: ApplicationState } }>(
    '/api/v1/applications',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, state: { type: 'string', enum: ['not_connected', 'normal', 'abnormal', 'interrupted'] } } } } },
    async (request) => {
      const m = await memberOf(request);
      const { page, size, offset } = pageOf(request.query, config.tablePageSize);
      let q = visibleApplications(db, m.viewer);
      if (request.query.state) q = q.where('a.state', '=', request.query.state);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = (await q.selectAll('a').orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(size).offset(offset).execute()) as ApplicationRow[];
      return { data: { items: await applicationDtos(db, rows), page, page_size: size, total: Number(total.n), can_manage: isAdminRole(m.employee.role) } };
    },
  );

  app.get<{ Params: { application_id: number } }>('/api/v1/applications/:application_id', { config: SIGNED_IN, schema: { params: appParam } }, async (request) => {
    const m = await memberOf(request);
    const row = await visibleOr404(m, request.params.application_id);
    return { data: { ...(await applicationDtos(db, [row]))[0]!, can_manage: isAdminRole(m.employee.role) } };
  });

  /** Edit (administrators): any of the create fields, and `is_paused` (a paused application is not monitored and raises no alarm). */
  app.put<{ Params: { application_id: number }; Body: Record<string, unknown> }>(
    '/api/v1/applications/:application_id',
    { config: SIGNED_IN, schema: { params: appParam, body: body({ ...formFields, is_paused: { type: 'boolean' } }, []) } },
    async (request) => {
      const m = await memberOf(request, true);
      const row = await visibleOr404(m, request.params.application_id);
      const checked = checkApplicationInput(request.body, true);
      if (!checked.ok) fail(checked.message, checked.field_name);
      const v = checked.value;
      if (v.name !== undefined && v.name !== row.name) {
        if (await db.selectFrom('applications').select('id').where('enterprise_id', '=', row.enterprise_id).where('name', '=', v.name).where('deleted_at', 'is', null).executeTakeFirst()) nameTaken();
      }
      const isPaused = request.body.is_paused;
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
      return { data: await dtoOf(row.id) };
    },
  );

  /** Delete (administrators): the application and its keys stop; its files' ledger entries and proofs stay. */
  app.delete<{ Params: { application_id: number } }>('/api/v1/applications/:application_id', { config: SIGNED_IN, schema: { params: appParam } }, async (request) => {
    const m = await memberOf(request, true);
    const row = await visibleOr404(m, request.params.application_id);
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('applications').set({ deleted_at: now }).where('id', '=', row.id).execute();
      await trx.updateTable('application_keys').set({ revoked_at: now }).where('application_id', '=', row.id).where('revoked_at', 'is', null).execute();
    });
    return { data: { application_id: row.id } };
  });

  /** A new key (rotation): at most two active at once; its secret is shown in this answer only. */
  app.post<{ Params: { application_id: number } }>('/api/v1/applications/:application_id/keys', { config: SIGNED_IN, schema: { params: appParam } }, async (request) => {
    const m = await memberOf(request, true);
    const row = await visibleOr404(m, request.params.application_id);
    const keys = await db.selectFrom('application_keys').select('revoked_at').where('application_id', '=', row.id).execute();
    if (activeKeyCount(keys) >= ACTIVE_KEYS_MAX) fail('too_frequent_operation', 'keys');
    return { data: { application_id: row.id, ...(await createKey(db, keyring, row.id)) } };
  });

  app.delete<{ Params: { application_id: number; key_id: string } }>('/api/v1/applications/:application_id/keys/:key_id', { config: SIGNED_IN, schema: { params: keyParam } }, async (request) => {
    const m = await memberOf(request, true);
    const row = await visibleOr404(m, request.params.application_id);
    const done = await db.updateTable('application_keys').set({ revoked_at: Date.now() }).where('application_id', '=', row.id).where('key_id', '=', request.params.key_id).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) fail('not_found', 'key_id');
    return { data: await dtoOf(row.id) };
  });

  app.get<{ Params: { application_id: number }; Querystring: { page?: number; page_size?: number } }>(
    '/api/v1/applications/:application_id/files',
    { config: SIGNED_IN, schema: { params: appParam, querystring: { type: 'object', properties: { ...paging } } } },
    async (request) => {
      const m = await memberOf(request);
      const row = await visibleOr404(m, request.params.application_id);
      const { page, size, offset } = pageOf(request.query, config.tablePageSize);
      const total = await db.selectFrom('application_files').select((eb) => eb.fn.countAll<number>().as('n')).where('application_id', '=', row.id).executeTakeFirstOrThrow();
      const rows = await filesQuery(db).where('f.application_id', '=', row.id).orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(size).offset(offset).execute();
      return { data: { items: rows.map((r) => fileDto(r as Parameters<typeof fileDto>[0])), page, page_size: size, total: Number(total.n) } };
    },
  );

  async function fileOr404(m: Ctx, applicationId: number, fileId: string) {
    const row = await visibleOr404(m, applicationId);
    let q = filesQuery(db).where('f.application_id', '=', row.id);
    if (DNA_PATTERN.test(fileId)) q = q.where('f.dna', '=', fileId);
    else if (/^\d{1,10}$/.test(fileId)) q = q.where('f.id', '=', Number(fileId));
    else fail('not_found', 'file_id');
    const file = await q.executeTakeFirst();
    if (!file) fail('not_found', 'file_id');
    return { application: row, file: fileDto(file as Parameters<typeof fileDto>[0]) };
  }

  app.get<{ Params: { application_id: number; file_id: string } }>('/api/v1/applications/:application_id/files/:file_id', { config: SIGNED_IN, schema: { params: fileParam } }, async (request) => {
    const m = await memberOf(request);
    const { application, file } = await fileOr404(m, request.params.application_id, request.params.file_id);
    return { data: { ...file, application_name: application.name } };
  });

  app.get<{ Params: { application_id: number; file_id: string } }>('/api/v1/applications/:application_id/files/:file_id/proof', { config: SIGNED_IN, schema: { params: fileParam } }, async (request, reply) => {
    const m = await memberOf(request);
    const { file } = await fileOr404(m, request.params.application_id, request.params.file_id);
    const proof = await db.selectFrom('proofs').select(['status', 'pdf']).where('dna', '=', file.dip_id).executeTakeFirstOrThrow();
    if (!isProofStatusGenerated(proof.status) || !proof.pdf) fail('proof_record_not_found', 'file_id');
    return reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition(`provena-proof-${file.dip_id}.pdf`)).header('cache-control', 'private, no-store').send(Buffer.from(proof.pdf));
  });

  /** Registrations, bytes and failures over time: `hours` back from now, in buckets of `bucket_seconds` (one point per bucket). */
  app.get<{ Params: { application_id: number }; Querystring: { hours?: number; bucket_seconds?: number } }>(
    '/api/v1/applications/:application_id/stats',
    { config: SIGNED_IN, schema: { params: appParam, querystring: { type: 'object', properties: { hours: { type: 'integer', minimum: 1, maximum: 24 * 90 }, bucket_seconds: { type: 'integer', enum: [60, 300, 3600, 86400] } } } } },
    async (request) => {
      const m = await memberOf(request);
      const row = await visibleOr404(m, request.params.application_id);
      const hours = request.query.hours ?? 24;
      const bucket = (request.query.bucket_seconds ?? (hours <= 6 ? 60 : hours <= 72 ? 3600 : 86400)) * 1000;
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
      const data: ApplicationStatsDto = { bucket_seconds: bucket / 1000, points: [...points.values()].sort((a, b) => a.at - b.at) };
      return { data };
    },
  );

  app.get<{ Params: { application_id: number } }>('/api/v1/applications/:application_id/transitions', { config: SIGNED_IN, schema: { params: appParam } }, async (request) => {
    const m = await memberOf(request);
    const row = await visibleOr404(m, request.params.application_id);
    const rows = await db.selectFrom('application_transitions').selectAll().where('application_id', '=', row.id).orderBy('id', 'desc').limit(200).execute();
    const data: ApplicationTransitionDto[] = rows.map((t) => ({ transition_id: Number(t.id), from_state: t.from_state as ApplicationState, to_state: t.to_state as ApplicationState, reason: t.reason, at: Number(t.at) }));
    return { data };
  });

  app.get<{ Params: { application_id: number } }>('/api/v1/applications/:application_id/alarms', { config: SIGNED_IN, schema: { params: appParam } }, async (request) => {
    const m = await memberOf(request);
    const row = await visibleOr404(m, request.params.application_id);
    const alarms = await db
      .selectFrom('application_alarms as al')
      .leftJoin('users as u', 'u.id', 'al.acknowledged_by')
      .select(['al.id', 'al.kind', 'al.state', 'al.reason', 'al.created_at', 'al.acknowledged_at', 'u.real_name', 'u.name'])
      .where('al.application_id', '=', row.id)
      .orderBy('al.id', 'desc')
      .limit(100)
      .execute();
    const deliveries = alarms.length ? await db.selectFrom('application_deliveries').selectAll().where('alarm_id', 'in', alarms.map((a) => Number(a.id))).orderBy('id').execute() : [];
    const data: ApplicationAlarmDto[] = alarms.map((a) => ({
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
    return { data };
  });

  /** Acknowledge an alarm (the owner or an administrator): reminders stop until the next transition. */
  app.put<{ Params: { application_id: number; alarm_id: number } }>('/api/v1/applications/:application_id/alarms/:alarm_id', { config: SIGNED_IN, schema: { params: alarmParam } }, async (request) => {
    const m = await memberOf(request);
    const row = await visibleOr404(m, request.params.application_id);
    if (!isAdminRole(m.employee.role) && row.owner_user_id !== m.user.id) forbidden();
    const done = await db.updateTable('application_alarms').set({ acknowledged_at: Date.now(), acknowledged_by: m.user.id }).where('application_id', '=', row.id).where('id', '=', request.params.alarm_id).where('acknowledged_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) {
      const exists = await db.selectFrom('application_alarms').select('id').where('application_id', '=', row.id).where('id', '=', request.params.alarm_id).executeTakeFirst();
      if (!exists) fail('not_found', 'alarm_id');
    }
    return { data: { alarm_id: request.params.alarm_id } };
  });
}
