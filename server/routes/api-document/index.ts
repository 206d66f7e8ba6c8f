import type { FastifyInstance } from 'fastify';
import swagger, { type SwaggerOptions } from '@fastify/swagger';
import type { Env } from '../../env.ts';
import { securitySchemes } from '../open-api/schemas.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI 3.1 document of the whole API (every route's request and response schemas). */
    apiDocument: FastifyInstance['swagger'];
  }
}

export const API_DOCUMENT_PATH = '/api/v1/openapi.json';

/**
 * @fastify/swagger for the whole API, registered on the root instance before any route so that
 * it sees them all. The open API keeps its own document (/open-api/v1/openapi.json: only the
 * signed routes, with examples); this one describes every route the browser app, the operator
 * console and the CLI call, from the same schemas the server validates and serializes with.
 */
export function apiDocumentOptions(env: Env): SwaggerOptions {
  return {
    decorator: 'apiDocument',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Provena API',
        version: '1.0.0',
        description:
          'Every route of the Provena server. Routes under /api/v1 answer `{ data }` on success and `{ message, field_name }` (a §8 catalogue key and the field at fault) on failure; signed-in routes take the session cookie `provena_session`, operator routes the operator session. Routes under /open-api/v1 are for external applications and are signed (see /open-api/v1/openapi.json).',
      },
      servers: [{ url: env.publicUrl }],
      components: { securitySchemes },
    },
  } as SwaggerOptions;
}

/** Registers the document's generator on `root` (before the routes) … */
export async function registerApiDocument(root: FastifyInstance, env: Env): Promise<void> {
  await root.register(swagger, apiDocumentOptions(env));
}

/** … and serves it (after them). */
export default async function apiDocumentRoutes(app: FastifyInstance) {
  app.get(API_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.apiDocument());
}
