import { arrayOf, bool, errorEnvelope, nullableNum, nullableObj, nullableStr, num, obj, str } from '../schemas.ts';

/** One of the caller's own entries with its proof's state. */
export const ownEntry = obj({
  asset_dna: str,
  file_hash: str,
  kind: str,
  enterprise_name: str,
  registered_at: num,
  block_height: nullableNum,
  proof_status: num,
  expired_at: nullableNum,
});
export const ownEntries = arrayOf(ownEntry);

export const proofState = obj({ asset_dna: str, proof_status: num, is_generated: bool, issued_at: nullableNum, expired_at: nullableNum, block_height: nullableNum });
export const proofRegenerating = obj({ asset_dna: str, proof_status: num });

/** §3 search result: entity_type 0 (nothing), 1 asset, 2 project, 3 commit, 4 application file; `container` names a source-code project. */
export const searchResult = obj({ entity_type: num, dip_id: nullableStr, project_id: nullableNum, container: str });

export const platformKey = obj({
  key_id: str,
  purpose: str,
  algorithm: str,
  spki: str,
  created_at: num,
  retired_at: nullableNum,
  certificate: nullableStr,
  root_fingerprint: nullableStr,
});

/** The C2SP signed note is text, not JSON. */
export const checkpointResponse = {
  200: { description: 'The newest checkpoint: a C2SP tlog-checkpoint signed note.', content: { 'text/plain': { schema: str } } },
  '4xx': errorEnvelope,
};

export const anchors = obj({
  address: nullableStr,
  interval_ms: nullableNum,
  data_format: str,
  time_tolerance_ms: num,
  anchors: arrayOf(
    obj({ height: num, tree_size: num, checkpoint: str, checkpoint_hash: str, chain_id: num, address: str, tx_hash: str, block_number: num, anchored_at: num }),
  ),
});

export const platformRoot = obj({ fingerprint: str, certificate: str, created_at: num });

export const inclusion = obj({ asset_dna: str, leaf_index: num, leaf_hash: str, tree_size: num, root: str, path: arrayOf(str) });

const treeHead = obj({ height: num, tree_size: num, root: str });
export const consistency = obj({ first: treeHead, second: treeHead, proof: arrayOf(str) });

// ---- the block explorer ----

/** A sealed block, with its anchor when one was sent. */
export const block = obj({
  height: num,
  hash: str,
  prev_hash: str,
  tree_size: num,
  root: str,
  sealed_at: num,
  key_id: str,
  header: str,
  signature: str,
  entry_count: num,
  anchor: nullableObj({ chain_id: num, tx_hash: str, block_number: num }),
});

export const blocks = obj({ blocks: arrayOf(block), latest_height: num, tree_size: num });

const entryFields = { asset_dna: str, kind: str, enterprise_name: str, registered_at: num, leaf_hash: str, record: str } as const;
export const blockEntries = arrayOf(obj({ ...entryFields, leaf_index: num }));
export const explorerEntry = obj({
  ...entryFields,
  leaf_index: nullableNum,
  block: { ...block, type: ['object', 'null'] },
  inclusion: nullableObj({ tree_size: num, root: str, path: arrayOf(str) }),
});
