import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { DeploymentConfig } from '../../core/config.ts';
import type { Env } from '../env.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request protection (architecture: HTTP API). A state-changing request
 * whose Origin names another site is refused with 403; requests with no Origin
 * (scripts, the CLI) are judged by their session alone. Fetch metadata, where the
 * browser sends it, is honoured too. Also sets the security headers (@fastify/helmet):
 * CSP, Referrer-Policy, X-Content-Type-Options, HSTS when cookies are Secure.
 */
export type SecurityOptions = { env: Env; config: DeploymentConfig };

/** Origins other than ours that the browser app talks to: API bases the deployment put on another host. */
function apiOrigins(config: DeploymentConfig): string[] {
  const out = new Set<string>();
  for (const base of [config.api.base, config.api.verifyBase, config.api.scoreBase]) {
    try {
      if (/^https?:\/\//.test(base)) out.add(new URL(base).origin);
    } catch {
      // a path, not a URL
    }
  }
  return [...out];
}

/**
 * The Content-Security-Policy the app runs under (the e2e suite fails on any violation):
 * - scripts only from our origin, never inline or eval; 'wasm-unsafe-eval' lets the hash,
 *   layout and verify workers compile their WebAssembly (it allows no JavaScript eval);
 * - workers (hash, layout, keys, verify, pdf.js) are module workers from our origin;
 * - styles: Mantine writes its CSS variables and component styles into <style> elements at
 *   run time and React sets style attributes, so style-src needs 'unsafe-inline'. Inline
 *   style cannot run script; a nonce would mean templating index.html per request and
 *   threading the nonce through every Mantine and uPlot style injection for no script-side
 *   gain. Scripts, the part that matters, stay strict;
 * - images and fonts may be data:/blob: URLs (QR codes, pdf.js page renders, previews);
 * - nothing may frame the app (frame-ancestors 'none'), except /bigscreen for the origins in
 *   BIGSCREEN_FRAME_ANCESTORS; no plugins, no <base> hijack, forms post only to us.
 */
export function contentSecurityPolicy(opts: SecurityOptions): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'worker-src': ["'self'", 'blob:'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...apiOrigins(opts.config)],
    'media-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(opts.env.cookieSecure ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

export default fp<SecurityOptions>(async function securityPlugin(app: FastifyInstance, opts) {
  const directives = contentSecurityPolicy(opts);
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives },
    // HSTS only where the deployment says it is served over HTTPS (COOKIE_SECURE=true).
    strictTransportSecurity: opts.env.cookieSecure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    // frame-ancestors governs framing; X-Frame-Options DENY for browsers without it (set below, per path).
    frameguard: false,
    // Stored files and PDFs are fetched by our pages only; the CRL and score data may be read by a sibling site.
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginEmbedderPolicy: false,
  });
  const bigscreenAncestors = opts.env.bigscreenFrameAncestors;
  const bigscreenPolicy = Object.entries({ ...directives, 'frame-ancestors': bigscreenAncestors })
    .map(([k, v]) => (v.length ? `${k} ${v.join(' ')}` : k))
    .join(';');
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
        publicHost ??= new URL(opts.env.publicUrl).host;
        isCrossSite ||= originHost !== host && originHost !== publicHost;
      } catch {
        isCrossSite = true;
      }
    } else if (origin === 'null') {
      isCrossSite = true;
    }
    if (isCrossSite) return reply.status(403).send({ message: 'forbidden' });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    const isBigscreen = path === '/bigscreen' || path.startsWith('/bigscreen/');
    if (isBigscreen && bigscreenAncestors.length > 0) {
      reply.header('content-security-policy', bigscreenPolicy);
      reply.removeHeader('x-frame-options');
    } else {
      reply.header('x-frame-options', 'DENY');
    }
    return payload;
  });
});
