import { toHex, utf8 } from './bytes.ts';

/** A chain transaction that carries a checkpoint's hash (the proof package's `anchor`). */
export type Anchor = { chain_id: number; tx_hash: string; block_number: number; contract?: string };

/**
 * Transaction data of a checkpoint anchor: the ASCII tag "provena-checkpoint/v1:" (domain
 * separation: no other message of the platform starts with it) then the 32-byte SHA-256 of
 * the checkpoint's note text (docs/proof-format.md "Anchor").
 */
export const CHECKPOINT_ANCHOR_TAG = 'provena-checkpoint/v1:';
export const CHECKPOINT_ANCHOR_TAG_HEX = toHex(utf8.encode(CHECKPOINT_ANCHOR_TAG));

/**
 * How much earlier than the block's sealed_at the anchor's chain block may be dated: chain
 * block times follow their producers' clocks (Ethereum allows some drift), the platform's
 * follows its own. An anchor dated further back was made before the block existed.
 */
export const ANCHOR_TIME_TOLERANCE_MS = 15 * 60 * 1000;

/** One Ethereum JSON-RPC call. */
export type RpcCall = (method: string, params: unknown[]) => Promise<unknown>;

/** JSON-RPC over HTTP with fetch (browser, worker, Node), with a timeout. */
export function jsonRpc(url: string, timeoutMs = 10_000): RpcCall {
  let id = 0;
  return async (method, params) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
    const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message ?? 'error'}`);
    return body.result;
  };
}

/** The node could not answer: distinct from an answer that contradicts the proof. */
export class AnchorUnreachableError extends Error {}

type RpcTransaction = { input?: string; data?: string; blockNumber?: string | null; from?: string; to?: string | null };
type RpcReceipt = { status?: string; blockNumber?: string };
type RpcBlock = { timestamp?: string };

const hexToNumber = (h: unknown) => (typeof h === 'string' && /^0x[0-9a-f]+$/i.test(h) ? Number.parseInt(h, 16) : Number.NaN);

export type CheckpointAnchorFailure = 'anchor_not_found' | 'anchor_sender_unknown' | 'anchor_data_mismatch' | 'anchor_time_invalid';

/**
 * Checks a checkpoint anchor: the node is on `chain_id`; the transaction exists, succeeded,
 * was mined in `block_number`; it was sent by `address` (the platform's published
 * anchoring address, bound in the signed statement); its data is the tag then exactly
 * `checkpointHashHex`; and its chain block is not dated earlier than `sealedAt` minus
 * ANCHOR_TIME_TOLERANCE_MS. Throws AnchorUnreachableError when the node cannot be asked.
 */
export async function checkCheckpointAnchor(
  anchor: Anchor,
  expected: { address: string; checkpointHash: string; sealedAt: number },
  rpc: RpcCall,
): Promise<{ isOk: true; detail: string; chainTime: number } | { isOk: false; failure: CheckpointAnchorFailure; detail: string }> {
  let chainId: unknown, tx: RpcTransaction | null, receipt: RpcReceipt | null, block: RpcBlock | null;
  try {
    [chainId, tx, receipt] = (await Promise.all([
      rpc('eth_chainId', []),
      rpc('eth_getTransactionByHash', [anchor.tx_hash]),
      rpc('eth_getTransactionReceipt', [anchor.tx_hash]),
    ])) as [unknown, RpcTransaction | null, RpcReceipt | null];
    block = tx?.blockNumber ? ((await rpc('eth_getBlockByNumber', [tx.blockNumber, false])) as RpcBlock | null) : null;
  } catch (error) {
    throw new AnchorUnreachableError(error instanceof Error ? error.message : String(error));
  }
  if (hexToNumber(chainId) !== anchor.chain_id) return { isOk: false, failure: 'anchor_not_found', detail: `the node is on chain ${hexToNumber(chainId)}, the anchor names chain ${anchor.chain_id}` };
  if (!tx || !receipt || receipt.status !== '0x1') return { isOk: false, failure: 'anchor_not_found', detail: `no successful transaction ${anchor.tx_hash} on chain ${anchor.chain_id}` };
  if (hexToNumber(tx.blockNumber) !== anchor.block_number) return { isOk: false, failure: 'anchor_not_found', detail: `the transaction is in block ${hexToNumber(tx.blockNumber)}, the anchor says ${anchor.block_number}` };
  if (!tx.from || tx.from.toLowerCase() !== expected.address.toLowerCase()) {
    return { isOk: false, failure: 'anchor_sender_unknown', detail: `sent by ${tx.from ?? 'nobody'}, not by the platform's anchoring address ${expected.address}` };
  }
  const data = (tx.input ?? tx.data ?? '').toLowerCase();
  if (data !== `0x${CHECKPOINT_ANCHOR_TAG_HEX}${expected.checkpointHash.toLowerCase()}`) return { isOk: false, failure: 'anchor_data_mismatch', detail: 'the transaction does not carry this checkpoint' };
  const seconds = hexToNumber(block?.timestamp);
  if (!Number.isFinite(seconds)) return { isOk: false, failure: 'anchor_not_found', detail: `chain block ${anchor.block_number} has no time` };
  const chainTime = seconds * 1000;
  if (chainTime < expected.sealedAt - ANCHOR_TIME_TOLERANCE_MS) {
    return { isOk: false, failure: 'anchor_time_invalid', detail: `chain block ${anchor.block_number} is dated ${new Date(chainTime).toISOString()}, before the block was sealed (${new Date(expected.sealedAt).toISOString()}, tolerance ${ANCHOR_TIME_TOLERANCE_MS / 60000} min)` };
  }
  return { isOk: true, chainTime, detail: `transaction ${anchor.tx_hash.slice(0, 18)}… from ${expected.address} on chain ${anchor.chain_id}, block ${anchor.block_number} at ${new Date(chainTime).toISOString()}, carries this checkpoint` };
}
