import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  SCORE_GRAPH_SNAPSHOTS_MAX,
  SCORE_PAGE_SIZE,
  SCORE_PAGE_SIZE_MAX,
  type ActivatePayload,
  type BridgePayload,
  type CommunityPayload,
  type EnterprisePayload,
  type GraphPayload,
  type LatestActivatePayload,
  type MetricLinksPayload,
  type ScorePayload,
  type StructuralHolePayload,
  type TimelinePayload,
} from '../../core/score-api.ts';
import { toMs } from '../../core/score/weeks.ts';
import type { WeekAnalysis } from '../../core/score/enterprise-score.ts';
import { fail } from '../errors.ts';
import type { EnterpriseRow, ScoreService } from './service.ts';

const gzipAsync = promisify(gzip);

const uuidParam = { type: 'object', properties: { uuid: { type: 'string', maxLength: 64 } }, required: ['uuid'] } as const;
const pageQuery = {
  type: 'object',
  properties: { page: { type: 'integer', minimum: 1, maximum: 1_000_000 }, page_size: { type: 'integer', minimum: 1, maximum: SCORE_PAGE_SIZE_MAX } },
  additionalProperties: true,
} as const;
const snapshotQuery = {
  type: 'object',
  properties: {
    page_size: { type: 'integer', minimum: 1, maximum: SCORE_GRAPH_SNAPSHOTS_MAX },
    start: { type: 'number', minimum: 0 },
    end: { type: 'number', minimum: 0 },
  },
  additionalProperties: true,
} as const;

type PageArgs = { page?: number; page_size?: number };
type SnapshotArgs = { page_size?: number; start?: number; end?: number };

function pageOf<T>(items: T[], q: PageArgs): { data: T[]; total: number } {
  const size = q.page_size ?? SCORE_PAGE_SIZE;
  const page = q.page ?? 1;
  return { data: items.slice((page - 1) * size, page * size), total: items.length };
}

/** Weeks within [start, end], at most page_size of them picked evenly across the range, the last one always included. */
export function pickSnapshots(weeks: WeekAnalysis[], q: SnapshotArgs): WeekAnalysis[] {
  const start = q.start === undefined ? Number.NEGATIVE_INFINITY : toMs(q.start);
  const end = q.end === undefined ? Number.POSITIVE_INFINITY : toMs(q.end);
  if (start > end) fail('invalid_param', 'start');
  const inRange = weeks.filter((w) => w.snapshot.timestamp >= start && w.snapshot.timestamp <= end);
  const k = Math.min(q.page_size ?? SCORE_GRAPH_SNAPSHOTS_MAX, inRange.length);
  if (k === inRange.length) return inRange;
  if (k === 1) return [inRange[inRange.length - 1]];
  const picked: WeekAnalysis[] = [];
  let last = -1;
  for (let i = 0; i < k; i++) {
    const at = Math.round((i * (inRange.length - 1)) / (k - 1));
    if (at !== last) picked.push(inRange[at]);
    last = at;
  }
  return picked;
}

/**
 * The §7 enterprise-score API (docs/score.md; shapes in core/score-api.ts), registered
 * under `<scoreBase>/v1` by the main app and by server/score/server.ts.
 */
