import type { FastifyInstance } from 'fastify';
import { parseFileIdentity } from '../../../core/file-identity.ts';
import { CUSTODY_REQUEST_STATUS, REVOCATION_REASON } from '../../../core/enterprise-keys.ts';
import { fail } from '../../errors.ts';
import { requireOperator } from '../../services/operators.ts';
import { currentCrl, purgeExpiredKeys } from '../../services/enterprise-keys.ts';
import {
  certificateOf,
  certificatePage,
  changeKeyStatus,
  custodyRequests,
  depositKey,
  keyBackup,
  keyLogPage,
  keyState,
  pkiCa,
  recordKeySignature,
  reviewCustodyRequest,
  startKeyUsage,
  type DepositInput,
  type KeyStatusChange,
} from '../../services/enterprise-key-custody.ts';
import { body, idParam, ok, pageNumber, text, SIGNED_IN } from '../schemas.ts';
import * as responses from './responses.ts';

const state = { response: ok(responses.keyState) };
import { contentDisposition } from '../../content-disposition.ts';

const paging = { page: { ...pageNumber, default: 1 }, page_size: { type: 'integer', minimum: 1, maximum: 100, default: 10 } } as const;
/** Encrypted P-256 PKCS#8 PEMs are about 400 characters; requests about 600. */
const PEM_MAX = 4096;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * The enterprise key ceremony, custody and use (docs/enterprise-keys.md), the
 * §7 v1 PUT /enterprises status changes, the operator review of cancelled custody, and
 * the public CA certificates and CRL. Routes check who asks; services/enterprise-key-custody.ts decides.
 */
