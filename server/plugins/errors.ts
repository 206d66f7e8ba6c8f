import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.ts';
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
 * The §7 envelope for failures: 400 `{ message, field_name }` for client errors,
 * 403/404 for refused or unknown routes, 500 `{ message: 'server error' }` for faults
 * (details only in the log, never to the client).
 */
export default fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
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
