import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findVaultByKeyword } from '../../services/vault.ts';
import { findAssetByKeyword } from '../../services/assets.ts';
import { findRepoByKeyword } from '../../services/repos.ts';
import { findApplicationFileByKeyword } from '../../services/applications.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import { fail } from '../../errors.ts';
import { DNA_PATTERN } from '../../../core/ledger/record.ts';
import { normalizeDigest } from '../../../core/ledger/package.ts';
import { isProofGenerated, PROOF_STATUS } from '../../proofs/jobs.ts';
import { body, ok, pageNumber, SIGNED_IN } from '../schemas.ts';
import { anchors, checkpointResponse, consistency, inclusion, ownEntries, platformKey, platformRoot, proofRegenerating, proofState, searchResult } from './responses.ts';
import { ANCHOR_TIME_TOLERANCE_MS, CHECKPOINT_ANCHOR_TAG, CHECKPOINT_ANCHOR_TAG_HEX } from '../../../core/ledger/anchor-check.ts';
import { classifySearchInput, SEARCH_KEYWORD_MAX } from '../../../core/search.ts';
import { proofStatusColumn } from '../../proofs/proof-status-sql.ts';

const dnaParam = { type: 'object', properties: { dna: { type: 'string', maxLength: 64 } }, required: ['dna'] } as const;

/**
 * A signed-in user's own entries and certificates, and the public proof reads. There is no
 * registration route here: entries are made only by feature services (assets, vault, …)
 * through `app.registerEntry`, after they checked membership and role and charged credits.
 */
