import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { Db } from '../db/database.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import type { Env } from '../env.ts';
import { codeService, type CodeService, type SmsProvider } from '../services/sms.ts';
import { providerFromEnv, withRetries } from '../services/sms-providers.ts';
import { SESSION_COOKIE, SESSION_TTL_MS, SIGNED_IN_HINT_COOKIE, sessionService, type SessionRow, type SessionService } from '../services/sessions.ts';
import { ApiError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: DeploymentConfig;
    env: Env;
    sms: SmsProvider;
    codes: CodeService;
    sessions: SessionService;
    /** Resolves the caller's session, or fails with token_invalid. */
    requireSession(request: FastifyRequest): Promise<SessionRow>;
    setSessionCookie(reply: import('fastify').FastifyReply, token: string): void;
    clearSessionCookie(reply: import('fastify').FastifyReply): void;
  }
  interface FastifyRequest {
    session: SessionRow | null;
  }
  interface FastifyContextConfig {
    /** 'session': the caller must be signed in, checked before the schema (see onRoute below). */
    auth?: 'session';
  }
}

export type ServicesOptions = { db: Db; config: DeploymentConfig; env: Env };

/** Decorates the app once with its services; routes reach them through `app`. */
export default fp<ServicesOptions>(async function servicesPlugin(app, opts) {
  await app.register(cookie);
  app.decorate('db', opts.db);
  app.decorate('config', opts.config);
  app.decorate('env', opts.env);
  const sms = withRetries(providerFromEnv(opts.env.sms, opts.db, app.log), opts.env.sms.retryDelaysMs, app.log);
  app.decorate('sms', sms);
  app.decorate('codes', codeService(opts.db, sms, opts.env.addressLimitFactor));
  const sessions = sessionService(opts.db);
  app.decorate('sessions', sessions);
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.session = await sessions.find(token);
  });

  app.decorate('requireSession', async (request: FastifyRequest) => {
    if (!request.session) throw new ApiError('token_invalid');
    return request.session;
  });

  // A route declared with `config: SIGNED_IN` checks the session before its schema: an
  // anonymous caller gets the §8 not-signed-in answer and learns nothing about the route's
  // parameters from validation messages. The handler still checks role and membership.
  app.addHook('onRoute', (route) => {
    if (route.config?.auth !== 'session') return;
    const signedInFirst = async (request: FastifyRequest) => {
      await app.requireSession(request);
    };
    const given = route.preValidation;
    route.preValidation = given ? [signedInFirst, ...(Array.isArray(given) ? given : [given])] : [signedInFirst];
  });

  app.decorate('setSessionCookie', (reply, token: string) => {
    const cookie = { path: '/', sameSite: 'lax', secure: opts.env.cookieSecure, maxAge: Math.floor(SESSION_TTL_MS / 1000) } as const;
    reply.setCookie(SESSION_COOKIE, token, { ...cookie, httpOnly: true });
    reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', cookie);
  });
  app.decorate('clearSessionCookie', (reply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.env.cookieSecure });
    reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', sameSite: 'lax', secure: opts.env.cookieSecure });
  });
});
