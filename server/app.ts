import type { FastifyInstance } from 'fastify';
import type { Db } from './db/database.ts';
import type { DeploymentConfig } from '../core/config.ts';
import type { Env } from './env.ts';
import errorsPlugin from './plugins/errors.ts';
import securityPlugin from './plugins/security.ts';
import servicesPlugin from './plugins/services.ts';
import staticPlugin from './plugins/static.ts';
import configRoutes from './routes/config/index.ts';
import devRoutes from './routes/dev/index.ts';
import userRoutes from './routes/users/index.ts';
import validationRoutes from './routes/validation/index.ts';
import ledgerPlugin from './ledger/plugin.ts';
import ledgerRoutes from './routes/ledger/index.ts';
import explorerRoutes from './routes/explorer/index.ts';
import verifyRoutes from './routes/verify/index.ts';
import enterprisesPlugin from './plugins/enterprises.ts';
import fileRoutes from './routes/files/index.ts';
import enterpriseRoutes from './routes/enterprises/index.ts';
import operatorRoutes from './routes/operators/index.ts';
import scorePlugin, { recomputeMinutesFromEnv, scoreBasePath } from './score/plugin.ts';
import storagePlugin from './storage/plugin.ts';
import storageRoutes from './routes/storage/index.ts';
import disclosureRoutes from './routes/disclosures/index.ts';
import vaultRoutes from './routes/vault/index.ts';
import homeRoutes from './routes/home/index.ts';

export type AppOptions = { db: Db; config: DeploymentConfig; env: Env };

/** The whole application as one plugin: plugins first, then routes. server.ts only boots it. */
export default async function app(fastify: FastifyInstance, opts: AppOptions) {
  await fastify.register(errorsPlugin);
  await fastify.register(securityPlugin);
  await fastify.register(servicesPlugin, opts);
  await fastify.register(ledgerPlugin);
  await fastify.register(configRoutes);
  await fastify.register(userRoutes);
  await fastify.register(validationRoutes);
  await fastify.register(devRoutes);
  await fastify.register(ledgerRoutes);
  await fastify.register(explorerRoutes);
  await fastify.register(verifyRoutes);
  await fastify.register(enterprisesPlugin);
  await fastify.register(fileRoutes);
  await fastify.register(enterpriseRoutes);
  await fastify.register(operatorRoutes);
  await fastify.register(scorePlugin, { db: opts.db, databaseUrl: opts.env.databaseUrl, base: scoreBasePath(opts.config.api.scoreBase), recomputeMinutes: recomputeMinutesFromEnv() });
  await fastify.register(storagePlugin);
  await fastify.register(storageRoutes);
  await fastify.register(disclosureRoutes);
  await fastify.register(vaultRoutes);
  await fastify.register(homeRoutes);
  await fastify.register(staticPlugin, { appDir: opts.env.appDir });
}