export default async function ledgerRoutes(app: FastifyInstance) {
  /** The caller's own entry, or proof_record_not_found (never reveals someone else's). */
  async function ownEntry(userId: number, dna: string) {
    if (!DNA_PATTERN.test(dna)) fail('proof_record_not_found', 'dna');
    const entry = await app.db.selectFrom('ledger_entries').selectAll().where('dna', '=', dna).executeTakeFirst();
    if (!entry || entry.registrant_user_id !== userId) fail('proof_record_not_found', 'dna');
    return entry;
  }

  app.get<{ Querystring: { page?: number; page_size?: number } }>(
    '/api/v1/ledger/entries',
    { config: SIGNED_IN, schema: { querystring: { type: 'object', properties: { page: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 100 } } }, response: ok(ownEntries) } },
    async (request) => {
      const session = await app.requireSession(request);
      const size = request.query.page_size ?? 20;
      const rows = await app.db
        .selectFrom('ledger_entries')
        .leftJoin('proofs', 'proofs.dna', 'ledger_entries.dna')
        .select(['ledger_entries.dna', 'file_hash', 'kind', 'enterprise_name', 'registered_at', 'block_height', proofStatusColumn('proofs'), 'proofs.expires_at'])
        .where('registrant_user_id', '=', session.user_id)
        .orderBy('ledger_entries.id', 'desc')
        .limit(size)
        .offset(((request.query.page ?? 1) - 1) * size)
        .execute();
      return { data: rows.map((r) => ({ asset_dna: r.dna, file_hash: r.file_hash, kind: r.kind, enterprise_name: r.enterprise_name, registered_at: Number(r.registered_at), block_height: r.block_height, proof_status: r.status, expired_at: r.expires_at === null ? null : Number(r.expires_at) })) };
    },
  );

  app.get<{ Params: { dna: string } }>('/api/v1/ledger/entries/:dna/proof', { config: SIGNED_IN, schema: { params: dnaParam, response: ok(proofState) } }, async (request) => {
    const session = await app.requireSession(request);
    const entry = await ownEntry(session.user_id, request.params.dna);
    // No row until the entry's block is sealed: registered (1), nothing issued yet.
    const proof = (await app.db.selectFrom('proofs').select(['status', 'issued_at', 'expires_at', 'error']).where('dna', '=', entry.dna).executeTakeFirst()) ?? { status: PROOF_STATUS.registered, issued_at: null, expires_at: null, error: null };
    return {
      data: {
        asset_dna: entry.dna,
        proof_status: proof.status,
        is_generated: isProofGenerated(proof.status),
        issued_at: proof.issued_at === null ? null : Number(proof.issued_at),
        expired_at: proof.expires_at === null ? null : Number(proof.expires_at),
        block_height: entry.block_height,
      },
    };
  });

  app.post<{ Params: { dna: string }; Body: { valid_seconds?: number } }>(
    '/api/v1/ledger/entries/:dna/proof',
    { config: SIGNED_IN, schema: { params: dnaParam, body: body({ valid_seconds: { type: 'integer', minimum: 1, maximum: 3650 * 86400 } }, []), response: ok(proofRegenerating) } },
    async (request) => {
      const session = await app.requireSession(request);
      const entry = await ownEntry(session.user_id, request.params.dna);
      if (entry.block_height === null) fail('proof_record_not_found', 'dna');
      await app.proofs.regenerate(entry.dna, request.body?.valid_seconds ? request.body.valid_seconds * 1000 : app.ledger.config.proofValidityMs);
      return { data: { asset_dna: entry.dna, proof_status: 2 } };
    },
  );

  /**
   * §7 search/dip-data, §3 result: entity_type 1 (asset) with dip_id, 2 (project) with dip_id and
   * project_id, or 0 when nothing matches. Vault files (kind vault) and digital assets (kind
   * asset) are found by DNA or file hash only within the caller's enterprise and §6 visibility
   * (a plain member their own, roles 1–3 all the enterprise's). Other entries: a DNA finds its
   * entry for anyone (the explorer shows DNAs), a file hash only the caller's own registrations
   * (file hashes are private).
   */
  async function findForMember(request: FastifyRequest, keyword: string) {
    let m: MemberContext;
    try {
      m = await app.requireMember(request, 'member');
    } catch {
      return null; // not a member of a company: no vault or assets to search
    }
    const viewer = { userId: m.user.id, role: m.employee.role };
    const vault = await findVaultByKeyword(app.db, m.employee.enterprise_id, viewer, keyword);
    if (vault) return { entity_type: 2, dip_id: vault.dip_id, project_id: vault.project_id };
    const asset = await findAssetByKeyword(app.db, m.employee.enterprise_id, viewer, keyword);
    if (asset) return { entity_type: 1, dip_id: asset.dip_id, project_id: null };
    // Source-code projects: a project DNA (2), a commit DNA or commit id (3).
    const repo = await findRepoByKeyword(app.db, m.employee.enterprise_id, viewer, keyword);
    if (repo?.entity_type === 2) return { entity_type: 2, dip_id: repo.dip_id, project_id: repo.project_id, container: 'repo' as const };
    if (repo) return { entity_type: 3, dip_id: repo.dip_id, project_id: repo.project_id };
    // §3 entity_type 4: an application file, its application as the container.
    const file = await findApplicationFileByKeyword(app.db, { ...viewer, enterpriseId: m.employee.enterprise_id }, keyword);
    if (file) return { entity_type: 4, dip_id: file.dip_id, project_id: file.application_id };
    return null;
  }

  /** Kinds found only through the member search above, never by the public DNA or own-hash lookups. */
  const PRIVATE_KINDS = ['vault', 'asset', 'commit', 'repo_project', 'application'];

  app.get<{ Querystring: { keyword: string } }>(
    '/api/v1/search/dip-data',
    { schema: { querystring: { type: 'object', properties: { keyword: { type: 'string', maxLength: SEARCH_KEYWORD_MAX } }, required: ['keyword'] }, response: ok(searchResult) } },
    async (request) => {
      // The browser checks the same rule before asking; a keyword that is neither a DNA nor a fingerprint is a client error.
      const input = classifySearchInput(request.query.keyword);
      if (input.kind === 'empty') fail('required', 'keyword');
      if (input.kind === 'invalid') fail('invalid_param', 'keyword');
      const keyword = input.keyword;
      const none = { data: { entity_type: 0, dip_id: null, project_id: null } };
      const member = request.session ? await findForMember(request, keyword) : null;
      if (member) return { data: member };
      if (DNA_PATTERN.test(keyword)) {
        const e = await app.db.selectFrom('ledger_entries').select('dna').where('dna', '=', keyword).where('kind', 'not in', PRIVATE_KINDS).executeTakeFirst();
        return e ? { data: { entity_type: 1, dip_id: e.dna, project_id: null } } : none;
      }
      const digest = normalizeDigest(keyword);
      if (!digest || !request.session) return none;
      const e = await app.db
        .selectFrom('ledger_entries')
        .select('dna')
        .where('registrant_user_id', '=', request.session.user_id)
        .where('kind', 'not in', PRIVATE_KINDS)
        .where((eb) => eb.or([eb('file_hash', '=', `0x${digest}`), eb('file_hash', 'like', `0x${digest}.%`)]))
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return e ? { data: { entity_type: 1, dip_id: e.dna, project_id: null } } : none;
    },
  );

  // ---- public proof reads (no login): what a verifier or monitor needs -------------------

  /**
   * Every platform key that ever signed, active or retired (a rotation retires a key; what
   * it signed stays valid): block signing, proof signing (the certificate PDF's signature)
   * and time-stamping, each with its certificate from the platform root.
   */
  app.get('/api/v1/ledger/platform-keys', { schema: { response: ok({ type: 'array', items: platformKey }) } }, async () => {
    const blocks = await app.db
      .selectFrom('ledger_keys')
      .leftJoin('ledger_key_certificates', 'ledger_key_certificates.key_id', 'ledger_keys.key_id')
      .select(['ledger_keys.key_id', 'ledger_keys.spki', 'ledger_keys.created_at', 'ledger_keys.retired_at', 'ledger_key_certificates.certificate', 'ledger_key_certificates.root_fingerprint'])
      .orderBy('ledger_keys.created_at')
      .execute();
    const others = await app.db.selectFrom('platform_keys').select(['key_id', 'purpose', 'spki', 'created_at', 'retired_at', 'certificate', 'root_fingerprint']).orderBy('created_at').execute();
    const row = (r: { key_id: string; spki: string; created_at: number; retired_at: number | null; certificate: string | null; root_fingerprint: string | null }, purpose: string) => ({
      key_id: r.key_id,
      purpose,
      algorithm: 'ECDSA-P256-SHA256',
      spki: r.spki,
      created_at: Number(r.created_at),
      retired_at: r.retired_at === null ? null : Number(r.retired_at),
      certificate: r.certificate ?? null,
      root_fingerprint: r.root_fingerprint ?? null,
    });
    return { data: [...blocks.map((r) => row(r, 'block')), ...others.map((r) => row(r, r.purpose))] };
  });

  /**
   * The newest checkpoint (C2SP tlog-checkpoint signed note, text/plain): the log's signed
   * size and root, with the witnesses' cosignatures once they have answered. Monitors and witnesses poll it; docs/proof-format.md "Checkpoint".
   */
  app.get('/api/v1/ledger/checkpoint', { schema: { response: checkpointResponse } }, async (_request, reply) => {
    const checkpoint = await app.ledger.currentCheckpoint();
    if (!checkpoint) fail('proof_record_not_found');
    const note = app.witnessing?.cosigned(checkpoint) ?? checkpoint.note;
    return reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-cache').send(note);
  });

  /**
   * Checkpoint anchoring: the account every anchor is sent from (also bound into each
   * certificate's signed statement), the transaction data format, the interval, and the
   * newest anchors. `address` is null when the platform does not anchor.
   */
  app.get<{ Querystring: { limit?: number } }>(
    '/api/v1/ledger/anchors',
    { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } } }, response: ok(anchors) } },
    async (request) => {
      const rows = await app.db.selectFrom('ledger_checkpoint_anchors').selectAll().orderBy('height', 'desc').limit(request.query.limit ?? 20).execute();
      return {
        data: {
          address: app.anchoring?.anchorer.address ?? null,
          interval_ms: app.ledger.config.anchor?.intervalMs ?? null,
          data_format: `0x${CHECKPOINT_ANCHOR_TAG_HEX} ("${CHECKPOINT_ANCHOR_TAG}") followed by the SHA-256 of the checkpoint's note text`,
          time_tolerance_ms: ANCHOR_TIME_TOLERANCE_MS,
          anchors: rows.map((r) => ({
            height: r.height,
            tree_size: Number(r.tree_size),
            checkpoint: r.note,
            checkpoint_hash: r.checkpoint_hash,
            chain_id: Number(r.chain_id),
            address: r.address,
            tx_hash: r.tx_hash,
            block_number: Number(r.block_number),
            anchored_at: Number(r.anchored_at),
          })),
        },
      };
    },
  );

  /** The platform's X.509 roots (base64 DER) and their SHA-256 fingerprints: what verifiers pin. */
  app.get('/api/v1/ledger/platform-roots', { schema: { response: ok({ type: 'array', items: platformRoot }) } }, async () => {
    const rows = await app.db.selectFrom('platform_roots').select(['fingerprint', 'certificate', 'created_at']).orderBy('created_at').execute();
    return { data: rows.map((r) => ({ fingerprint: r.fingerprint, certificate: r.certificate, created_at: Number(r.created_at) })) };
  });

  app.get<{ Params: { dna: string }; Querystring: { tree_size?: number } }>(
    '/api/v1/ledger/entries/:dna/inclusion',
    { schema: { params: dnaParam, querystring: { type: 'object', properties: { tree_size: { type: 'integer', minimum: 1 } } }, response: ok(inclusion) } },
    async (request) => {
      const entry = await app.db.selectFrom('ledger_entries').select(['dna', 'leaf_index', 'leaf_hash', 'block_height']).where('dna', '=', request.params.dna).executeTakeFirst();
      if (!entry || entry.leaf_index === null || entry.block_height === null) fail('proof_record_not_found', 'dna');
      const block = await app.ledger.block(Number(entry.block_height));
      const treeSize = request.query.tree_size ?? Number(block?.tree_size);
      if (treeSize <= Number(entry.leaf_index) || treeSize > app.ledger.treeSize) fail('invalid_param', 'tree_size');
      return { data: { asset_dna: entry.dna, leaf_index: Number(entry.leaf_index), leaf_hash: entry.leaf_hash, tree_size: treeSize, root: app.ledger.rootAt(treeSize), path: app.ledger.inclusionProof(Number(entry.leaf_index), treeSize) } };
    },
  );

  app.get<{ Querystring: { first: number; second: number } }>(
    '/api/v1/ledger/consistency',
    { schema: { querystring: { type: 'object', properties: { first: { type: 'integer', minimum: 1 }, second: { type: 'integer', minimum: 1 } }, required: ['first', 'second'] }, response: ok(consistency) } },
    async (request) => {
      const { first, second } = request.query;
      if (first > second) fail('invalid_param', 'first');
      const [a, b] = await Promise.all([app.ledger.block(first), app.ledger.block(second)]);
      if (!a) fail('not_found', 'first');
      if (!b) fail('not_found', 'second');
      const firstSize = Number(a.tree_size);
      const secondSize = Number(b.tree_size);
      return { data: { first: { height: a.height, tree_size: firstSize, root: a.root }, second: { height: b.height, tree_size: secondSize, root: b.root }, proof: app.ledger.consistencyProof(firstSize, secondSize) } };
    },
  );
}
