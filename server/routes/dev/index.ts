import type { FastifyInstance } from 'fastify';
import { checkPhone } from '../../../core/validation.ts';
import { fail } from '../../errors.ts';
import { arrayOf, num, obj, ok, str } from '../schemas.ts';

/** The codes sent to a phone, newest first. */
const outboxResponse = ok(arrayOf(obj({ phone: str, code: str, type: num, sent_at: num })));

/** Whether a socket address is the machine itself (IPv4 127/8, IPv6 ::1, or 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * A proxy on this machine (Vite's dev server with --host, say) makes every client look
 * local. Forwarded headers never open the route; they can only close it: any address
 * in them that is not loopback, or a Forwarded header at all, and the answer is 404.
 */
function isForwardedFromElsewhere(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers.forwarded !== undefined) return true;
  const listed = [headers['x-forwarded-for'], headers['x-real-ip']].flat().filter((v): v is string => typeof v === 'string');
  return listed.some((v) => v.split(',').some((a) => !isLoopbackAddress(a.trim())));
}

/**
 * GET /api/dev/sms-outbox?phone=… (architecture: SMS outbox). Registered only while
 * SMS_PROVIDER=outbox; with a real carrier no /api/dev route exists. It answers only a
 * client on this machine, judged by the socket's address: forwarded headers (and
 * Fastify's request.ip, which follows them under TRUST_PROXY) never open it; see
 * isForwardedFromElsewhere for how they can close it.
 */
export default async function devRoutes(app: FastifyInstance) {
  if (app.sms.name !== 'outbox') return;
  app.get<{ Querystring: { phone: string } }>(
    '/api/dev/sms-outbox',
    { schema: { querystring: { type: 'object', properties: { phone: { type: 'string', maxLength: 32 } }, required: ['phone'] }, response: outboxResponse, hide: true } },
    async (request, reply) => {
      if (!isLoopbackAddress(request.socket.remoteAddress) || isForwardedFromElsewhere(request.headers)) return reply.status(404).send({ message: 'not_found' });
      const shape = checkPhone(request.query.phone);
      if (shape) fail(shape, 'phone');
      const rows = await app.db
        .selectFrom('sms_outbox')
        .select(['phone', 'code', 'type', 'sent_at'])
        .where('phone', '=', request.query.phone)
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
      return { data: rows };
    },
  );
}
