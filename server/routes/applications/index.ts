import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readProofPdf } from '../../services/proof-pdf.ts';
import type { ApplicationState } from '../../../core/applications.ts';
import { fail } from '../../errors.ts';
import { keyringOf } from '../../keys/platform-keys.ts';
import { contentDisposition } from '../../content-disposition.ts';
import {
  acknowledgeAlarm,
  applicationAlarms,
  applicationDetail,
  applicationFilePage,
  applicationPage,
  applicationStats,
  applicationTransitions,
  createApplication,
  deleteApplication,
  fileOr404,
  newApplicationKey,
  revokeApplicationKey,
  updateApplication,
  type ApplicationCtx,
} from '../../services/application-management.ts';
import { body, pageOf, paging, SIGNED_IN } from '../schemas.ts';
import { acknowledgedResponse, alarmsResponse, applicationPageResponse, applicationResponse, createdResponse, deletedResponse, filePageResponse, fileResponse, managedApplicationResponse, statsResponse, transitionsResponse } from './responses.ts';

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

/**
 * External applications, the management side: administrators create, edit,
 * pause and delete applications and their keys; a member sees the applications they own
 * (roles 1–3 see all of the enterprise's). The signed open API is in routes/open-api.
 * These routes check the member (and the administrator level); services/application-management.ts decides.
 */
