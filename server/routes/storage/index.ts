import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server as TusServer } from '@tus/server';
import { Metadata } from '@tus/utils';
import { parseFileIdentity } from '../../../core/file-identity.ts';
import { fail } from '../../errors.ts';
import { HashMismatchError, objectKeyOf, type SealedUpload } from '../../storage/file-store.ts';
import { disclosableFiles, isRegisteredInEnterprise } from '../../services/stored-files.ts';
import { arrayOf, envelope, num, obj, ok, SIGNED_IN, str } from '../schemas.ts';

/** services/stored-files.ts StoredFileDto. */
const storedFiles = arrayOf(obj({ hash: str, name: str, size: num, stored_at: num }));

export const UPLOADS_PATH = '/api/v1/storage/uploads';
/** Largest file one upload may carry. */
export const MAX_STORED_BYTES = 64 * 1024 ** 3;

/**
 * tus Upload-Metadata ("key base64(value)" pairs) read by @tus/utils, as the tus server reads it;
 * null when the header is malformed (a bad key, a value that is not base64, a repeated key).
 */
export function parseUploadMetadata(header: string | undefined): Record<string, string | null> | null {
  if (!header?.trim()) return {};
  try {
    return Metadata.parse(header);
  } catch {
    return null;
  }
}

/** tus reads the Node request's raw header list: replace the header there as well as in the parsed map. */
function setRawHeader(request: FastifyRequest, name: string, value: string): void {
  const raw = request.raw.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === name) raw.splice(i, 2);
  }
  raw.push(name, value);
  request.raw.headers[name] = value;
}

/**
 * Storing registered files: tus resumable uploads at /api/v1/storage/uploads
 * (the session cookie authorises them; an upload belongs to the user who created it),
 * and what is stored for the caller's enterprise.
 */
export default async function storageRoutes(app: FastifyInstance) {
  const store = app.fileStore;

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore: store.tus,
    relativeLocation: true,
    respectForwardedHeaders: app.env.trustProxy,
    maxSize: MAX_STORED_BYTES,
    async onUploadFinish(_req, upload) {
      const metadata = upload.metadata ?? {};
      const identity = metadata.identity ?? '';
      const parsed = parseFileIdentity(identity);
      if (!parsed) throw { status_code: 400, body: JSON.stringify({ message: 'invalid_param', field_name: 'file' }) };
      let sealed: SealedUpload;
      try {
        sealed = await store.tus.seal(upload.id, parsed.sha256);
      } catch (error) {
        if (error instanceof HashMismatchError) {
          app.log.warn({ upload: upload.id }, error.message);
          throw { status_code: 400, body: JSON.stringify({ message: 'hash_mismatch', field_name: 'file' }) };
        }
        throw error;
      }
      // The same bytes stored before (by anyone) are kept as they are; this copy is dropped.
      if (await store.isStored(identity)) await sealed.discard();
      else await sealed.storeAs(objectKeyOf(identity));
      await store.tus.finish(upload.id, upload.size ?? sealed.size);
      const now = Date.now();
      await app.db.transaction().execute(async (trx) => {
        await trx.insertInto('stored_files').values({ id: identity, size: sealed.size, created_at: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
        await trx
          .insertInto('stored_file_owners')
          .values({ file_id: identity, enterprise_id: Number(metadata.enterprise), user_id: Number(metadata.user), name: (metadata.filename ?? identity).slice(0, 255), created_at: now })
          .onConflict((oc) => oc.columns(['file_id', 'enterprise_id']).doNothing())
          .execute();
      });
      app.log.info({ identity, size: sealed.size, driver: store.driver.kind }, 'file stored');
      return {};
    },
  });

  async function onTus(request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) {
    const ctx = await app.requireMember(request, 'member');
    const id = request.params.id;
    if (request.method === 'POST') {
      const given = parseUploadMetadata(request.headers['upload-metadata'] as string | undefined);
      if (!given) fail('invalid_param', 'file');
      const identity = (given.identity ?? '').trim();
      if (!parseFileIdentity(identity)) fail('invalid_param', 'file');
      const length = Number(request.headers['upload-length']);
      if (!Number.isSafeInteger(length) || length <= 0) fail('required', 'file');
      if (!(await isRegisteredInEnterprise(app.db, ctx, identity))) fail('proof_record_not_found', 'file');
      const filename = (given.filename ?? '').replace(/[\u0000-\u001f]/g, '').slice(0, 255) || identity;
      // Owner fields are the server's, whatever the client sent.
      setRawHeader(request, 'upload-metadata', Metadata.stringify({ identity, filename, user: String(ctx.user.id), enterprise: String(ctx.enterprise.id) }));
    } else if (id) {
      const meta = /^[0-9a-f]{32}$/.test(id) ? await store.tus.readMeta(id) : null;
      if (!meta || meta.metadata.user !== String(ctx.user.id)) return reply.status(404).header('tus-resumable', '1.0.0').send('');
    }
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  }

  await app.register(async (scope) => {
    // The body of a PATCH is the file: tus reads it from the raw request, Fastify leaves it alone.
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    scope.route({ method: ['POST', 'OPTIONS'], url: UPLOADS_PATH, handler: onTus });
    scope.route({ method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: `${UPLOADS_PATH}/:id`, handler: onTus });
  });

  // Whether a file is stored for the caller's enterprise (the "Store the file" action's state).
  app.get<{ Params: { hash: string } }>(
    '/api/v1/storage/files/:hash',
    { config: SIGNED_IN,
      schema: {
        params: { type: 'object', properties: { hash: { type: 'string', maxLength: 90 } }, required: ['hash'] },
        response: envelope({ type: 'object', properties: { hash: { type: 'string' }, is_stored: { type: 'boolean' }, is_registered: { type: 'boolean' }, size: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] } } }),
      },
    },
    async (request) => {
      const ctx = await app.requireMember(request, 'member');
      const hash = request.params.hash.trim().toLowerCase();
      if (!parseFileIdentity(hash)) fail('invalid_param', 'hash');
      const isRegistered = await isRegisteredInEnterprise(app.db, ctx, hash);
      const row = isRegistered
        ? await app.db
            .selectFrom('stored_file_owners')
            .innerJoin('stored_files', 'stored_files.id', 'stored_file_owners.file_id')
            .select(['stored_files.size', 'stored_file_owners.name'])
            .where('file_id', '=', hash)
            .where('enterprise_id', '=', ctx.enterprise.id)
            .executeTakeFirst()
        : undefined;
      return { data: { hash, is_stored: Boolean(row), is_registered: isRegistered, size: row ? Number(row.size) : null, name: row?.name ?? null } };
    },
  );

  // Files the caller may disclose: registered in the enterprise and stored.
  app.get('/api/v1/storage/files', { schema: { response: ok(storedFiles) } }, async (request) => {
    const ctx = await app.requireMember(request, 'member');
    return { data: await disclosableFiles(app.db, ctx) };
  });
}
