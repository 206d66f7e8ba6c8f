import type { FastifyInstance } from 'fastify';
import { checkPhone } from '../../../core/validation.ts';
import { fail } from '../../errors.ts';

/** Whether a socket address is the machine itself (IPv4 127/8, IPv6 ::1, or 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * GET /api/dev/sms-outbox?phone=… (architecture: SMS outbox). Registered only while
 * SMS_PROVIDER=outbox; with a real carrier no /api/dev route exists. It answers only a
 * client on this machine, judged by the socket's address: forwarded headers (and
 * Fastify's request.ip, which follows them under TRUST_PROXY) are never consulted, so a
 * reverse proxy on the same host does not open it to the world either way — it answers
 * 404 to anything that is not a direct loopback connection.
 */
export default async function devRoutes(app: FastifyInstance) {
  if (app.sms.name !== 'outbox') return;
  app.get<{ Querystring: { phone: string } }>(
    '/api/dev/sms-outbox',
    { schema: { querystring: { type: 'object', properties: { phone: { type: 'string', maxLength: 32 } }, required: ['phone'] } } },
    async (request, reply) => {
      const isForwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => request.headers[h] !== undefined);
      if (!isLoopbackAddress(request.socket.remoteAddress) || isForwarded) return reply.status(404).send({ message: 'not_found' });
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
