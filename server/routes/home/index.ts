import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HOME_FEED_DEFAULT_LIMIT, HOME_FEED_MAX_LIMIT, type HomeActivityDto, type HomeSummaryDto } from '../../../core/home.ts';
import { fail } from '../../errors.ts';
import { homeActivity, homeCounters, homeViewer, isVaultOpen, parseCursor, type HomeViewer } from '../../services/home.ts';
import { ok, SIGNED_IN } from '../schemas.ts';
import { homeActivity as homeActivitySchema, homeSummary } from './responses.ts';

/**
 * The dashboard home: GET /api/v1/home/summary (counters) and GET
 * /api/v1/home/activity (the feed, newest first, paged by cursor). For confirmed members of
 * the displayed company; §6 decides whose data each caller sees (services/home.ts).
 */
export default async function homeRoutes(app: FastifyInstance) {
  const { db } = app;

  async function viewerOf(request: FastifyRequest): Promise<HomeViewer> {
    const m = await app.requireMember(request, 'member');
    const session = await app.requireSession(request);
    return homeViewer({
      enterpriseId: m.enterprise.id,
      enterpriseName: m.enterprise.name,
      userId: m.user.id,
      role: m.employee.role,
      isVaultOpen: await isVaultOpen(db, session.id, m.enterprise.id),
    });
  }

  app.get('/api/v1/home/summary', { schema: { response: ok(homeSummary) } }, async (request) => {
    const v = await viewerOf(request);
    const data: HomeSummaryDto = {
      enterprise_id: v.enterpriseId,
      enterprise_name: v.enterpriseName,
      role: v.role,
      scope: v.seesAll ? 'enterprise' : 'own',
      is_vault_open: v.isVaultOpen,
      counters: await homeCounters(db, v),
    };
    return { data };
  });

  app.get<{ Querystring: { cursor?: string; limit?: number } }>(
    '/api/v1/home/activity',
    { config: SIGNED_IN,
      schema: {
        querystring: {
          type: 'object',
          properties: { cursor: { type: 'string', maxLength: 48 }, limit: { type: 'integer', minimum: 1, maximum: HOME_FEED_MAX_LIMIT } },
        },
        response: ok(homeActivitySchema),
      },
    },
    async (request) => {
      const cursor = parseCursor(request.query.cursor);
      if (cursor === 'invalid') fail('invalid_param', 'cursor');
      const v = await viewerOf(request);
      const data: HomeActivityDto = await homeActivity(db, v, cursor, request.query.limit ?? HOME_FEED_DEFAULT_LIMIT);
      return { data };
    },
  );
}
