import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { maskPhoneTail } from '../../../core/masking.ts';
import { checkPhone } from '../../../core/validation.ts';
import { canSeeEnterpriseData } from '../../../core/enterprise.ts';
import { parseFileIdentity } from '../../../core/file-identity.ts';
import {
  ASSET_TYPE_IDS,
  DISCLOSURE_ID_PATTERN,
  DISCLOSURE_SMS_TYPES,
  DISCLOSURE_STATUS,
  FILE_LINK_TTL_MS,
  MAX_EXPIRY_DAYS,
  RECEIPT_SESSION_TTL_MS,
  isDisclosureDead,
  type DisclosurePublicDto,
} from '../../../core/disclosure.ts';
import { ApiError, fail } from '../../errors.ts';
import { hit } from '../../services/rate-limit.ts';
import { disclosableFiles } from '../../services/stored-files.ts';
import {
  AGREEMENT_HASH,
  addEvent,
  advanceStatus,
  contentDisposition,
  downloadName,
  loadDisclosure,
  newDisclosureId,
  newToken,
  sha256Hex,
  toRecordDto,
  type DisclosureRow,
} from '../../services/disclosures.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import { body, code, pageNumber, SIGNED_IN } from '../schemas.ts';

const idParam = { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'] } as const;
const COOKIE_PATH = '/api/v2/disclosures';
const receiptCookie = (id: string) => `provena_receipt_${id}`;
/** Unknown disclosure ids one address may try in an hour (ids are 128-bit; this only slows scanners). */
const MISSES_PER_HOUR = 60;

type CreateBody = {
  hash: string;
  name: string;
  received_phone: string;
  store_name: string;
  type: number;
  validation_code: string;
  store_forever: boolean;
  /** Required unless store_forever: when the link dies (ms since the epoch, in the future, within MAX_EXPIRY_DAYS). */
  expires_at?: number;
};

/**
 * §7 v2 disclosures: the sender creates, lists, follows and revokes; the receiver (no
 * login, §6) proves the phone on record, accepts the agreement and gets a short-lived
 * link bound to this browser's verified session. Every step is an event; the download is
 * recorded on the ledger as a receipt.
 */
export default async function disclosureRoutes(app: FastifyInstance) {
  const { db, codes } = app;

  function isSenderSide(ctx: MemberContext, row: DisclosureRow): boolean {
    return row.enterprise_id === ctx.enterprise.id && (row.sender_user_id === ctx.user.id || canSeeEnterpriseData(ctx.employee.role));
  }

  /** The caller's member context when logged in and a member; null otherwise (receivers). */
  async function optionalMember(request: FastifyRequest): Promise<MemberContext | null> {
    if (!request.session) return null;
    try {
      return await app.requireMember(request, 'member');
    } catch {
      return null;
    }
  }

  /** A disclosure by id, or not_found (404). Misses are counted per address. */
  async function findOr404(request: FastifyRequest, id: string): Promise<DisclosureRow> {
    const row = DISCLOSURE_ID_PATTERN.test(id) ? await loadDisclosure(db, id) : undefined;
    if (!row) {
      if (!(await hit(db, `disclosure-miss:${request.ip}`, MISSES_PER_HOUR * app.env.addressLimitFactor, 60 * 60 * 1000))) {
        throw new ApiError('too_frequent_operation', undefined, 429);
      }
      throw new ApiError('not_found', 'disclosure_id', 404);
    }
    return row;
  }

  /** This browser's receipt session for the disclosure (from its own cookie), if verified and live. */
  async function receiptSession(request: FastifyRequest, id: string) {
    const token = request.cookies[receiptCookie(id)];
    if (!token) return null;
    const row = await db.selectFrom('disclosure_sessions').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
    if (!row || row.disclosure_id !== id || Number(row.expires_at) <= Date.now()) return null;
    return row;
  }

  function setReceiptCookie(reply: FastifyReply, id: string, token: string) {
    reply.setCookie(receiptCookie(id), token, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: app.env.cookieSecure,
      maxAge: Math.floor(RECEIPT_SESSION_TTL_MS / 1000),
    });
  }

  // ---------- sender ----------

  // The sender's own confirmation code (to the logged-in user's phone).
  app.get('/api/v2/disclosures/validation-code', async (request) => {
    const ctx = await app.requireMember(request, 'member');
    await codes.send(ctx.user.phonenumber, DISCLOSURE_SMS_TYPES.senderConfirm, request.ip);
    return { data: null };
  });

  app.post<{ Body: CreateBody }>(
    '/api/v2/disclosures',
    { config: SIGNED_IN,
      schema: {
        body: body(
          {
            hash: { type: 'string', maxLength: 90 },
            name: { type: 'string', maxLength: 200 },
            received_phone: { type: 'string', maxLength: 32 },
            store_name: { type: 'string', maxLength: 200 },
            type: { type: 'integer' },
            validation_code: code,
            store_forever: { type: 'boolean' },
            expires_at: { type: 'integer' },
          },
          ['hash', 'name', 'received_phone', 'store_name', 'type', 'validation_code', 'store_forever'],
        ),
      },
    },
    async (request) => {
      const ctx = await app.requireMember(request, 'member');
      const b = request.body;
      const hash = b.hash.trim().toLowerCase();
      if (!parseFileIdentity(hash)) fail('required', 'hash');
      const files = await disclosableFiles(db, ctx);
      if (!files.some((f) => f.hash === hash)) fail('not_found', 'hash');
      const name = b.name.trim();
      if (!name) fail('required', 'name');
      if (name.length > 100) fail('lt', 'name');
      const phoneError = checkPhone(b.received_phone.trim());
      if (phoneError) fail(phoneError, 'received_phone');
      const storeName = b.store_name.trim();
      if (!storeName) fail('required', 'store_name');
      if (storeName.length > 64) fail('lt', 'store_name');
      if (!(ASSET_TYPE_IDS as readonly number[]).includes(b.type)) fail('invalid_param', 'type');
      let expiresAt: number | null = null;
      const now = Date.now();
      if (!b.store_forever) {
        const at = b.expires_at;
        if (at === undefined) fail('required', 'expires_at');
        if (at <= now) fail('invalid_param', 'expires_at');
        if (at > now + MAX_EXPIRY_DAYS * 24 * 60 * 60 * 1000) fail('lt', 'expires_at');
        expiresAt = at;
      }
      if (!b.validation_code.trim()) fail('validation_code_required', 'validation_code');
      const id = newDisclosureId();
      let codeError: ApiError | null = null;
      await db.transaction().execute(async (trx) => {
        codeError = await codes.consume(trx, ctx.user.phonenumber, DISCLOSURE_SMS_TYPES.senderConfirm, b.validation_code.trim());
        if (codeError) return;
        await trx
          .insertInto('disclosures')
          .values({
            id,
            enterprise_id: ctx.enterprise.id,
            sender_user_id: ctx.user.id,
            file_id: hash,
            name,
            received_phone: b.received_phone.trim(),
            store_name: storeName,
            type: b.type,
            store_forever: b.store_forever ? 1 : 0,
            expires_at: expiresAt,
            status: DISCLOSURE_STATUS.sent,
            created_at: now,
            revoked_at: null,
          })
          .execute();
        await addEvent(trx, id, 'sent', now);
      });
      if (codeError) throw codeError;
      // The link is built from PUBLIC_URL alone: a request's Origin, Host or X-Forwarded-Host
      // would let a caller put their own domain into the platform's SMS.
      const link = `${app.env.publicUrl}/disclosures/${id}`;
      try {
        await app.sms.send({
          id: randomUUID(),
          phone: b.received_phone.trim(),
          type: DISCLOSURE_SMS_TYPES.receiverLink,
          template: 'disclosure',
          params: { enterprise: ctx.enterprise.name, name, link },
          text: `【Provena】${ctx.enterprise.name}向您披露了文件《${name}》，请打开 ${link} 验证手机号后接收。`,
        });
      } catch (error) {
        request.log.error({ err: error, disclosure: id }, 'receiver SMS failed');
      }
      const row = await loadDisclosure(db, id);
      return { data: { ...(await toRecordDto(db, row!)), link } };
    },
  );

  app.get<{ Querystring: { page?: number; page_size?: number } }>(
    '/api/v2/disclosures/records',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { page: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 100 } } } } },
    async (request) => {
      const ctx = await app.requireMember(request, 'member');
      const size = request.query.page_size ?? 20;
      const page = request.query.page ?? 1;
      let q = db.selectFrom('disclosures').where('enterprise_id', '=', ctx.enterprise.id);
      if (!canSeeEnterpriseData(ctx.employee.role)) q = q.where('sender_user_id', '=', ctx.user.id);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const ids = await q.select('id').orderBy('created_at', 'desc').limit(size).offset((page - 1) * size).execute();
      const items = [];
      for (const { id } of ids) {
        const row = await loadDisclosure(db, id);
        if (row) items.push(await toRecordDto(db, row));
      }
      return { data: { items, total, page, page_size: size } };
    },
  );

  app.put<{ Params: { id: string } }>('/api/v2/disclosures/records/:id/revoke', { config: SIGNED_IN, schema: { params: idParam } }, async (request) => {
    const ctx = await app.requireMember(request, 'member');
    const row = await findOr404(request, request.params.id);
    if (!isSenderSide(ctx, row)) throw new ApiError('not_found', 'disclosure_id', 404);
    if (!isDisclosureDead(row.status)) {
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('disclosures').set({ status: DISCLOSURE_STATUS.revoked, revoked_at: now }).where('id', '=', row.id).where('status', '<=', 4).execute();
        await addEvent(trx, row.id, 'revoked', now);
        // Links already handed out die with it.
        await trx.deleteFrom('disclosure_links').where('disclosure_id', '=', row.id).execute();
      });
    }
    return { data: await toRecordDto(db, (await loadDisclosure(db, row.id))!) };
  });

  // ---------- anyone holding the link ----------

  // §7 GET /disclosures/records/{id}: the receiver's view (phone: last 4 digits only); the sender side also gets the full record.
  app.get<{ Params: { id: string } }>('/api/v2/disclosures/records/:id', { schema: { params: idParam } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    const [enterprise, file, session] = await Promise.all([
      db.selectFrom('enterprises').select('name').where('id', '=', row.enterprise_id).executeTakeFirst(),
      db.selectFrom('stored_files').select('size').where('id', '=', row.file_id).executeTakeFirst(),
      receiptSession(request, row.id),
    ]);
    const dto: DisclosurePublicDto & { record?: unknown } = {
      disclosure_id: row.id,
      disclosure_status: row.status,
      received_phone: maskPhoneTail(row.received_phone),
      name: row.name,
      store_name: row.store_name,
      enterprise_name: enterprise?.name ?? '',
      size: Number(file?.size ?? 0),
      step: session ? (session.accepted_at ? 3 : 2) : 0,
    };
    const ctx = await optionalMember(request);
    if (ctx && isSenderSide(ctx, row)) dto.record = await toRecordDto(db, row);
    return { data: dto };
  });

  // The receiver's code (§7 type 8), to the phone on record.
  app.post<{ Params: { id: string } }>('/api/v2/disclosures/records/:id/validation-code', { schema: { params: idParam } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    if (isDisclosureDead(row.status)) fail('not_found', 'validation_code');
    await codes.send(row.received_phone, DISCLOSURE_SMS_TYPES.receiverCode, request.ip);
    return { data: null };
  });

  // §7 PUT /disclosures/check-identify (validation_code, disclosure_id).
  app.put<{ Body: { validation_code: string; disclosure_id: string } }>(
    '/api/v2/disclosures/check-identify',
    { schema: { body: body({ validation_code: code, disclosure_id: { type: 'string', maxLength: 40 } }, ['validation_code', 'disclosure_id']) } },
    async (request, reply) => {
      const row = await findOr404(request, request.body.disclosure_id);
      if (isDisclosureDead(row.status)) fail('not_found', 'validation_code');
      const given = request.body.validation_code.trim();
      if (!given) fail('validation_code_required', 'validation_code');
      const token = newToken();
      const now = Date.now();
      let codeError: ApiError | null = null;
      await db.transaction().execute(async (trx) => {
        codeError = await codes.consume(trx, row.received_phone, DISCLOSURE_SMS_TYPES.receiverCode, given);
        if (codeError) return;
        await trx
          .insertInto('disclosure_sessions')
          .values({ token_hash: sha256Hex(token), disclosure_id: row.id, verified_at: now, accepted_at: null, expires_at: now + RECEIPT_SESSION_TTL_MS })
          .execute();
        await advanceStatus(trx, row.id, DISCLOSURE_STATUS.identityVerified);
        await addEvent(trx, row.id, 'identity_verified', now);
      });
      if (codeError) throw codeError;
      setReceiptCookie(reply, row.id, token);
      return { data: { disclosure_id: row.id, step: 2 } };
    },
  );

  // §7 PUT /disclosures/receive/{id}: the receiver accepts the agreement.
  app.put<{ Params: { id: string } }>('/api/v2/disclosures/receive/:id', { schema: { params: idParam } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    if (isDisclosureDead(row.status)) fail('not_found', 'disclosure_id');
    const session = await receiptSession(request, row.id);
    if (!session) fail('token_invalid', 'validation_code');
    if (!session.accepted_at) {
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('disclosure_sessions').set({ accepted_at: now }).where('token_hash', '=', session.token_hash).execute();
        await advanceStatus(trx, row.id, DISCLOSURE_STATUS.agreementAccepted);
        await addEvent(trx, row.id, 'agreement_accepted', now, `agreement sha256 ${AGREEMENT_HASH}`);
      });
    }
    return { data: { disclosure_id: row.id, step: 3 } };
  });

  // §7 GET /disclosures/records/{id}/file-link: a short-lived link for this verified, accepting browser only.
  app.get<{ Params: { id: string } }>('/api/v2/disclosures/records/:id/file-link', { schema: { params: idParam } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    if (isDisclosureDead(row.status)) fail('not_found', 'disclosure_id');
    const session = await receiptSession(request, row.id);
    if (!session?.accepted_at) fail('token_invalid', 'disclosure_id');
    if (!(await app.fileStore.isStored(row.file_id))) return { data: { file_link: '' } };
    const token = newToken();
    const now = Date.now();
    await db.deleteFrom('disclosure_links').where('expires_at', '<', now).execute();
    await db
      .insertInto('disclosure_links')
      .values({ token_hash: sha256Hex(token), disclosure_id: row.id, session_hash: session.token_hash, created_at: now, expires_at: now + FILE_LINK_TTL_MS })
      .execute();
    return { data: { file_link: `/api/v2/disclosures/files/${token}`, expires_at: now + FILE_LINK_TTL_MS } };
  });

  // The download: the link's token AND the receipt cookie of the session it was issued to.
  app.get<{ Params: { token: string } }>(
    '/api/v2/disclosures/files/:token',
    { schema: { params: { type: 'object', properties: { token: { type: 'string', maxLength: 64 } }, required: ['token'] } } },
    async (request, reply) => {
      const link = await db.selectFrom('disclosure_links').selectAll().where('token_hash', '=', sha256Hex(request.params.token)).executeTakeFirst();
      const nothing = () => reply.status(404).send({ message: 'not_found', field_name: 'file_link' });
      if (!link || Number(link.expires_at) <= Date.now()) return nothing();
      const session = await receiptSession(request, link.disclosure_id);
      if (!session || session.token_hash !== link.session_hash || !session.accepted_at) return nothing();
      const row = await loadDisclosure(db, link.disclosure_id);
      if (!row || isDisclosureDead(row.status)) return nothing();
      const file = await db.selectFrom('stored_files').select('size').where('id', '=', row.file_id).executeTakeFirst();
      const plain = file ? await app.fileStore.open(row.file_id) : null;
      if (!plain || !file) return nothing();
      await recordReceipt(request, row, session.token_hash);
      reply.raw.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(file.size),
        'content-disposition': contentDisposition(downloadName(row.name, row.file_id)),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      reply.hijack();
      try {
        await pipeline(plain, reply.raw);
      } catch (error) {
        // A receiver who stops the download, or a chunk that fails authentication: the connection is cut.
        request.log.warn({ err: error, disclosure: row.id }, 'disclosure download ended early');
        reply.raw.destroy();
      }
    },
  );

  /** The ledger receipt (who, when, which file, which agreement), once per receiver session. */
  async function recordReceipt(request: FastifyRequest, row: DisclosureRow, sessionHash: string): Promise<void> {
    const known = await db.selectFrom('disclosure_receipts').select('id').where('disclosure_id', '=', row.id).where('session_hash', '=', sessionHash).executeTakeFirst();
    if (known) return;
    const enterprise = await db.selectFrom('enterprises').select('name').where('id', '=', row.enterprise_id).executeTakeFirstOrThrow();
    await app.registerEntry({ fileHash: row.file_id, enterpriseName: enterprise.name, registrantUserId: null, kind: 'receipt' }, async (trx, registration) => {
      await trx
        .insertInto('disclosure_receipts')
        .values({
          disclosure_id: row.id,
          session_hash: sessionHash,
          dna: registration.dna,
          file_hash: row.file_id,
          agreement_hash: AGREEMENT_HASH,
          receiver_phone: row.received_phone,
          ip: request.ip,
          user_agent: String(request.headers['user-agent'] ?? '').slice(0, 300),
          received_at: registration.registered_at,
        })
        .execute();
      await advanceStatus(trx, row.id, DISCLOSURE_STATUS.downloaded);
      await addEvent(trx, row.id, 'downloaded', registration.registered_at, `receipt ${registration.dna}`);
    });
  }
}
