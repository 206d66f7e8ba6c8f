import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { IMAGE_MAX_BYTES } from '../../../core/constants.ts';
import { extensionMatches, sniffFileType } from '../../../core/enterprise.ts';
import { parseFileIdentity } from '../../../core/file-identity.ts';
import { fail, rethrowMultipart } from '../../errors.ts';
import { body, envelope, num, obj, ok, SIGNED_IN, str } from '../schemas.ts';

/** The stored file: its identity, size in bytes and sniffed type (jpg, png, bmp, gif, pdf). */
const uploaded = obj({ uuid: str, size: num, type: str });

const ACCEPTED_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'bmp', 'gif', 'pdf']);
const UPLOAD_URL = '/api/v1/files';

/** §7 small-file upload: ask for upload info by identity, then post the file multipart with body_params. */
export default async function fileRoutes(app: FastifyInstance) {
  const { db, blobs } = app;
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 4, fieldSize: 256, parts: 6 } });

  function checkIdentity(uuid: string): void {
    const parsed = parseFileIdentity(uuid);
    if (!parsed) fail('invalid_param', 'uuid');
    if (!ACCEPTED_EXTENSIONS.has(parsed.extension.slice(1))) fail('file_type_unsupported', 'uuid');
  }

  // §7 v1 POST /files/upload-request (uuid): where and how to upload the file of this identity.
  app.post<{ Body: { uuid: string } }>(
    '/api/v1/files/upload-request',
    { config: SIGNED_IN,
      schema: {
        body: body({ uuid: { type: 'string', maxLength: 90 } }, ['uuid']),
        response: envelope({ type: 'object', properties: { url: { type: 'string' }, body_params: { type: 'object', additionalProperties: { type: 'string' } }, exists: { type: 'boolean' } } }),
      },
    },
    async (request) => {
      const user = await app.requireUser(request);
      const uuid = request.body.uuid.trim();
      checkIdentity(uuid);
      const owned = await db.selectFrom('file_owners').select('file_id').where('file_id', '=', uuid).where('user_id', '=', user.id).executeTakeFirst();
      return { data: { url: UPLOAD_URL, body_params: { uuid }, exists: Boolean(owned) } };
    },
  );

  // The upload itself: fields uuid (and name) before the file; content must hash to the identity.
  app.post('/api/v1/files', { schema: { response: ok(uploaded) } }, async (request) => {
    const user = await app.requireUser(request);
    if (!request.isMultipart()) fail('invalid_param', 'file');
    let part: Awaited<ReturnType<typeof request.file>>;
    let bytes: Buffer;
    try {
      part = await request.file();
      if (!part) fail('required', 'file');
      bytes = await part.toBuffer();
    } catch (error) {
      if (error instanceof app.multipartErrors.RequestFileTooLargeError) fail('file_too_large', 'file');
      rethrowMultipart(error, 'file');
    }
    const uuidField = part.fields.uuid;
    const uuid = uuidField && 'value' in uuidField ? String(uuidField.value).trim() : '';
    if (!uuid) fail('required', 'uuid');
    checkIdentity(uuid);
    const parsed = parseFileIdentity(uuid)!;
    if (bytes.length === 0) fail('required', 'file');
    if (bytes.length >= IMAGE_MAX_BYTES) fail('file_too_large', 'file');
    const sniffed = sniffFileType(bytes.subarray(0, 16));
    if (!sniffed || !extensionMatches(parsed.extension.slice(1), sniffed)) fail('file_type_unsupported', 'file');
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (digest !== parsed.sha256) fail('hash_mismatch', 'file');
    await blobs.put(uuid, bytes);
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      const known = await trx.selectFrom('files').select('id').where('id', '=', uuid).executeTakeFirst();
      if (!known) await trx.insertInto('files').values({ id: uuid, size: bytes.length, type: sniffed, created_at: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
      await trx
        .insertInto('file_owners')
        .values({ file_id: uuid, user_id: user.id, created_at: now })
        .onConflict((oc) => oc.columns(['file_id', 'user_id']).doNothing())
        .execute();
    });
    return { data: { uuid, size: bytes.length, type: sniffed } };
  });
}
