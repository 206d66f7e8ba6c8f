import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.ts';
import { ProofPdfIntegrityError, queueProofPdfRepair } from '../services/proof-pdf.ts';
import type { ErrorKey } from '../../core/errors.ts';

type AjvError = { keyword: string; instancePath: string; params: Record<string, unknown> };

/** Maps a JSON-schema failure to the §8 key and field it concerns. */
function fromValidation(errors: AjvError[]): { key: ErrorKey; field?: string } {
  const first = errors[0];
  if (!first) return { key: 'invalid_param' };
  const pathField = first.instancePath.replace(/^\//, '').split('/')[0] || undefined;
  switch (first.keyword) {
    case 'required':
      return { key: 'required', field: String(first.params.missingProperty ?? pathField ?? '') || undefined };
    case 'maxLength':
    case 'maximum':
    case 'maxItems':
      return { key: 'lt', field: pathField };
    case 'minLength':
    case 'minimum':
    case 'minItems':
      return { key: 'gt', field: pathField };
    default:
      return { key: 'invalid_param', field: pathField };
  }
}

/**
 * The top-level field under which a number that is not finite or not a safe integer's
 * size, or a string (key or value) with a NUL character, sits ('' when the value itself is
 * one), or null when there is none. Walks iteratively: a deeply nested body must not
 * exhaust the stack.
 */
function firstUnusable(value: unknown): string | null {
  const isBad = (v: unknown) => (typeof v === 'number' && (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER)) || (typeof v === 'string' && v.includes('\u0000'));
  if (isBad(value)) return '';
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return null;
  for (const [key, top] of Object.entries(value)) {
    if (key.includes('\u0000')) return '';
    const stack: unknown[] = [top];
    let seen = 0;
    while (stack.length > 0 && seen < 100_000) {
      const v = stack.pop();
      seen += 1;
      if (isBad(v)) return key;
      if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
        for (const [k, inner] of Object.entries(v)) {
          if (k.includes('\u0000')) return key;
          stack.push(inner);
        }
      }
    }
  }
  return null;
}

/**
 * The §7 envelope for failures: 400 `{ message, field_name }` for client errors,
 * 403/404 for refused or unknown routes, 500 `{ message: 'server error' }` for faults
 * (details only in the log, never to the client).
 */
export default fp(async function errorsPlugin(app: FastifyInstance) {
  // Ajv coerces the query string "1e400" to Infinity, which passes `type: integer` and skips
  // `maximum`; JSON.parse gives Infinity for 1e400 too, and numbers past 2^53 are not the
  // numbers the client wrote. PostgreSQL refuses a NUL character in text. None is a
  // meaningful parameter, and the database would answer them with a 500: they are answered
  // 400 on their field once the schema has run.
  app.addHook('preHandler', async (request) => {
    for (const value of [request.query, request.params, request.body]) {
      const field = firstUnusable(value);
      if (field !== null) throw new ApiError('invalid_param', field || undefined);
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ProofPdfIntegrityError) {
      // A damaged certificate object: its own key, the reason in the log, and rendered again.
      request.log.error({ err: error, reason: error.reason, proof: error.proof }, 'certificate object damaged: not served');
      const proof = error.proof;
      if (proof) {
        void queueProofPdfRepair(app.db, proof)
          .then(async (isQueued) => {
            if (!isQueued) return;
            request.log.warn({ proof }, 'damaged certificate queued to be rendered again');
            await app.jobs.send('proofs.render');
          })
          .catch((repairError: unknown) => request.log.error({ err: repairError, proof }, 'could not queue the damaged certificate to be rendered again'));
      }
      return reply.status(500).send({ message: error.key });
    }
    if (error instanceof ApiError) {
      return reply.status(error.status).send({ message: error.key, ...(error.field ? { field_name: error.field } : {}) });
    }
    if (error.validation) {
      const { key, field } = fromValidation(error.validation as unknown as AjvError[]);
      return reply.status(400).send({ message: key, ...(field ? { field_name: field } : {}) });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(400).send({ message: 'too_frequent_operation' });
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large: the client's fault, not ours.
      return reply.status(400).send({ message: 'invalid_param' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'server error' });
  });
});
