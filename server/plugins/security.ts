import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request protection (architecture: HTTP API). A state-changing request
 * whose Origin names another site is refused with 403; requests with no Origin
 * (scripts, the CLI) are judged by their session alone. Fetch metadata, where the
 * browser sends it, is honoured too. Also sets the baseline security headers.
 */
export default fp(async function securityPlugin(app: FastifyInstance) {
  // The services plugin decorates env after this one is registered: read it on first use.
  let publicHost: string | undefined;
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    // Same site: the origin this server is published at (PUBLIC_URL) or the Host the
    // browser connected to. X-Forwarded-Host is never read: anyone can send it.
    const host = request.headers.host;
    let isCrossSite = request.headers['sec-fetch-site'] === 'cross-site';
    if (origin && origin !== 'null') {
      try {
        const originHost = new URL(origin).host;
        publicHost ??= new URL(app.env.publicUrl).host;
        isCrossSite ||= originHost !== host && originHost !== publicHost;
      } catch {
        isCrossSite = true;
      }
    } else if (origin === 'null') {
      isCrossSite = true;
    }
    if (isCrossSite) return reply.status(403).send({ message: 'forbidden' });
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    return payload;
  });
});
