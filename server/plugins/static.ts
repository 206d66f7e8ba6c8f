import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { FrontRenderer, localeOf } from '../front-render.ts';
import { publicFiguresOf } from '../services/partners.ts';

const API_PREFIXES = ['/api/', '/verify-api/', '/score-api/'];

/**
 * Serves the built app from APP_DIR with history fallback: any GET that is not an
 * API path and not a file answers index.html, so deep links like /dashboard/setting work.
 * Unknown API paths answer 404 in the envelope.
 */
export default fp<{ appDir: string; serveSourceMaps?: boolean }>(async function staticPlugin(app, opts) {
  const index = path.join(opts.appDir, 'index.html');
  const hasApp = fs.existsSync(index);
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: opts.appDir,
      // wildcard: files written after boot (a rebuild) are served too, not answered with index.html.
      wildcard: true,
      index: false,
      cacheControl: false,
      // The .br/.gz copies scripts/compress-assets.ts wrote at build time, to browsers that accept them.
      preCompressed: true,
      // Source maps are built but served only when the deployment asks for them.
      allowedPath: (pathName) => opts.serveSourceMaps === true || !pathName.endsWith('.map'),
      setHeaders(res, filePath) {
        // Vite's hashed bundles never change; everything else is revalidated.
        const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.raw.setHeader('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(`no built app in ${opts.appDir}: run "npm run build" (API only)`);
  }
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html').send(fs.createReadStream(index));
  // The root is a directory to the static plugin (index: false), so it gets the app explicitly.
  // The public pages are server-rendered: content without JavaScript, in each language.
  if (hasApp) {
    const renderer = new FrontRenderer({
      appDir: opts.appDir,
      config: app.config,
      publicUrl: app.env.publicUrl,
      figures: () => publicFiguresOf(app.db).get(),
      log: (error) => app.log.error({ err: error }, 'server rendering of a public page failed; serving the plain app'),
    });
    for (const pagePath of ['/', '/government', '/partners', '/insurance'] as const) {
      app.get(pagePath, async (request, reply) => {
        const config = app.config;
        // §2 guards: no cooperation company → no partners page (404; the app draws its not-found page);
        // no front page → the plain app, whose entry guard goes to login.
        if (pagePath === '/partners') {
          if (!config.cooperation) return sendIndex(reply.status(404));
        } else if (!config.frontPageAvailable) {
          return sendIndex(reply);
        }
        const { locale } = localeOf(request);
        const html = await renderer.page(pagePath, locale);
        if (html === null) return sendIndex(reply);
        return reply.header('cache-control', 'no-cache').header('vary', 'Cookie').type('text/html; charset=utf-8').send(html);
      });
    }
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url.startsWith(p));
    if (isApi || request.method !== 'GET' || !hasApp) return reply.status(404).send({ message: 'not_found' });
    return sendIndex(reply);
  });
});
