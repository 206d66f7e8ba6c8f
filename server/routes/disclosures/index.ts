import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { DISCLOSURE_ID_PATTERN, DISCLOSURE_SMS_TYPES, RECEIPT_SESSION_TTL_MS, isDisclosureDead } from '../../../core/disclosure.ts';
import { ApiError, fail } from '../../errors.ts';
import { hit } from '../../services/rate-limit.ts';
import { contentDisposition, downloadName, loadDisclosure, toRecordDto, type DisclosureRow } from '../../services/disclosures.ts';
import {
  acceptAgreement,
  createDisclosure,
  disclosureRecords,
  downloadOf,
  isSenderSide,
  issueFileLink,
  publicView,
  recordReceipt,
  revokeDisclosure,
  verifyReceiver,
} from '../../services/disclosure-flow.ts';
import type { CreateDisclosureInput } from '../../../core/disclosure.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import { body, code, ok, okNull, pageNumber, SIGNED_IN } from '../schemas.ts';
import { createdDisclosure, disclosureRecord, fileLink, publicDisclosure, receiverStep, recordPage } from './responses.ts';

const idParam = { type: 'object', properties: { id: { type: 'string', maxLength: 40 } }, required: ['id'] } as const;
const COOKIE_PATH = '/api/v2/disclosures';
const receiptCookie = (id: string) => `provena_receipt_${id}`;
/** Unknown disclosure ids one address may try in an hour (ids are 128-bit; this only slows scanners). */
const MISSES_PER_HOUR = 60;

/**
 * §7 v2 disclosures: the sender creates, lists, follows and revokes; the receiver (no
 * login, §6) proves the phone on record, accepts the agreement and gets a short-lived
 * link bound to this browser's verified session. Every step is an event; the download is
 * recorded on the ledger as a receipt. Routes check who asks and handle cookies, SMS and
 * the stream; services/disclosure-flow.ts decides and writes.
 */
export default async function disclosureRoutes(app: FastifyInstance) {
  const { db, codes } = app;

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

  /** This browser's receipt-session token for the disclosure (its own cookie). */
  const receiptToken = (request: FastifyRequest, id: string) => request.cookies[receiptCookie(id)];

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
  app.get('/api/v2/disclosures/validation-code', { schema: { response: okNull } }, async (request) => {
    const ctx = await app.requireMember(request, 'member');
    await codes.send(ctx.user.phonenumber, DISCLOSURE_SMS_TYPES.senderConfirm, request.ip);
    return { data: null };
  });

  app.post<{ Body: CreateDisclosureInput }>(
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
        response: ok(createdDisclosure),
      },
    },
    async (request) => {
      const ctx = await app.requireMember(request, 'member');
      const { id, name, phone } = await createDisclosure(db, codes, ctx, request.body);
      // The link is built from PUBLIC_URL alone: a request's Origin, Host or X-Forwarded-Host
      // would let a caller put their own domain into the platform's SMS.
      const link = `${app.env.publicUrl}/disclosures/${id}`;
      try {
        await app.sms.send({
          id: randomUUID(),
          phone,
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
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { page: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 100 } } }, response: ok(recordPage) } },
    async (request) => {
      const ctx = await app.requireMember(request, 'member');
      return { data: await disclosureRecords(db, ctx, request.query.page ?? 1, request.query.page_size ?? 20) };
    },
  );

  app.put<{ Params: { id: string } }>('/api/v2/disclosures/records/:id/revoke', { config: SIGNED_IN, schema: { params: idParam, response: ok(disclosureRecord) } }, async (request) => {
    const ctx = await app.requireMember(request, 'member');
    const row = await findOr404(request, request.params.id);
    if (!isSenderSide(ctx, row)) throw new ApiError('not_found', 'disclosure_id', 404);
    return { data: await revokeDisclosure(db, row) };
  });

  // ---------- anyone holding the link ----------

  // §7 GET /disclosures/records/{id}: the receiver's view (phone: last 4 digits only); the sender side also gets the full record.
  app.get<{ Params: { id: string } }>('/api/v2/disclosures/records/:id', { schema: { params: idParam, response: ok(publicDisclosure) } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    const token = receiptToken(request, row.id);
    return { data: await publicView(db, row, token, await optionalMember(request)) };
  });

  // The receiver's code (§7 type 8), to the phone on record.
  app.post<{ Params: { id: string } }>('/api/v2/disclosures/records/:id/validation-code', { schema: { params: idParam, response: okNull } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    if (isDisclosureDead(row.status)) fail('not_found', 'validation_code');
    await codes.send(row.received_phone, DISCLOSURE_SMS_TYPES.receiverCode, request.ip);
    return { data: null };
  });

  // §7 PUT /disclosures/check-identify (validation_code, disclosure_id).
  app.put<{ Body: { validation_code: string; disclosure_id: string } }>(
    '/api/v2/disclosures/check-identify',
    { schema: { body: body({ validation_code: code, disclosure_id: { type: 'string', maxLength: 40 } }, ['validation_code', 'disclosure_id']), response: ok(receiverStep) } },
    async (request, reply) => {
      const row = await findOr404(request, request.body.disclosure_id);
      const token = await verifyReceiver(db, codes, row, request.body.validation_code);
      setReceiptCookie(reply, row.id, token);
      return { data: { disclosure_id: row.id, step: 2 } };
    },
  );

  // §7 PUT /disclosures/receive/{id}: the receiver accepts the agreement.
  app.put<{ Params: { id: string } }>('/api/v2/disclosures/receive/:id', { schema: { params: idParam, response: ok(receiverStep) } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    return { data: await acceptAgreement(db, row, receiptToken(request, row.id)) };
  });

  // §7 GET /disclosures/records/{id}/file-link: a short-lived link for this verified, accepting browser only.
  app.get<{ Params: { id: string } }>('/api/v2/disclosures/records/:id/file-link', { schema: { params: idParam, response: ok(fileLink) } }, async (request) => {
    const row = await findOr404(request, request.params.id);
    return { data: await issueFileLink(db, (fileId) => app.fileStore.isStored(fileId), row, receiptToken(request, row.id)) };
  });

  // The download: the link's token AND the receipt cookie of the session it was issued to.
  app.get<{ Params: { token: string } }>(
    '/api/v2/disclosures/files/:token',
    { schema: { params: { type: 'object', properties: { token: { type: 'string', maxLength: 64 } }, required: ['token'] } } },
    async (request, reply) => {
      const nothing = () => reply.status(404).send({ message: 'not_found', field_name: 'file_link' });
      const found = await downloadOf(db, request.params.token, (id) => receiptToken(request, id));
      if (!found) return nothing();
      const { row, size, sessionHash } = found;
      const plain = await app.fileStore.openForSending(row.file_id);
      if (!plain) return nothing();
      try {
        await recordReceipt(db, (i, t) => app.registerEntry(i, t), row, sessionHash, { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });
      } catch (error) {
        await plain.close();
        throw error;
      }
      reply.raw.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'content-disposition': contentDisposition(downloadName(row.name, row.file_id)),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      reply.hijack();
      try {
        await plain.sendTo(reply.raw);
        reply.raw.end();
      } catch (error) {
        // A receiver who stops the download, or a chunk that fails authentication: the connection is cut.
        request.log.warn({ err: error, disclosure: row.id }, 'disclosure download ended early');
        reply.raw.destroy();
      }
    },
  );
}
