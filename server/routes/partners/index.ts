import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PARTNER_SUBMISSIONS_PER_HOUR, type PartnerContractBody, type PartnerTotalDto, type PublicFiguresDto } from '../../../core/partners.ts';
import { ApiError } from '../../errors.ts';
import { hit } from '../../services/rate-limit.ts';
import { requireOperator as requireOperatorOf, writeOperatorAudit } from '../../services/operators.ts';
import { publicFiguresOf, allPartnerContracts, createPartnerContract, exportRows, listPartnerContracts, toCsv, toXlsx, validatePartnerBody } from '../../services/partners.ts';
import { contentDisposition } from '../../content-disposition.ts';
import { num, obj, ok, okNull, pageSchema, paging, str, text } from '../schemas.ts';

const publicFigures = obj({ registrations: num, enterprises: num, blocks: num });
const partnerTotal = obj({ total: num });
const partnerContractPage = pageSchema(obj({ id: num, enterprise_name: str, name: str, contract_number: str, corporation: str, created_at: num }));

/**
 * Partner recruitment and the front pages' figures:
 * - GET /api/v1/partners/total → { total } (live enterprise count, cached a minute);
 * - POST /api/v1/partners/contracts (§7 body) → stored, rate-limited per address;
 *   both 404 unless the deployment names a cooperation company (`cooperation`);
 * - GET /api/v1/public/figures → registrations, enterprises, blocks (cached) for the front pages;
 * - GET /api/v1/operator/partner-contracts (+ /export?format=csv|xlsx) for platform operators.
 */
export default async function partnerRoutes(app: FastifyInstance) {
  const { db } = app;
  const figures = publicFiguresOf(db);

  function requireCooperation(): void {
    if (!app.config.cooperation) throw new ApiError('not_found', undefined, 404);
  }

  app.get('/api/v1/public/figures', { schema: { response: ok(publicFigures) } }, async (_request, reply) => {
    const data: PublicFiguresDto = await figures.get();
    reply.header('cache-control', 'public, max-age=60');
    return { data };
  });

  app.get('/api/v1/partners/total', { schema: { response: ok(partnerTotal) } }, async (_request, reply) => {
    requireCooperation();
    const data: PartnerTotalDto = { total: (await figures.get()).enterprises };
    reply.header('cache-control', 'public, max-age=60');
    return { data };
  });

  const partnerText = text(200);
  app.post<{ Body: Partial<PartnerContractBody> }>(
    '/api/v1/partners/contracts',
    {
      schema: {
        body: {
          type: 'object',
          properties: { corporation: partnerText, name: partnerText, contract_number: text(32), enterprise_name: partnerText },
          additionalProperties: false,
        },
        response: okNull,
      },
    },
    async (request) => {
      requireCooperation();
      const body = validatePartnerBody(request.body ?? {});
      if (!(await hit(db, `partner-contract:${request.ip}`, PARTNER_SUBMISSIONS_PER_HOUR * app.env.addressLimitFactor, 60 * 60 * 1000))) {
        throw new ApiError('too_frequent_operation', undefined, 429);
      }
      await createPartnerContract(db, body, request.ip);
      return { data: null };
    },
  );

  // ---- the operator console ---------------------------------------------------------------

  const requireOperator = (request: FastifyRequest) => requireOperatorOf(db, request);

  app.get<{ Querystring: { page?: number; page_size?: number } }>(
    '/api/v1/operator/partner-contracts',
    { schema: { querystring: { type: 'object', properties: { ...paging } }, response: ok(partnerContractPage) } },
    async (request) => {
      await requireOperator(request);
      return { data: await listPartnerContracts(db, { page: request.query.page ?? 1, size: request.query.page_size ?? 20 }) };
    },
  );

  app.get<{ Querystring: { format: 'csv' | 'xlsx' } }>(
    '/api/v1/operator/partner-contracts/export',
    { schema: { querystring: { type: 'object', properties: { format: { type: 'string', enum: ['csv', 'xlsx'] } }, required: ['format'] } } },
    async (request, reply) => {
      const op = await requireOperator(request);
      const rows = exportRows(await allPartnerContracts(db));
      await writeOperatorAudit(db, { operatorId: op.id, loginId: op.login_id, action: 'partner_contracts_exported', target: 'partner_contracts', detail: { format: request.query.format, rows: rows.length }, ip: request.ip });
      const day = new Date().toISOString().slice(0, 10);
      reply.header('cache-control', 'no-store');
      if (request.query.format === 'csv') {
        return reply.type('text/csv; charset=utf-8').header('content-disposition', contentDisposition(`partners-${day}.csv`)).send(toCsv(rows));
      }
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', contentDisposition(`partners-${day}.xlsx`))
        .send(await toXlsx(rows));
    },
  );
}
