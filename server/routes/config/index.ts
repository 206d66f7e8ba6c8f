import type { FastifyInstance } from 'fastify';
import { obj, ok, str } from '../schemas.ts';

/** The deployment configuration, read by the browser at start-up. */
export default async function configRoutes(app: FastifyInstance) {
  app.get('/config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.config;
  });
  app.get('/api/health', { schema: { response: ok(obj({ status: str })) } }, async () => ({ data: { status: 'ok' } }));
}
