import type { FastifyInstance } from 'fastify';
import { checkPhone } from '../../../core/validation.ts';
import { fail } from '../../errors.ts';

/**
 * GET /api/dev/sms-outbox?phone=… (architecture: SMS outbox). Registered only while
 * SMS_PROVIDER=outbox; with a real carrier this route does not exist.
 */
export default async function devRoutes(app: FastifyInstance) {
  if (app.sms.name !== 'outbox') return;
  app.get<{ Querystring: { phone: string } }>(
    '/api/dev/sms-outbox',
    { schema: { querystring: { type: 'object', properties: { phone: { type: 'string', maxLength: 32 } }, required: ['phone'] } } },
    async (request) => {
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
