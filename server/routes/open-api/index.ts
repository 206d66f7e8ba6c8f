import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import { FILE_BATCH_MAX, HEADER, SIGNATURE_WINDOW_SECONDS, type ApplicationFileDto } from '../../../core/applications.ts';
import { isProofStatusGenerated } from '../../../core/vault.ts';
import { DNA_PATTERN } from '../../../core/ledger/record.ts';
import { ApiError, fail } from '../../errors.ts';
import { keyringOf } from '../../keys/platform-keys.ts';
import { requestLocale } from '../../locale.ts';
import { contentDisposition } from '../../content-disposition.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { authenticate, bumpStats, checkFileInput, fileDtos, filesQuery, fileDto, registerApplicationFile, registerApplicationFiles, requestFingerprint, type FileInput, type SignedCaller } from '../../services/applications.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    signedCaller?: SignedCaller;
  }
}

export const OPEN_API_BASE = '/open-api/v1';

const identityExample = '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.txt';
const fileInput = {
  type: 'object',
  additionalProperties: false,
  required: ['file_hash', 'name', 'size'],
  properties: {
    file_hash: { type: 'string', maxLength: 100, description: 'The file identity: 0x + SHA-256 in lowercase hex + the lowercase extension (§3). Only the hash travels: the bytes stay with the application.' },
    name: { type: 'string', maxLength: 400, description: 'The file name as the application knows it.' },
    size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Size in bytes.' },
    metadata: { type: ['object', 'null'], additionalProperties: true, description: 'Optional JSON object (at most 8 KiB serialised), kept with the entry.' },
  },
} as const;

const fileEntry = {
  type: 'object',
  properties: {
    file_id: { type: 'integer' },
    application_id: { type: 'integer' },
    dip_id: { type: 'string', description: 'The ledger entry (asset DNA).' },
    name: { type: 'string' },
    file_hash: { type: 'string' },
    size: { type: 'integer' },
    metadata: { type: ['object', 'null'], additionalProperties: true },
    credits: { type: 'integer', description: 'Credits charged (credits.applicationFile).' },
    proof_status: { type: 'integer', description: '1 registered, 2 sealed in a block, 3 anchored, 4 rendering, 5 certificate generated, 6 regenerated.' },
    is_generated: { type: 'boolean', description: 'Whether the proof PDF can be fetched.' },
    block_height: { type: ['integer', 'null'] },
    registered_at: { type: 'integer', description: 'Milliseconds since the epoch.' },
    duplicate: { type: 'boolean', description: 'True when this application had registered the same content before: the first entry is answered and nothing is charged.' },
  },
  required: ['file_id', 'dip_id', 'file_hash', 'proof_status', 'registered_at'],
} as const;