export default async function scoreRoutes(app: FastifyInstance, opts: { score: ScoreService }) {
  const { score } = opts;

  // Snapshots of a large enterprise run to megabytes of JSON: compress what is worth it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < 16_384 || reply.getHeader('content-encoding')) return payload;
    if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return payload;
    reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding');
    return gzipAsync(payload);
  });

  async function enterpriseOf(uuid: string): Promise<EnterpriseRow> {
    if (!uuid.trim()) fail('required', 'uuid');
    const row = await score.findByUuid(uuid.trim());
    if (!row) fail('enterprise_not_found', 'uuid');
    return row;
  }

  app.get<{ Querystring: { uuid: string } }>('/enterprise', { schema: { querystring: uuidParam } }, async (request) => {
    const e = await enterpriseOf(request.query.uuid);
    const data: EnterprisePayload = { name: e.name, activated: e.activated === 1, uuid: e.uuid, is_demo: e.is_demo === 1 };
    return { data };
  });

  app.get('/enterprise/latest-activate', async () => {
    const e = await score.latestActivated();
    const data: LatestActivatePayload = e ? { id: e.id, updated_at: Number(e.activated_at ?? e.updated_at), uuid: e.uuid, name: e.name } : { id: 0, updated_at: 0, uuid: null, name: null };
    return { data };
  });

  // §7 names GET; POST is offered too for clients that keep GET free of side effects. Both idempotent.
  const activate = async (request: FastifyRequest<{ Params: { uuid: string } }>) => {
    await enterpriseOf(request.params.uuid);
    const e = (await score.activate(request.params.uuid.trim()))!;
    const data: ActivatePayload = { id: e.id, uuid: e.uuid, activated: true, updated_at: Number(e.updated_at) };
    return { data };
  };
  app.get<{ Params: { uuid: string } }>('/enterprise/activate/:uuid', { schema: { params: uuidParam } }, activate);
  app.post<{ Params: { uuid: string } }>('/enterprise/activate/:uuid', { schema: { params: uuidParam } }, activate);

  async function sendMetric(request: FastifyRequest, reply: FastifyReply, format: 'json' | 'columnar' | 'binary') {
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const isGzip = /\bgzip\b/.test(accepts);
    const { version, body } = await score.metricBody(format, isGzip ? 'gzip' : null);
    const etag = `"${format}-${version}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    if (isGzip) reply.header('content-encoding', 'gzip');
    reply.type(format === 'binary' ? 'application/octet-stream' : 'application/json; charset=utf-8');
    return reply.send(body);
  }

  app.get<{ Querystring: { format?: string } }>(
    '/metric',
    { schema: { querystring: { type: 'object', properties: { format: { type: 'string', enum: ['json', 'columnar', 'binary'] } } } } },
    async (request, reply) => sendMetric(request, reply, (request.query.format ?? 'json') as 'json' | 'columnar' | 'binary'),
  );

  app.get('/metric/links', async () => {
    const m = await score.metric();
    const links: number[] = [];
    for (let k = 0; k < m.columns.links.length; k++) links.push(m.columns.id[m.columns.links[k]]);
    const data: MetricLinksPayload = { links, weights: m.columns.link_weight, version: m.version };
    return { data };
  });

  app.get<{ Params: { uuid: string }; Querystring: PageArgs }>('/score/timeline/:uuid', { schema: { params: uuidParam, querystring: pageQuery } }, async (request) => {
    const e = await enterpriseOf(request.params.uuid);
    const weeks = await score.analysis(e.id);
    const data: TimelinePayload = pageOf(weeks.map((w) => w.timeline), request.query);
    return { data };
  });

  app.get<{ Params: { uuid: string }; Querystring: SnapshotArgs }>('/score/graph/:uuid', { schema: { params: uuidParam, querystring: snapshotQuery } }, async (request) => {
    const e = await enterpriseOf(request.params.uuid);
    const data: GraphPayload = pickSnapshots(await score.analysis(e.id), request.query).map((w) => w.snapshot);
    return { data };
  });

  app.get<{ Params: { uuid: string }; Querystring: SnapshotArgs }>('/score/community/:uuid', { schema: { params: uuidParam, querystring: snapshotQuery } }, async (request) => {
    const e = await enterpriseOf(request.params.uuid);
    const data: CommunityPayload = pickSnapshots(await score.analysis(e.id), request.query).map((w) => w.communities);
    return { data };
  });

  app.get<{ Params: { uuid: string }; Querystring: PageArgs }>('/score/structual_hole/:uuid', { schema: { params: uuidParam, querystring: pageQuery } }, async (request) => {
    const e = await enterpriseOf(request.params.uuid);
    const all = (await score.analysis(e.id)).toReversed().flatMap((w) => w.holes);
    const { data: structual_holes, total } = pageOf(all, request.query);
    const data: StructuralHolePayload = { structual_holes, total };
    return { data };
  });

  app.get<{ Params: { uuid: string }; Querystring: PageArgs }>('/score/bridge/:uuid', { schema: { params: uuidParam, querystring: pageQuery } }, async (request) => {
    const e = await enterpriseOf(request.params.uuid);
    const all = (await score.analysis(e.id)).toReversed().flatMap((w) => w.bridges);
    const { data: bridges, total } = pageOf(all, request.query);
    const data: BridgePayload = { bridges, total };
    return { data };
  });

  app.get<{ Params: { uuid: string }; Querystring: PageArgs }>('/score/:uuid', { schema: { params: uuidParam, querystring: pageQuery } }, async (request) => {
    const e = await enterpriseOf(request.params.uuid);
    const data: ScorePayload = pageOf(await score.points(e.id), request.query);
    return { data };
  });
}
