import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase } from '../db/database.ts';
import { readEnv } from '../env.ts';
import { loadDeploymentConfig } from '../deployment-config.ts';
import errorsPlugin from '../plugins/errors.ts';
import securityPlugin from '../plugins/security.ts';
import scorePlugin, { recomputeMinutesFromEnv, scoreBasePath } from './plugin.ts';

/**
 * The enterprise-score API as a process of its own (§7: "separate host"): the same
 * routes, database and background recompute as in the main server, without the rest.
 *   SCORE_PORT=8090 node server/score/server.ts   (DATABASE_URL / DATA_DIR as for the main server)
 * Point the deployment's api.scoreBase at it (e.g. "https://score.example.com/score-api").
 */
async function main() {
  let env;
  let recomputeMinutes;
  try {
    env = readEnv();
    recomputeMinutes = recomputeMinutesFromEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  const portText = process.env.SCORE_PORT ?? '8090';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`SCORE_PORT must be an integer 0–65535, got "${portText}"`);
    process.exit(2);
  }
  const config = loadDeploymentConfig(env.configFile);
  const { db } = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  const app = Fastify({ logger: { level: env.logLevel }, trustProxy: env.trustProxy, ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } } });
  app.addHook('onClose', async () => db.destroy());
  await app.register(fp(async (instance) => {
    await instance.register(errorsPlugin);
    await instance.register(securityPlugin, { env, config });
    await instance.register(scorePlugin, { db, databaseUrl: env.databaseUrl, base: scoreBasePath(config.api.scoreBase), recomputeMinutes });
  }));
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await app.listen({ port, host: env.host });
  app.log.info(`Provena score API at http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port}${scoreBasePath(config.api.scoreBase)}/v1`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
