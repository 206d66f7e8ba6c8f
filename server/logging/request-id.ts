import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Request ids in every log line. Fastify gives each request's own logger (`request.log`) a
 * `reqId`; but services log through the application's logger (`app.log`), and those lines
 * would say nothing of the request that caused them. The request's id is therefore kept in
 * an AsyncLocalStorage for the rest of its work, and the logger's mixin writes it into every
 * line logged inside it by a logger that does not carry it already.
 *
 * The id comes from the `x-request-id` header when a load balancer (or a client) sent one of
 * a safe shape, so that one id follows a request through the proxy's and this server's logs;
 * otherwise it is a random UUID. It is sent back in the response's `x-request-id`.
 */
const context = new AsyncLocalStorage<string>();
/** Loggers that already bind `reqId` (the per-request children Fastify makes). */
const requestLoggers = new WeakSet<object>();
const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request id of the work running now, if it runs for a request. */
export function currentRequestId(): string | undefined {
  return context.getStore();
}

/** Fastify's `genReqId`: a proxy's id when it has a safe shape, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && SAFE_ID.test(sent) ? sent : randomUUID();
}

/** The logger's mixin: the request id for lines logged inside a request by a logger without one. */
export function requestIdMixin(_merge: object, _level: number, logger: object): Record<string, string> {
  const id = context.getStore();
  return id === undefined || requestLoggers.has(logger) ? {} : { reqId: id };
}

/** Runs the rest of each request inside its id's context, marks request loggers, answers the id. */
export function installRequestIds(fastify: FastifyInstance): void {
  fastify.setChildLoggerFactory(function childLogger(logger, bindings, options) {
    const child = logger.child(bindings, options);
    requestLoggers.add(child);
    return child;
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    context.run(request.id, done);
  });
}
