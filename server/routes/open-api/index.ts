import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import { FILE_BATCH_MAX, HEADER, SIGNATURE_WINDOW_SECONDS } from '../../../core/applications.ts';
import { readProofPdf } from '../../services/proof-pdf.ts';
import { ApiError, fail } from '../../errors.ts';
import { keyringOf } from '../../keys/platform-keys.ts';
import { requestLocale } from '../../locale.ts';
import { contentDisposition } from '../../content-disposition.ts';
import { authenticate, bumpStats, fileDtos, requestFingerprint, type SignedCaller } from '../../services/applications.ts';
import { ownFile, registerFileBatch, registerOneFile, rememberAnswer, storedAnswer } from '../../services/open-api-calls.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    signedCaller?: SignedCaller;
  }
}

import { identityExample, fileInput, fileEntry, errors, idempotencyHeader, security, securitySchemes } from './schemas.ts';
import { renderReference, type OpenApiDoc } from './reference.ts';

export const OPEN_API_BASE = '/open-api/v1';

/**
 * The open API for external applications, under /open-api/v1. Every request is
 * signed (scheme in core/applications.ts, docs/open-api.md); the OpenAPI 3.1 document at
 * /open-api/v1/openapi.json is generated from these route schemas by @fastify/swagger, and
 * /open-api/v1/docs renders it. Registrations go through the applications feature service.
 */
