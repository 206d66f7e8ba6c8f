import type { FastifyInstance } from 'fastify';
import { SMS_TYPES } from '../../../core/constants.ts';
import { checkPhone } from '../../../core/validation.ts';
import { fail } from '../../errors.ts';
import { okNull, SIGNED_IN } from '../schemas.ts';
import { findUserById, findUserByPhone } from '../../services/users.ts';

/** Types sent to a number the caller names, and whether that number must (or must not) have an account. */
const PUBLIC_TYPES: Record<number, 'must-exist' | 'must-not-exist'> = {
  [SMS_TYPES.register]: 'must-not-exist',
  [SMS_TYPES.reset]: 'must-exist',
  [SMS_TYPES.codeLogin]: 'must-exist',
  [SMS_TYPES.changePhoneNew]: 'must-not-exist',
};
/** Types sent to the logged-in user's own phone. */
const PRIVATE_TYPES = new Set<number>([SMS_TYPES.changePhoneOld, SMS_TYPES.legalPerson, SMS_TYPES.vaultUnlock]);

export default async function validationRoutes(app: FastifyInstance) {
  const { db, codes } = app;

  // §7 v1 GET /validation/public-code (phonenumber, type).
  app.get<{ Querystring: { phonenumber: string; type: number } }>(
    '/api/v1/validation/public-code',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { phonenumber: { type: 'string', maxLength: 32 }, type: { type: 'integer' } },
          required: ['phonenumber', 'type'],
        },
        response: okNull,
      },
    },
    async (request) => {
      const { phonenumber, type } = request.query;
      const shape = checkPhone(phonenumber);
      if (shape) fail(shape, 'phonenumber');
      const rule = PUBLIC_TYPES[type];
      if (!rule) fail('invalid_param', 'type');
      if (type === SMS_TYPES.changePhoneNew) await app.requireSession(request);
      const exists = Boolean(await findUserByPhone(db, phonenumber));
      if (rule === 'must-exist' && !exists) fail('user_not_found', 'phonenumber');
      if (rule === 'must-not-exist' && exists) fail('user_already_exist', type === SMS_TYPES.changePhoneNew ? 'new_phone_number' : 'phonenumber');
      await codes.send(phonenumber, type, request.ip);
      return { data: null };
    },
  );

  // §7 v1 GET /validation/private-code (type): to the logged-in user's phone.
  app.get<{ Querystring: { type: number } }>(
    '/api/v1/validation/private-code',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { type: { type: 'integer' } }, required: ['type'] }, response: okNull } },
    async (request) => {
      const session = await app.requireSession(request);
      if (!PRIVATE_TYPES.has(request.query.type)) fail('invalid_param', 'type');
      const user = await findUserById(db, session.user_id);
      if (!user) fail('token_invalid');
      await codes.send(user.phonenumber, request.query.type, request.ip);
      return { data: null };
    },
  );
}
