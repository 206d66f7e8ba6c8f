import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  ASSET_BATCH_MAX,
  ASSET_SORTS,
  ASSET_TYPE_VALUES,
  PROOF_FILTERS,
  checkAssetInput,
  timeFilterMillis,
  type AssetBatchResponse,
  type AssetBatchResult,
  type AssetListQuery,
  type AssetPage,
  type AssetRegistrantDto,
  type CleanAssetInput,
} from '../../../core/assets.ts';
import { DNA_PATTERN } from '../../../core/ledger/record.ts';
import { readProofPdf } from '../../services/proof-pdf.ts';
import { PROOF_STATUS } from '../../proofs/jobs.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { ApiError, fail } from '../../errors.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import { chargeRegistration } from '../../services/credits.ts';
import { ASSET_COLUMNS, assetDto, seesAllAssets, visibleAssets, type AssetRow, type AssetViewer } from '../../services/assets.ts';
import { body, ok, pageOf, paging, SIGNED_IN } from '../schemas.ts';
import { asset as assetSchema, assetBatch, assetPage, assetRegistrants } from './responses.ts';
import { requestLocale, type CertificateLocale } from '../../locale.ts';
import { contentDisposition } from '../../content-disposition.ts';

type AssetContext = MemberContext & { viewer: AssetViewer };

const dnaParam = { type: 'object', properties: { dna: { type: 'string', maxLength: 64 } }, required: ['dna'] } as const;
const maxSafe = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
/** One registration's fields; types are checked by hand (checkAssetInput) so that every rule answers on its field. */
const registerFields = {
  name: { type: 'string', maxLength: 400 },
  type: {},
  description: { type: ['string', 'null'], maxLength: 2000 },
  file_hash: { type: 'string', maxLength: 100 },
  size: {},
} as const;