export default async function openApiRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const keyring = keyringOf(db);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Provena open API',
        version: '1.0.0',
        description: `Register files of an external application on the Provena ledger by their identity (hash), send heartbeats, and read entries, their proof status and proof PDF. Requests are signed with HMAC-SHA256: the signing string is the lines \`provena-v1\`, METHOD, path with query, X-Provena-Timestamp, X-Provena-Nonce and hex(SHA-256(raw body)) joined by \\n; X-Provena-Signature is \`v1=\` + base64(HMAC-SHA256(secret, signing string)). Timestamps more than ${SIGNATURE_WINDOW_SECONDS} s from the server's clock and reused nonces are refused.`,
      },
      servers: [{ url: app.env.publicUrl }],
      components: { securitySchemes },
    },
  });

  // The signature covers the raw body: keep it (this scope only) before JSON parsing.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    request.rawBody = text as string;
    if (!text) return done(null, undefined);
    try {
      done(null, JSON.parse(text as string));
    } catch {
      done(new ApiError('invalid_param', 'body'), undefined);
    }
  });

  // Signed before validated: an unsigned caller learns nothing from validation messages.
  app.addHook('preValidation', async (request) => {
    if ((request.routeOptions.config as { isUnsigned?: boolean }).isUnsigned) return;
    request.signedCaller = await authenticate(db, keyring, { method: request.method, url: request.url, headers: request.headers, rawBody: request.rawBody ?? '' });
  });

  function callerOf(request: FastifyRequest): SignedCaller {
    if (!request.signedCaller) throw new ApiError('token_invalid', HEADER.signature, 401);
    return request.signedCaller;
  }

  /** Idempotency-Key: the first answer is stored and returned again for the same key and request; another request under the key is refused. */
  async function idempotent(request: FastifyRequest, reply: FastifyReply, run: () => Promise<unknown>) {
    const caller = callerOf(request);
    const key = request.headers[HEADER.idempotency];
    if (typeof key !== 'string' || !key) return run();
    const fingerprint = requestFingerprint(request.method, request.url, request.rawBody ?? '');
    const stored = await storedAnswer(db, caller.application.id, key, fingerprint);
    if (stored) return reply.status(stored.status).header('idempotent-replayed', 'true').type('application/json').send(stored.response);
    const result = await run();
    await rememberAnswer(db, caller.application.id, key, fingerprint, result);
    return result;
  }

  app.post<{ Body: Record<string, unknown> }>(
    `${OPEN_API_BASE}/files`,
    {
      compress: false,
      schema: {
        summary: 'Register a file by its identity',
        description: 'Registers one file (hash, name, size, optional metadata) as a ledger entry of the application\'s enterprise, charged credits.applicationFile to the application\'s owner. §8 integrals_not_enough when the owner has too few credits; forbidden when the owner is no longer an unfrozen member.',
        tags: ['files'],
        security,
        headers: idempotencyHeader,
        body: { ...fileInput, examples: [{ file_hash: identityExample, name: 'report.txt', size: 4, metadata: { instrument: 'HPLC-2', run: 17 } }] },
        response: { 200: { type: 'object', properties: { data: fileEntry } }, ...errors },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, async () => {
        const caller = callerOf(request);
        const r = await registerOneFile(db, (i, t) => app.registerEntry(i, t), config, caller, request.body, requestLocale(request));
        return { data: { ...(await fileDtos(db, [r.fileId])).get(r.fileId), duplicate: r.duplicate } };
      }),
  );

  app.post<{ Body: { items: unknown[] } }>(
    `${OPEN_API_BASE}/files/batch`,
    {
      // Registration answers go uncompressed: they are read once by a machine, are a few
      // hundred bytes per file, and compressing a batch's answer (brotli, then the client's
      // decompression) cost about a seventh of a signed batch's CPU time in bench:applications.
      compress: false,
      schema: {
        summary: 'Register a batch of files',
        description: `Up to ${FILE_BATCH_MAX} files, registered together in order and each answered at its index: the entry, or the refusal on its field. One refused item never stops the others; when the owner's credits cover only the first k new files, those are registered and the rest refused with integrals_not_enough.`,
        tags: ['files'],
        security,
        headers: idempotencyHeader,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['items'],
          properties: { items: { type: 'array', minItems: 1, maxItems: FILE_BATCH_MAX, items: {} } },
          examples: [{ items: [{ file_hash: '0x2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae.csv', name: 'export-1.csv', size: 3 }, { file_hash: '0xfcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9.csv', name: 'export-2.csv', size: 3 }] }],
        },
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'object',
                properties: {
                  registered: { type: 'integer' },
                  refused: { type: 'integer' },
                  results: { type: 'array', items: { type: 'object', properties: { index: { type: 'integer' }, ok: { type: 'boolean' }, file: fileEntry, message: { type: 'string' }, field_name: { type: 'string' } }, required: ['index', 'ok'] } },
                },
              },
            },
          },
          ...errors,
        },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, async () => {
        const caller = callerOf(request);
        return { data: await registerFileBatch(db, (i, t) => app.registerEntries(i, t), (i, t) => app.registerEntry(i, t), config, caller, request.body.items, requestLocale(request), request.log) };
      }),
  );

  app.post(
    `${OPEN_API_BASE}/heartbeat`,
    {
      schema: {
        summary: 'Heartbeat',
        description: 'Says the application is alive when it has nothing to register. Any signed request counts as contact; the state turns "data interrupted" after interval + grace without one.',
        tags: ['monitoring'],
        security,
        body: { type: ['object', 'null'], additionalProperties: false, properties: { status: { type: 'string', maxLength: 200, description: 'Free text shown nowhere yet; kept for the application\'s own use.' } }, examples: [{ status: 'ok' }] },
        response: {
          200: { type: 'object', properties: { data: { type: 'object', properties: { application_id: { type: 'integer' }, state: { type: 'string', enum: ['not_connected', 'normal', 'abnormal', 'interrupted'] }, server_time: { type: 'integer' } } } } },
          ...errors,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const now = Date.now();
      await bumpStats(db, caller.application.id, now, { heartbeats: 1 });
      return { data: { application_id: caller.application.id, state: caller.application.state, server_time: now } };
    },
  );

  const dnaParam = { type: 'object', properties: { dna: { type: 'string', maxLength: 64, description: 'The entry\'s DNA (dip_id).' } }, required: ['dna'] } as const;

  app.get<{ Params: { dna: string } }>(
    `${OPEN_API_BASE}/files/:dna`,
    { schema: { summary: 'Read an entry and its proof status', tags: ['files'], security, params: dnaParam, response: { 200: { type: 'object', properties: { data: fileEntry } }, ...errors } } },
    async (request) => ({ data: await ownFile(db, callerOf(request), request.params.dna) }),
  );

  app.get<{ Params: { dna: string } }>(
    `${OPEN_API_BASE}/files/:dna/proof`,
    {
      schema: {
        summary: 'The proof certificate (PDF)',
        description: 'Once the certificate is generated (is_generated); before that §8 proof_record_not_found.',
        tags: ['files'],
        security,
        params: dnaParam,
        response: { 200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } }, ...errors },
      },
    },
    async (request, reply) => {
      const file = await ownFile(db, callerOf(request), request.params.dna);
      const pdf = await readProofPdf(db, app.fileStore.driver, file.dip_id);
      if (!pdf) fail('proof_record_not_found', 'dna');
      return reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition(`provena-proof-${file.dip_id}.pdf`)).send(pdf);
    },
  );

  app.get(`${OPEN_API_BASE}/openapi.json`, { config: { isUnsigned: true }, schema: { hide: true } }, async () => app.swagger());

  app.get(`${OPEN_API_BASE}/docs`, { config: { isUnsigned: true }, schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderReference(app.swagger() as OpenApiDoc)));
}
