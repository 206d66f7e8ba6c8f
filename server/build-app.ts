import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import app from './app.ts';
import { openDatabase } from './db/database.ts';
import { loadDeploymentConfig } from './deployment-config.ts';
import type { DeploymentConfig } from '../core/config.ts';
import type { Env } from './env.ts';

/** Opens the database, loads configuration and returns a ready Fastify instance (used by server.ts and tests). */
export async function buildServer(env: Env, overrides: { config?: DeploymentConfig; logger?: boolean; onRoute?: (route: RouteOptions) => void } = {}): Promise<FastifyInstance> {
  const config = overrides.config ?? loadDeploymentConfig(env.configFile);
  const { db } = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  const fastify = Fastify({
    logger: overrides.logger === false ? false : { level: env.logLevel },
    trustProxy: env.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  });
  // Tests walk the whole route table (every route must refuse outsiders); the hook must precede the routes.
  if (overrides.onRoute) fastify.addHook('onRoute', overrides.onRoute);
  fastify.addHook('onClose', async () => {
    await db.destroy();
  });
  // Tests see the route table as it is declared (the fuzz test drives every route).
  if (overrides.onRoute) fastify.addHook('onRoute', overrides.onRoute);
  // fp: the app's decorations (db, config, …) stay visible on the root instance for tests and hooks.
  await fastify.register(fp(app), { db, config, env });
  return fastify;
}
