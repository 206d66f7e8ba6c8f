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
import enterpriseKeyRoutes from './routes/enterprise-keys/index.ts';
import scorePlugin, { recomputeMinutesFromEnv, scoreBasePath } from './score/plugin.ts';
import storagePlugin from './storage/plugin.ts';
import operationsPlugin from './plugins/operations.ts';
import compress from '@fastify/compress';
import zlib from 'node:zlib';
import storageRoutes from './routes/storage/index.ts';
import disclosureRoutes from './routes/disclosures/index.ts';
import vaultRoutes from './routes/vault/index.ts';
import paymentsPlugin from './plugins/payments.ts';
import creditRoutes from './routes/credits/index.ts';
import repoRoutes from './routes/repos/index.ts';
import assetRoutes from './routes/assets/index.ts';
import homeRoutes from './routes/home/index.ts';
import applicationsPlugin from './plugins/applications.ts';
import applicationRoutes from './routes/applications/index.ts';
import openApiRoutes from './routes/open-api/index.ts';
import partnerRoutes from './routes/partners/index.ts';
import gptRoutes from './routes/gpt/index.ts';
import apiDocumentRoutes, { registerApiDocument } from './routes/api-document/index.ts';
import { jobsPlugin, rolesStart } from './jobs/plugin.ts';
import cleanupPlugin from './plugins/cleanup.ts';

export type AppOptions = { db: Db; config: DeploymentConfig; env: Env };

/** The whole application as one plugin: plugins first, then routes. server.ts only boots it. */
export default async function app(fastify: FastifyInstance, opts: AppOptions) {
  // First: the OpenAPI document of the whole API collects every route declared after it.
  await registerApiDocument(fastify, opts.env);
  await fastify.register(errorsPlugin);
  await fastify.register(operationsPlugin);
  // Responses compressed for clients that accept it (brotli at a speed fit for each response;
  // the built assets come precompressed at full strength). Event streams stay uncompressed
  // (the plugin skips text/event-stream), so streamed answers arrive token by token.
  await fastify.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    // The plugin's default also takes octet-stream: stored files are sealed or already dense,
    // and multi-gigabyte downloads must stream at disk speed, so only text-like types are compressed.
    customTypes: /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)|^application\/javascript/u,
  });
  await fastify.register(securityPlugin, { env: opts.env, config: opts.config });
  await fastify.register(servicesPlugin, opts);
  await fastify.register(jobsPlugin);
  await fastify.register(cleanupPlugin);
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
  await fastify.register(enterpriseKeyRoutes);
  await fastify.register(scorePlugin, { db: opts.db, databaseUrl: opts.env.databaseUrl, base: scoreBasePath(opts.config.api.scoreBase), recomputeMinutes: recomputeMinutesFromEnv() });
  await fastify.register(storagePlugin);
  await fastify.register(storageRoutes);
  await fastify.register(disclosureRoutes);
  await fastify.register(vaultRoutes);
  await fastify.register(paymentsPlugin);
  await fastify.register(creditRoutes);
  await fastify.register(assetRoutes);
  await fastify.register(repoRoutes);
  await fastify.register(homeRoutes);
  await fastify.register(applicationsPlugin);
  await fastify.register(applicationRoutes);
  await fastify.register(openApiRoutes);
  await fastify.register(partnerRoutes);
  await fastify.register(gptRoutes);
  await fastify.register(apiDocumentRoutes);
  await fastify.register(staticPlugin, { appDir: opts.env.appDir, serveSourceMaps: opts.env.serveSourceMaps });
  // Last: every plugin has defined its jobs and leader duties; start the queue and run for leader.
  await fastify.register(rolesStart);
}