export default async function enterpriseKeyRoutes(app: FastifyInstance) {
  const { db } = app;

  let purgeTimer: ReturnType<typeof setInterval> | undefined;
  app.addHook('onReady', async () => {
    if (app.env.role === 'serve') return; // no timers on an API replica
    await purgeExpiredKeys(db).catch((error: unknown) => app.log.error({ err: error }, 'erasing keys past their last download window failed'));
    purgeTimer = setInterval(() => void purgeExpiredKeys(db).catch((error: unknown) => app.log.error({ err: error }, 'erasing keys failed')), PURGE_EVERY_MS);
    purgeTimer.unref?.();
  });
  app.addHook('onClose', async () => clearInterval(purgeTimer));

  // The key, certificate and custody state of the displayed company (every confirmed member).
  app.get('/api/v1/enterprises/keys', { schema: state }, async (request) => {
    const ctx = await app.requireMember(request, 'member');
    return { data: await keyState(db, ctx) };
  });

  // The key ceremony's deposit: encrypted PEM + CSR + the deposit proof → certificate, ledger entry, status 1.
  app.post<{ Body: DepositInput }>(
    '/api/v1/enterprises/keys',
    { config: SIGNED_IN, schema: { body: body({ encrypted_private_key: text(PEM_MAX), csr: text(PEM_MAX), deposit_signature: text(200) }, ['encrypted_private_key', 'csr', 'deposit_signature']), ...state } },
    async (request) => {
      const ctx = await app.requireMember(request, 'superAdmin');
      return { data: await depositKey(db, (i, t) => app.registerEntry(i, t), app.ledger.config.publicUrl, ctx, request.body, { ip: request.ip }) };
    },
  );

  // The enterprise's certificates, newest first (every member: certificates are public by nature).
  app.get<{ Querystring: { page: number; page_size: number } }>(
    '/api/v1/enterprises/certificates',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: paging, additionalProperties: false }, response: ok(responses.certificatePage) } },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'member');
      return { data: await certificatePage(db, enterprise.id, request.query.page, request.query.page_size) };
    },
  );

  app.get<{ Params: { id: number } }>('/api/v1/enterprises/certificates/:id', { config: SIGNED_IN, schema: { params: idParam('id'), response: ok(responses.certificate) } }, async (request) => {
    const { enterprise } = await app.requireMember(request, 'member');
    return { data: await certificateOf(db, enterprise.id, request.params.id) };
  });

  // The encrypted key as a file: a backup while custodied, the last download after custody ends (administrators; logged).
  app.get('/api/v1/enterprises/keys/backup', { schema: { response: ok(responses.keyBackup) } }, async (request) => {
    const ctx = await app.requireMember(request, 'admin');
    return { data: await keyBackup(db, ctx, { ip: request.ip }) };
  });

  /**
   * Using the custodied key: an administrator names the file (its §3 identity, hashed in
   * the browser) and gets the encrypted key and certificate to sign it in the browser; the
   * fetch is logged with the file hash before anything is handed out.
   */
  app.post<{ Body: { file_hash: string; file_name?: string; file_size?: number } }>(
    '/api/v1/enterprises/keys/usages',
    { config: SIGNED_IN, schema: { body: body({ file_hash: text(100), file_name: text(255), file_size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } }, ['file_hash']), response: ok(responses.keyUsage) } },
    async (request) => {
      const ctx = await app.requireMember(request, 'admin');
      const identity = parseFileIdentity(request.body.file_hash.trim().toLowerCase());
      if (!identity) fail(request.body.file_hash.trim() ? 'invalid_param' : 'required', 'file_hash');
      const file = { name: (request.body.file_name ?? '').trim().slice(0, 255), size: request.body.file_size ?? null };
      return { data: await startKeyUsage(db, ctx, identity, file, { ip: request.ip }) };
    },
  );

  // The signature made with a fetched key: checked against the certificate and the file hash, then logged.
  app.put<{ Params: { id: number }; Body: { signature: string } }>(
    '/api/v1/enterprises/keys/usages/:id',
    { config: SIGNED_IN, schema: { params: idParam('id'), body: body({ signature: text(200) }, ['signature']), response: ok(responses.signedUsage) } },
    async (request) => {
      const ctx = await app.requireMember(request, 'admin');
      return { data: await recordKeySignature(db, ctx, request.params.id, request.body.signature, { ip: request.ip }) };
    },
  );

  // The key usage history and audit trail, newest first (administrators and the confidentiality officer).
  app.get<{ Querystring: { page: number; page_size: number } }>(
    '/api/v1/enterprises/keys/log',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: paging, additionalProperties: false }, response: ok(responses.keyLogPage) } },
    async (request) => {
      const { enterprise } = await app.requireMember(request, 'viewer');
      return { data: await keyLogPage(db, enterprise.id, request.query.page, request.query.page_size) };
    },
  );

  /**
   * §7 v1 PUT /enterprises (private_key_status): cancel custody (1 → 2, administrators;
   * review by an operator follows), withdraw that request (2 → 1), revoke the identity
   * (→ 4, super administrator, confirmed by typing the enterprise name).
   */
  app.put<{ Body: KeyStatusChange }>(
    '/api/v1/enterprises',
    { config: SIGNED_IN,
      schema: {
        body: body(
          {
            private_key_status: { type: 'integer', minimum: 0, maximum: 4 },
            reason: text(500),
            confirm_name: text(200),
            revocation_reason: { type: 'integer', enum: [REVOCATION_REASON.unspecified, REVOCATION_REASON.keyCompromise, REVOCATION_REASON.cessationOfOperation] },
          },
          ['private_key_status'],
        ),
        ...state,
      },
    },
    async (request) => {
      const ctx = await app.requireMember(request, 'member');
      return { data: await changeKeyStatus(db, ctx, request.body, { ip: request.ip }) };
    },
  );

  // ---- platform operators: the review that follows a cancelled custody ("an agent follows up") ----

  app.get<{ Querystring: { status?: number } }>(
    '/api/v1/operator/key-custody-requests',
    { schema: { querystring: { type: 'object', properties: { status: { type: 'integer', minimum: 1, maximum: 5 } }, additionalProperties: false }, response: ok(responses.custodyRequests) } },
    async (request) => {
      await requireOperator(db, request);
      return { data: await custodyRequests(db, request.query.status) };
    },
  );

  // Completes (2 → 3) or rejects (2 → 1, with a reason the enterprise reads) a cancelled custody.
  app.put<{ Params: { id: number }; Body: { status: number; reason?: string } }>(
    '/api/v1/operator/key-custody-requests/:id',
    {
      schema: {
        params: idParam('id'),
        body: body({ status: { type: 'integer', enum: [CUSTODY_REQUEST_STATUS.completed, CUSTODY_REQUEST_STATUS.rejected] }, reason: text(500) }, ['status']),
        response: ok(responses.custodyReview),
      },
    },
    async (request) => {
      const op = await requireOperator(db, request);
      return { data: await reviewCustodyRequest(db, op, request.params.id, request.body.status, request.body.reason, { ip: request.ip }) };
    },
  );

  // ---- public PKI: the CA certificates to check against, and the revocation list ----

  app.get('/api/v1/pki/ca', { schema: { response: ok(responses.pkiCa) } }, async () => ({ data: await pkiCa(db) }));

  // RFC 5280 CRL of the issuing CA (DER, application/pkix-crl), the address enterprise certificates name.
  app.get('/api/v1/pki/crl', async (_request, reply) => {
    const crl = await currentCrl(db);
    return reply.header('content-type', 'application/pkix-crl').header('cache-control', 'public, max-age=300').header('content-disposition', contentDisposition('provena-enterprise-ca.crl', 'inline')).send(Buffer.from(crl));
  });
}
