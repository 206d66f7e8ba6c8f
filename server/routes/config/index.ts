import type { FastifyInstance } from 'fastify';

/** The deployment configuration, read by the browser at start-up. */
export default async function configRoutes(app: FastifyInstance) {
  app.get('/config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.config;
  });
  app.get('/api/health', async () => ({ data: { status: 'ok' } }));
}
