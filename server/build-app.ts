import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import app from './app.ts';
import { openDatabase } from './db/database.ts';
import { secureDataDir } from './data-dir.ts';
import { loadDeploymentConfig } from './deployment-config.ts';
import type { DeploymentConfig } from '../core/config.ts';
import type { Env } from './env.ts';
import { Keyring } from './keys/keyring.ts';
import { attachKeyring } from './keys/platform-keys.ts';
import { installRequestIds, requestIdMixin, requestIdOf } from './logging/request-id.ts';

/** Opens the database, loads configuration and returns a ready Fastify instance (used by server.ts and tests). */
export async function buildServer(env: Env, overrides: { config?: DeploymentConfig; logger?: boolean; logStream?: { write(line: string): void }; onRoute?: (route: RouteOptions) => void } = {}): Promise<FastifyInstance> {
  const config = overrides.config ?? loadDeploymentConfig(env.configFile);
  // Before the database opens: the data folder 0700, its files 0600 (repaired when looser).
  const repaired = secureDataDir(env.dataDir);
  const { db } = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  const fastify = Fastify({
    logger: overrides.logger === false ? false : { level: env.logLevel, mixin: requestIdMixin, ...(overrides.logStream ? { stream: overrides.logStream } : {}) },
    genReqId: requestIdOf,
    trustProxy: env.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  });
  installRequestIds(fastify);
  // Tests walk the whole route table (every route must refuse outsiders); the hook must precede the routes.
  if (overrides.onRoute) fastify.addHook('onRoute', overrides.onRoute);
  if (repaired.length) fastify.log.warn({ repaired: repaired.slice(0, 20), count: repaired.length }, 'DATA_DIR held files others could read; they are 0600 (folders 0700) now');
  // The keyring opens platform keys (sealed under the KEK, or in the HSM) for everything on this database.
  const keyring = new Keyring(env.keys, env.dataDir, fastify.log);
  attachKeyring(db, keyring);
  fastify.addHook('onClose', async () => {
    keyring.close();
    await db.destroy();
  });
  // fp: the app's decorations (db, config, …) stay visible on the root instance for tests and hooks.
  await fastify.register(fp(app), { db, config, env });
  return fastify;
}
