import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors.ts';
import type { BlockRow } from '../../ledger/ledger.ts';
import { ok, pageNumber } from '../schemas.ts';
import { block as blockSchema, blockEntries, blocks, explorerEntry } from '../ledger/responses.ts';

type AnchorRow = { chain_id: number; tx_hash: string; block_number: number };

function blockDto(b: BlockRow, anchor?: AnchorRow) {
  return {
    height: b.height, hash: b.hash, prev_hash: b.prev_hash, tree_size: Number(b.tree_size), root: b.root, sealed_at: Number(b.sealed_at), key_id: b.key_id, header: b.header, signature: b.signature, entry_count: b.entry_count,
    anchor: anchor ? { chain_id: Number(anchor.chain_id), tx_hash: anchor.tx_hash, block_number: Number(anchor.block_number) } : null,
  };
}

/** Public JSON for the block explorer (no login). Entries show their record, never the file hash or salt. */
export default async function explorerRoutes(app: FastifyInstance) {
  const anchorsOf = async (heights: number[]) => {
    if (heights.length === 0) return new Map<number, AnchorRow>();
    // Per-block anchors from before checkpoint anchoring, and the anchored checkpoints (at the height they were taken).
    const rows = await app.db.selectFrom('ledger_anchors').select(['height', 'chain_id', 'tx_hash', 'block_number']).where('height', 'in', heights).execute();
    const checkpoints = await app.db.selectFrom('ledger_checkpoint_anchors').select(['height', 'chain_id', 'tx_hash', 'block_number']).where('height', 'in', heights).execute();
    return new Map([...rows, ...checkpoints].map((r) => [r.height, r]));
  };

  app.get<{ Querystring: { before?: number; limit?: number } }>(
    '/api/v1/explorer/blocks',
    { schema: { querystring: { type: 'object', properties: { before: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1, maximum: 100 } } }, response: ok(blocks) } },
    async (request) => {
      let q = app.db.selectFrom('ledger_blocks').selectAll().orderBy('height', 'desc').limit(request.query.limit ?? 20);
      if (request.query.before) q = q.where('height', '<', request.query.before);
      const rows = (await q.execute()) as BlockRow[];
      const head = app.ledger.headBlock;
      const anchors = await anchorsOf(rows.map((r) => r.height));
      return { data: { blocks: rows.map((r) => blockDto(r, anchors.get(r.height))), latest_height: head?.height ?? 0, tree_size: app.ledger.treeSize } };
    },
  );

  app.get<{ Params: { id: string } }>('/api/v1/explorer/blocks/:id', { schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] }, response: ok(blockSchema) } }, async (request) => {
    const id = request.params.id;
    const block = id === 'latest' ? app.ledger.headBlock ?? undefined : /^\d{1,12}$/.test(id) ? await app.ledger.block(Number(id)) : /^[0-9a-f]{64}$/.test(id) ? await app.ledger.block(id) : undefined;
    if (!block) fail('not_found', 'id');
    return { data: blockDto(block, (await anchorsOf([block.height])).get(block.height)) };
  });

  app.get<{ Params: { height: number }; Querystring: { page?: number; page_size?: number } }>(
    '/api/v1/explorer/blocks/:height/entries',
    {
      schema: {
        params: { type: 'object', properties: { height: { type: 'integer', minimum: 1 } }, required: ['height'] },
        querystring: { type: 'object', properties: { page: pageNumber, page_size: { type: 'integer', minimum: 1, maximum: 200 } } },
        response: ok(blockEntries),
      },
    },
    async (request) => {
      const size = request.query.page_size ?? 50;
      const rows = await app.db
        .selectFrom('ledger_entries')
        .select(['dna', 'kind', 'enterprise_name', 'registered_at', 'leaf_index', 'leaf_hash', 'record'])
        .where('block_height', '=', request.params.height)
        .orderBy('leaf_index')
        .limit(size)
        .offset(((request.query.page ?? 1) - 1) * size)
        .execute();
      return { data: rows.map((r) => ({ asset_dna: r.dna, kind: r.kind, enterprise_name: r.enterprise_name, registered_at: Number(r.registered_at), leaf_index: Number(r.leaf_index), leaf_hash: r.leaf_hash, record: r.record })) };
    },
  );

  app.get<{ Params: { dna: string } }>('/api/v1/explorer/entries/:dna', { schema: { params: { type: 'object', properties: { dna: { type: 'string', maxLength: 64 } }, required: ['dna'] }, response: ok(explorerEntry) } }, async (request) => {
    const e = await app.db.selectFrom('ledger_entries').select(['dna', 'kind', 'enterprise_name', 'registered_at', 'leaf_index', 'leaf_hash', 'record', 'block_height']).where('dna', '=', request.params.dna).executeTakeFirst();
    if (!e) fail('proof_record_not_found', 'dna');
    const block = e.block_height === null ? undefined : await app.ledger.block(Number(e.block_height));
    const inclusion = block && e.leaf_index !== null ? { tree_size: Number(block.tree_size), root: block.root, path: app.ledger.inclusionProof(Number(e.leaf_index), Number(block.tree_size)) } : null;
    return {
      data: {
        asset_dna: e.dna,
        kind: e.kind,
        enterprise_name: e.enterprise_name,
        registered_at: Number(e.registered_at),
        leaf_index: e.leaf_index === null ? null : Number(e.leaf_index),
        leaf_hash: e.leaf_hash,
        record: e.record,
        block: block ? blockDto(block, (await anchorsOf([block.height])).get(block.height)) : null,
        inclusion,
      },
    };
  });
}
