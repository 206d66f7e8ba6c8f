import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server as TusServer, type Locker } from '@tus/server';
import { ERRORS, EXPOSED_HEADERS, Metadata, TUS_RESUMABLE, type Upload } from '@tus/utils';
import { parseFileIdentity } from '../../../core/file-identity.ts';
import { fail } from '../../errors.ts';
import { HashMismatchError, objectKeyOf, type SealedUpload } from '../../storage/file-store.ts';
import { releaseBuffer } from '../../storage/sealed.ts';
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

const isCount = (value: string) => {
  const n = Number(value);
  return Number.isInteger(n) && String(n) === value && n >= 0;
};
/** The request headers @tus/server validates on a PATCH, with its rules (validators/HeaderValidator). */
const PATCH_HEADER_CHECKS: Array<[string, (value: string) => boolean]> = [
  ['upload-offset', isCount],
  ['upload-length', isCount],
  ['upload-defer-length', (value) => value === '1'],
  ['tus-resumable', (value) => value === TUS_RESUMABLE],
  ['content-type', (value) => value === 'application/offset+octet-stream'],
  ['upload-metadata', (value) => parseUploadMetadata(value) !== null],
];

/**
 * The request body until the lock is asked for by another request (tus's lock release):
 * then it ends where it is, and the store commits what arrived. Each piece is freed
 * (releaseBuffer) when the store asks for the next one: the stores (file-store.ts,
 * shared-staging.ts) hash and copy a piece before they ask for more and keep no reference to it.
 */
async function* untilReleased(body: AsyncIterable<Buffer>, released: AbortSignal): AsyncGenerator<Buffer> {
  if (released.aborted) return;
  const pieces = body[Symbol.asyncIterator]();
  const stop = new Promise<IteratorReturnResult<undefined>>((resolve) => released.addEventListener('abort', () => resolve({ done: true, value: undefined }), { once: true }));
  for (;;) {
    const next = pieces.next();
    const result = await Promise.race([next, stop]);
    if (result.done) {
      // The piece still awaited, if any, is dropped with the connection.
      next.catch(() => {});
      return;
    }
    yield result.value;
    releaseBuffer(result.value);
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

  /** The last byte arrived: the digest is checked, the sealed file stored and owned (tus's onUploadFinish, and ours for PATCH). */
  async function finishUpload(upload: Upload): Promise<Record<string, never>> {
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
  }

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore: store.tus,
    relativeLocation: true,
    respectForwardedHeaders: app.env.trustProxy,
    maxSize: MAX_STORED_BYTES,
    onUploadFinish: (_req, upload) => finishUpload(upload),
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
    if (request.method === 'PATCH' && id) await patchUpload(request, reply, id);
    else await tus.handle(request.raw, reply.raw);
  }

  /**
   * A tus PATCH, answered here rather than by @tus/server: tus hands the body to the store
   * through a web stream (Readable.toWeb, copying every piece, then Readable.fromWeb and a
   * PassThrough), which cost more than half of an upload's time. This reads the Node request
   * itself, under tus's own locker, with the checks and answers of its PatchHandler.
   */
  async function patchUpload(request: FastifyRequest, reply: FastifyReply, id: string): Promise<void> {
    const raw = request.raw;
    const res = reply.raw;
    const send = (status: number, body: string, extra: Record<string, string> = {}) => {
      const headers: Record<string, string> = { 'Tus-Resumable': TUS_RESUMABLE, 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS, ...extra };
      const hasBody = status !== 204;
      if (hasBody) headers['Content-Length'] = String(Buffer.byteLength(body, 'utf8'));
      res.writeHead(status, headers);
      res.end(hasBody ? body : undefined);
    };
    const header = (name: string) => {
      const value = raw.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    // Ends when the client goes away: a wait for the lock stops with it.
    const gone = new AbortController();
    raw.once('close', () => {
      if (!raw.complete) gone.abort();
    });
    // Aborted when another request for this upload asks for the lock: this one ends with what it has.
    const released = new AbortController();
    try {
      if (header('tus-resumable') === undefined) return send(412, 'Tus-Resumable Required\n');
      const invalid = PATCH_HEADER_CHECKS.filter(([name, isValid]) => header(name) !== undefined && !isValid(header(name)!)).map(([name]) => name);
      if (invalid.length > 0) return send(400, `Invalid ${invalid.join(' ')}\n`);
      if (header('upload-offset') === undefined) throw ERRORS.MISSING_OFFSET;
      if (header('content-type') === undefined) throw ERRORS.INVALID_CONTENT_TYPE;
      const offset = Number.parseInt(header('upload-offset')!, 10);
      const lock = (tus.options.locker as Locker).newLock(id);
      await lock.lock(gone.signal, async () => released.abort());
      let upload: Upload;
      let newOffset: number;
      try {
        upload = await store.tus.getUpload(id);
        const expires = expiresAt(upload);
        if (expires !== null && Date.now() > expires) throw ERRORS.FILE_NO_LONGER_EXISTS;
        if (upload.offset !== offset) throw ERRORS.INVALID_OFFSET;
        // Upload-Length on a PATCH is the creation-defer-length extension, which the stores do not offer.
        if (header('upload-length') !== undefined) throw ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION;
        const length = Number.parseInt(header('content-length') ?? '0', 10);
        if (offset + length > (upload.size ?? 0)) throw ERRORS.ERR_SIZE_EXCEEDED;
        newOffset = await store.tus.write(untilReleased(raw, released.signal), id, offset);
      } finally {
        await lock.unlock();
      }
      upload.offset = newOffset;
      const extra: Record<string, string> = { 'Upload-Offset': String(newOffset) };
      if (released.signal.aborted) extra.Connection = 'close';
      if (newOffset === upload.size) await finishUpload(upload);
      else {
        const expires = expiresAt(upload);
        if (expires !== null) extra['Upload-Expires'] = new Date(expires).toUTCString();
      }
      send(204, '', extra);
    } catch (error) {
      if (gone.signal.aborted || (raw.destroyed && !raw.complete) || res.headersSent) {
        // The client went away: what arrived is kept (the next HEAD says where to resume).
        res.destroy();
        return;
      }
      const e = error as { status_code?: number; body?: string; message?: string };
      if (!e.status_code) request.log.error({ err: error, upload: id }, 'upload PATCH failed');
      send(e.status_code ?? ERRORS.UNKNOWN_ERROR.status_code, e.body ?? `${ERRORS.UNKNOWN_ERROR.body}${e.message ?? ''}\n`, released.signal.aborted ? { Connection: 'close' } : {});
    }
  }

  /** When an unfinished upload expires (ms), or null when uploads do not expire. */
  function expiresAt(upload: Upload): number | null {
    const expiry = store.tus.getExpiration();
    if (expiry <= 0 || !upload.creation_date) return null;
    return new Date(upload.creation_date).getTime() + expiry;
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