const errorBody = { type: 'object', properties: { message: { type: 'string', description: 'A §8 catalogue key, e.g. token_invalid, integrals_not_enough, invalid_param.' }, field_name: { type: 'string' } }, required: ['message'] } as const;
const errors = { 400: { description: 'Refused: a §8 key on the field at fault.', ...errorBody }, 401: { description: 'The signature, key, timestamp or nonce was refused (field_name names the header).', ...errorBody } } as const;
const idempotencyHeader = { type: 'object', properties: { [HEADER.idempotency]: { type: 'string', minLength: 1, maxLength: 200, description: 'A retried request with the same key answers the first result (kept 24 hours).' } } } as const;
const security = [{ provenaKey: [], provenaSignature: [], provenaTimestamp: [], provenaNonce: [] }];

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
      components: {
        securitySchemes: {
          provenaKey: { type: 'apiKey', in: 'header', name: 'X-Provena-Key', description: 'The key id (ak_…).' },
          provenaTimestamp: { type: 'apiKey', in: 'header', name: 'X-Provena-Timestamp', description: 'Unix time in seconds.' },
          provenaNonce: { type: 'apiKey', in: 'header', name: 'X-Provena-Nonce', description: '16–64 characters [A-Za-z0-9_-], new for every request.' },
          provenaSignature: { type: 'apiKey', in: 'header', name: 'X-Provena-Signature', description: 'v1=base64(HMAC-SHA256(secret, signing string)).' },
        },
      },
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
    const stored = await db.selectFrom('application_idempotency').selectAll().where('application_id', '=', caller.application.id).where('idem_key', '=', key).executeTakeFirst();
    if (stored) {
      if (stored.request_hash !== fingerprint) fail('invalid_param', HEADER.idempotency);
      return reply.status(stored.status).header('idempotent-replayed', 'true').type('application/json').send(stored.response);
    }
    const result = await run();
    try {
      await db.insertInto('application_idempotency').values({ application_id: caller.application.id, idem_key: key, request_hash: fingerprint, status: 200, response: JSON.stringify(result), created_at: Date.now() }).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    return result;
  }

  /** One file: its registration or the §8 refusal; refusals count against the application's error rate. */
  async function registerOne(request: FastifyRequest, caller: SignedCaller, item: unknown): Promise<{ fileId: number; duplicate: boolean; size: number }> {
    const checked = checkFileInput(item);
    if (!checked.ok) {
      await bumpStats(db, caller.application.id, Date.now(), { refusals: 1 });
      fail(checked.message, checked.field_name);
    }
    try {
      const r = await registerApplicationFile(db, (i, t) => app.registerEntry(i, t), config, caller.application, checked.value, requestLocale(request));
      await bumpStats(db, caller.application.id, Date.now(), r.duplicate ? {} : { registrations: 1, bytes: checked.value.size });
      return { ...r, size: checked.value.size };
    } catch (error) {
      if (error instanceof ApiError) await bumpStats(db, caller.application.id, Date.now(), { refusals: 1 });
      throw error;
    }
  }

  app.post<{ Body: Record<string, unknown> }>(
    `${OPEN_API_BASE}/files`,
    {
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
        const r = await registerOne(request, caller, request.body);
        return { data: { ...(await fileDtos(db, [r.fileId])).get(r.fileId), duplicate: r.duplicate } };
      }),
  );

  app.post<{ Body: { items: unknown[] } }>(
    `${OPEN_API_BASE}/files/batch`,
    {
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
        const outcomes: Array<{ index: number; fileId: number; duplicate: boolean } | { index: number; message: string; field_name?: string }> = [];
        // Every item is checked first; the valid ones are registered together (one transaction
        // of bulk statements), each answered at its index; the minute's counts are one upsert.
        const valid: Array<{ index: number; input: FileInput }> = [];
        let refusals = 0;
        for (const [index, item] of request.body.items.entries()) {
          const checked = checkFileInput(item);
          if (checked.ok) valid.push({ index, input: checked.value });
          else {
            refusals += 1;
            outcomes[index] = { index, message: checked.message, field_name: checked.field_name };
          }
        }
        let registrations = 0;
        let bytes = 0;
        if (valid.length) {
          try {
            const results = await registerApplicationFiles(
              db,
              (i, t) => app.registerEntries(i, t),
              (i, t) => app.registerEntry(i, t),
              config,
              caller.application,
              valid.map((v) => v.input),
              requestLocale(request),
            );
            results.forEach((r, k) => {
              const { index, input } = valid[k]!;
              if (r.ok) {
                outcomes[index] = { index, fileId: r.fileId, duplicate: r.duplicate };
                if (!r.duplicate) {
                  registrations += 1;
                  bytes += input.size;
                }
              } else {
                refusals += 1;
                outcomes[index] = { index, message: r.error.key, ...(r.error.field ? { field_name: r.error.field } : {}) };
              }
            });
          } catch (error) {
            request.log.error({ err: error }, 'application batch failed');
            for (const { index } of valid) outcomes[index] = { index, message: 'server error' };
          }
        }
        if (registrations || bytes || refusals) await bumpStats(db, caller.application.id, Date.now(), { registrations, bytes, refusals });
        const dtos = await fileDtos(db, outcomes.flatMap((o) => ('fileId' in o ? [o.fileId] : [])));
        const results = outcomes.map((o) => ('fileId' in o ? { index: o.index, ok: true, file: { ...dtos.get(o.fileId), duplicate: o.duplicate } } : { index: o.index, ok: false, message: o.message, ...(o.field_name ? { field_name: o.field_name } : {}) }));
        const registered = results.filter((r) => r.ok).length;
        return { data: { results, registered, refused: results.length - registered } };
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

  async function ownFile(caller: SignedCaller, dna: string): Promise<ApplicationFileDto> {
    if (!DNA_PATTERN.test(dna)) fail('not_found', 'dna');
    const row = await filesQuery(db).where('f.application_id', '=', caller.application.id).where('f.dna', '=', dna).executeTakeFirst();
    if (!row) fail('not_found', 'dna');
    return fileDto(row as Parameters<typeof fileDto>[0]);
  }

  const dnaParam = { type: 'object', properties: { dna: { type: 'string', maxLength: 64, description: 'The entry\'s DNA (dip_id).' } }, required: ['dna'] } as const;

  app.get<{ Params: { dna: string } }>(
    `${OPEN_API_BASE}/files/:dna`,
    { schema: { summary: 'Read an entry and its proof status', tags: ['files'], security, params: dnaParam, response: { 200: { type: 'object', properties: { data: fileEntry } }, ...errors } } },
    async (request) => ({ data: await ownFile(callerOf(request), request.params.dna) }),
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
      const file = await ownFile(callerOf(request), request.params.dna);
      const proof = await db.selectFrom('proofs').select(['status', 'pdf']).where('dna', '=', file.dip_id).executeTakeFirstOrThrow();
      if (!isProofStatusGenerated(proof.status) || !proof.pdf) fail('proof_record_not_found', 'dna');
      return reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition(`provena-proof-${file.dip_id}.pdf`)).send(Buffer.from(proof.pdf));
    },
  );

  app.get(`${OPEN_API_BASE}/openapi.json`, { config: { isUnsigned: true }, schema: { hide: true } }, async () => app.swagger());

  app.get(`${OPEN_API_BASE}/docs`, { config: { isUnsigned: true }, schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderReference(app.swagger() as OpenApiDoc)));
}

type OpenApiDoc = { info: { title: string; version: string; description?: string }; paths: Record<string, Record<string, { summary?: string; description?: string; requestBody?: { content: Record<string, { schema: unknown }> }; responses?: Record<string, unknown> }>> };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, script-free reference page rendered from the generated document (so it can never disagree with it). */
export function renderReference(doc: OpenApiDoc): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody?.content['application/json']?.schema;
      return `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? '')}</h2>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}${body ? `<h3>Request body</h3><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>` : ''}<h3>Responses</h3><pre>${escapeHtml(JSON.stringify(op.responses ?? {}, null, 2))}</pre></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(doc.info.title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2933}pre{background:#f4f6f8;padding:.75rem;overflow:auto;font-size:13px}h2{font-size:1.1rem;border-top:1px solid #d9e2ec;padding-top:1rem}</style></head><body><h1>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}</h1><p>${escapeHtml(doc.info.description ?? '')}</p><p><a href="openapi.json">openapi.json</a></p>${ops.join('')}</body></html>`;
}