const listQuery = {
  type: 'object',
  properties: {
    ...paging,
    // §7: array parameters repeat the key (type=1&type=3); one value arrives as an array too.
    type: { type: 'array', maxItems: ASSET_TYPE_VALUES.length, items: { type: 'integer', enum: [...ASSET_TYPE_VALUES] } },
    proof_status: { type: 'string', enum: [...PROOF_FILTERS] },
    created_from: maxSafe,
    created_to: maxSafe,
    registrant_user_id: { type: 'integer', minimum: 1 },
    keyword: { type: 'string', maxLength: 100 },
    sort: { type: 'string', enum: [...ASSET_SORTS] },
    order: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

/**
 * Digital assets: registering files (one, or a batch with a result per file), the
 * list with filters, paging and sorting, the detail by DNA and the proof PDF. Only the file's
 * §3 identity and size arrive: the bytes stay in the browser unless the user stores them.
 * §6: a plain member sees the assets they registered, roles 1, 2 and 3 all the enterprise's.
 */
export default async function assetRoutes(app: FastifyInstance) {
  const { db, config } = app;

  async function memberOf(request: FastifyRequest): Promise<AssetContext> {
    const m = await app.requireMember(request, 'member');
    return { ...m, viewer: { userId: m.user.id, role: m.employee.role } };
  }

  function rowsOf(m: AssetContext) {
    return visibleAssets(db, m.employee.enterprise_id, m.viewer);
  }

  async function dtosByIds(m: AssetContext, ids: number[]) {
    if (ids.length === 0) return new Map<number, ReturnType<typeof assetDto>>();
    const rows = (await rowsOf(m).select([...ASSET_COLUMNS]).where('a.id', 'in', ids).execute()) as AssetRow[];
    return new Map(rows.map((r) => [Number(r.id), assetDto(r)]));
  }

  /**
   * One registration: §8 hash_duplicate when the enterprise already has this content as an
   * asset (checked first, and by the unique (enterprise, digest) when two race), §8
   * integrals_not_enough when the member's credits are short; the ledger entry, the credit
   * charge and the asset row commit together or not at all (a refusal charges nothing).
   */
  async function registerOne(m: AssetContext, input: CleanAssetInput, locale: CertificateLocale): Promise<number> {
    const enterpriseId = m.employee.enterprise_id;
    const duplicate = () => fail('hash_duplicate', 'file_hash');
    if (await db.selectFrom('assets').select('id').where('enterprise_id', '=', enterpriseId).where('digest', '=', input.identity.sha256).executeTakeFirst()) duplicate();
    let assetId = 0;
    try {
      await app.registerEntry(
        { fileHash: `0x${input.identity.sha256}${input.identity.extension}`, enterpriseName: m.enterprise.name, registrantUserId: m.user.id, kind: 'asset', locale },
        async (trx, registration) => {
          // §9 the registering member pays credits.assetRegistration; §8 integrals_not_enough rolls it all back.
          const { charged } = await chargeRegistration(trx, config, { enterpriseId, userId: m.user.id, kind: 'asset', dna: registration.dna, name: input.name });
          const row = await trx
            .insertInto('assets')
            .values({
              enterprise_id: enterpriseId,
              user_id: m.user.id,
              name: input.name,
              type: input.type,
              description: input.description,
              file_hash: registration.file_hash,
              digest: input.identity.sha256,
              size: input.size,
              dna: registration.dna,
              credits: charged,
              created_at: registration.registered_at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          assetId = Number(row.id);
        },
      );
    } catch (error) {
      if (!(error instanceof ApiError) && isUniqueViolation(error)) duplicate();
      throw error;
    }
    return assetId;
  }

  /** §7 style: register one asset; the answer is the asset (proof status 1, generating). */
  app.post<{ Body: Record<string, unknown> }>(
    '/api/v1/assets',
    { config: SIGNED_IN, schema: { body: body(registerFields, []), response: ok(assetSchema) } },
    async (request) => {
      const m = await memberOf(request);
      const checked = checkAssetInput(request.body);
      if (!checked.ok) fail(checked.message, checked.field_name);
      const id = await registerOne(m, checked.value, requestLocale(request));
      return { data: (await dtosByIds(m, [id])).get(id) };
    },
  );

  /**
   * Batch registration (a folder, a multi-select): each item is checked and registered in its
   * own transaction, in order, and answered in `results` at its index — the asset, or the §8
   * refusal on its field (a later copy of an earlier item is hash_duplicate). One refused item
   * never stops the others.
   */
  app.post<{ Body: { items: unknown[] } }>(
    '/api/v1/assets/batch',
    { config: SIGNED_IN, schema: { body: body({ items: { type: 'array', minItems: 1, maxItems: ASSET_BATCH_MAX, items: {} } }, ['items']), response: ok(assetBatch) } },
    async (request) => {
      const m = await memberOf(request);
      const outcomes: Array<{ index: number; id: number } | { index: number; message: string; field_name?: string }> = [];
      for (const [index, item] of request.body.items.entries()) {
        const checked = checkAssetInput(item);
        if (!checked.ok) {
          outcomes.push({ index, message: checked.message, field_name: checked.field_name });
          continue;
        }
        try {
          outcomes.push({ index, id: await registerOne(m, checked.value, requestLocale(request)) });
        } catch (error) {
          if (error instanceof ApiError) outcomes.push({ index, message: error.key, ...(error.field ? { field_name: error.field } : {}) });
          else {
            // A fault is not the item's fault: logged, reported on the item, and the batch goes on.
            request.log.error({ err: error, index }, 'asset batch item failed');
            outcomes.push({ index, message: 'server error' });
          }
        }
      }
      const dtos = await dtosByIds(m, outcomes.flatMap((o) => ('id' in o ? [o.id] : [])));
      const results = outcomes.map((o) => ('id' in o ? { index: o.index, ok: true, asset: dtos.get(o.id) } : { index: o.index, ok: false, message: o.message, ...(o.field_name ? { field_name: o.field_name } : {}) })) as AssetBatchResult[];
      const registered = results.filter((r) => r.ok).length;
      const data: AssetBatchResponse = { results, registered, refused: results.length - registered };
      return { data };
    },
  );

  app.get<{ Querystring: AssetListQuery & { type?: number[] } }>('/api/v1/assets', { config: SIGNED_IN, schema: { querystring: listQuery, response: ok(assetPage) } }, async (request) => {
    const m = await memberOf(request);
    const query = request.query;
    const { page, size, offset } = pageOf(query, config.tablePageSize);
    let q = rowsOf(m);
    if (query.type?.length) q = q.where('a.type', 'in', query.type);
    if (query.proof_status === 'generated') q = q.where('pr.status', '>=', PROOF_STATUS.generated);
    // No proofs row yet: registered (1), generating.
    if (query.proof_status === 'generating') q = q.where((eb) => eb.or([eb('pr.status', '<', PROOF_STATUS.generated), eb('pr.status', 'is', null)]));
    const from = timeFilterMillis(query.created_from);
    const to = timeFilterMillis(query.created_to);
    if (from !== undefined) q = q.where('a.created_at', '>=', from);
    if (to !== undefined) q = q.where('a.created_at', '<=', to);
    if (query.registrant_user_id) q = q.where('a.user_id', '=', query.registrant_user_id);
    const keyword = query.keyword?.trim();
    if (keyword) {
      const hex = /^(?:0x)?([0-9a-f]{64})/i.exec(keyword)?.[1]?.toLowerCase();
      // A DNA or a file hash finds that asset; other text searches names (LIKE with an explicit escape reads alike in both databases).
      if (DNA_PATTERN.test(keyword)) q = q.where('a.dna', '=', keyword);
      else if (hex) q = q.where('a.digest', '=', hex);
      else q = q.where(sql<boolean>`lower(a.name) like lower(${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) escape '\\'`);
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const order = query.order ?? (query.sort === 'name' ? 'asc' : 'desc');
    // Names sort case-insensitively, alike in SQLite (binary collation) and PostgreSQL (the server's locale).
    const column = query.sort === 'name' ? sql`lower(a.name)` : query.sort === 'size' ? sql`a.size` : sql`a.created_at`;
    const rows = (await q
      .select([...ASSET_COLUMNS])
      .orderBy(column, order)
      .orderBy('a.id', order)
      .limit(size)
      .offset(offset)
      .execute()) as AssetRow[];
    const data: AssetPage = { items: rows.map(assetDto), page, page_size: size, total: Number(total.n), sees_all: seesAllAssets(m.viewer) };
    return { data };
  });

  /** Who registered the assets the caller sees (the registrant filter): everyone for roles 1–3, oneself for a member. */
  app.get('/api/v1/assets/registrants', { schema: { response: ok(assetRegistrants) } }, async (request) => {
    const m = await memberOf(request);
    const rows = await rowsOf(m)
      .select(['a.user_id', 'u.real_name', 'u.name as user_name', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['a.user_id', 'u.real_name', 'u.name'])
      .orderBy('a.user_id')
      .execute();
    const data: AssetRegistrantDto[] = rows.map((r) => ({ user_id: Number(r.user_id), name: r.real_name || r.user_name, asset_count: Number(r.n) }));
    return { data };
  });

  async function visibleOr404(m: AssetContext, dna: string): Promise<AssetRow> {
    if (!DNA_PATTERN.test(dna)) fail('not_found', 'asset_id');
    const row = (await rowsOf(m).select([...ASSET_COLUMNS]).where('a.dna', '=', dna).executeTakeFirst()) as AssetRow | undefined;
    if (!row) fail('not_found', 'asset_id');
    return row;
  }

  /** §2 asset/detail/:asset_id — the asset id is its DNA; an asset the caller may not see is not_found (never told apart from a missing one). */
  app.get<{ Params: { dna: string } }>('/api/v1/assets/:dna', { config: SIGNED_IN, schema: { params: dnaParam, response: ok(assetSchema) } }, async (request) => {
    const m = await memberOf(request);
    return { data: assetDto(await visibleOr404(m, request.params.dna)) };
  });

  /** The proof certificate PDF, once generated (before: §8 proof_record_not_found). */
  app.get<{ Params: { dna: string } }>('/api/v1/assets/:dna/proof', { config: SIGNED_IN, schema: { params: dnaParam } }, async (request, reply) => {
    const m = await memberOf(request);
    const asset = await visibleOr404(m, request.params.dna);
    const pdf = await readProofPdf(db, app.fileStore.driver, asset.dna);
    if (!pdf) fail('proof_record_not_found', 'asset_id');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(`provena-proof-${asset.dna}.pdf`))
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