export default async function applicationRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const keyring = keyringOf(db);

  async function memberOf(request: FastifyRequest, isAdmin = false): Promise<ApplicationCtx> {
    const m = await app.requireMember(request, isAdmin ? 'admin' : 'member');
    return { ...m, viewer: { userId: m.user.id, role: m.employee.role, enterpriseId: m.employee.enterprise_id } };
  }

  /** Create: §8 app_name_already_exists within the enterprise; the first key's secret is in this answer and never again. */
  app.post<{ Body: Record<string, unknown> }>(
    '/api/v1/applications',
    { config: SIGNED_IN, schema: { body: body({ ...formFields, owner_user_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }, []), response: createdResponse } },
    async (request) => {
      const m = await memberOf(request, true);
      return { data: await createApplication(db, keyring, m, request.body) };
    },
  );

  app.get<{ Querystring: { page?: number; page_size?: number; state?: ApplicationState } }>(
    '/api/v1/applications',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { ...paging, state: { type: 'string', enum: ['not_connected', 'normal', 'abnormal', 'interrupted'] } } }, response: applicationPageResponse } },
    async (request) => {
      const m = await memberOf(request);
      return { data: await applicationPage(db, m, pageOf(request.query, config.tablePageSize), request.query.state) };
    },
  );

  app.get<{ Params: { application_id: number } }>('/api/v1/applications/:application_id', { config: SIGNED_IN, schema: { params: appParam, response: managedApplicationResponse } }, async (request) => {
    return { data: await applicationDetail(db, await memberOf(request), request.params.application_id) };
  });

  /** Edit (administrators): any of the create fields, and `is_paused` (a paused application is not monitored and raises no alarm). */
  app.put<{ Params: { application_id: number }; Body: Record<string, unknown> }>(
    '/api/v1/applications/:application_id',
    { config: SIGNED_IN, schema: { params: appParam, body: body({ ...formFields, is_paused: { type: 'boolean' } }, []), response: applicationResponse } },
    async (request) => {
      const m = await memberOf(request, true);
      return { data: await updateApplication(db, m, request.params.application_id, request.body) };
    },
  );

  /** Delete (administrators): the application and its keys stop; its files' ledger entries and proofs stay. */
  app.delete<{ Params: { application_id: number } }>('/api/v1/applications/:application_id', { config: SIGNED_IN, schema: { params: appParam, response: deletedResponse } }, async (request) => {
    return { data: await deleteApplication(db, await memberOf(request, true), request.params.application_id) };
  });

  /** A new key (rotation): at most two active at once; its secret is shown in this answer only. */
  app.post<{ Params: { application_id: number } }>('/api/v1/applications/:application_id/keys', { config: SIGNED_IN, schema: { params: appParam, response: createdResponse } }, async (request) => {
    return { data: await newApplicationKey(db, keyring, await memberOf(request, true), request.params.application_id) };
  });

  app.delete<{ Params: { application_id: number; key_id: string } }>('/api/v1/applications/:application_id/keys/:key_id', { config: SIGNED_IN, schema: { params: keyParam, response: applicationResponse } }, async (request) => {
    return { data: await revokeApplicationKey(db, await memberOf(request, true), request.params.application_id, request.params.key_id) };
  });

  app.get<{ Params: { application_id: number }; Querystring: { page?: number; page_size?: number } }>(
    '/api/v1/applications/:application_id/files',
    { config: SIGNED_IN, schema: { params: appParam, querystring: { type: 'object', properties: { ...paging } }, response: filePageResponse } },
    async (request) => {
      const m = await memberOf(request);
      return { data: await applicationFilePage(db, m, request.params.application_id, pageOf(request.query, config.tablePageSize)) };
    },
  );

  app.get<{ Params: { application_id: number; file_id: string } }>('/api/v1/applications/:application_id/files/:file_id', { config: SIGNED_IN, schema: { params: fileParam, response: fileResponse } }, async (request) => {
    const m = await memberOf(request);
    const { application, file } = await fileOr404(db, m, request.params.application_id, request.params.file_id);
    return { data: { ...file, application_name: application.name } };
  });

  app.get<{ Params: { application_id: number; file_id: string } }>('/api/v1/applications/:application_id/files/:file_id/proof', { config: SIGNED_IN, schema: { params: fileParam } }, async (request, reply) => {
    const m = await memberOf(request);
    const { file } = await fileOr404(db, m, request.params.application_id, request.params.file_id);
    const pdf = await readProofPdf(db, app.fileStore.driver, file.dip_id);
    if (!pdf) fail('proof_record_not_found', 'file_id');
    return reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition(`provena-proof-${file.dip_id}.pdf`)).header('cache-control', 'private, no-store').send(pdf);
  });

  /** Registrations, bytes and failures over time: `hours` back from now, in buckets of `bucket_seconds` (one point per bucket). */
  app.get<{ Params: { application_id: number }; Querystring: { hours?: number; bucket_seconds?: number } }>(
    '/api/v1/applications/:application_id/stats',
    { config: SIGNED_IN, schema: { params: appParam, querystring: { type: 'object', properties: { hours: { type: 'integer', minimum: 1, maximum: 24 * 90 }, bucket_seconds: { type: 'integer', enum: [60, 300, 3600, 86400] } } }, response: statsResponse } },
    async (request) => {
      return { data: await applicationStats(db, await memberOf(request), request.params.application_id, request.query) };
    },
  );

  app.get<{ Params: { application_id: number } }>('/api/v1/applications/:application_id/transitions', { config: SIGNED_IN, schema: { params: appParam, response: transitionsResponse } }, async (request) => {
    return { data: await applicationTransitions(db, await memberOf(request), request.params.application_id) };
  });

  app.get<{ Params: { application_id: number } }>('/api/v1/applications/:application_id/alarms', { config: SIGNED_IN, schema: { params: appParam, response: alarmsResponse } }, async (request) => {
    return { data: await applicationAlarms(db, await memberOf(request), request.params.application_id) };
  });

  /** Acknowledge an alarm (the owner or an administrator): reminders stop until the next transition. */
  app.put<{ Params: { application_id: number; alarm_id: number } }>('/api/v1/applications/:application_id/alarms/:alarm_id', { config: SIGNED_IN, schema: { params: alarmParam, response: acknowledgedResponse } }, async (request) => {
    await acknowledgeAlarm(db, await memberOf(request), request.params.application_id, request.params.alarm_id);
    return { data: { alarm_id: request.params.alarm_id } };
  });
}
