import { Wallet } from 'ethers';
import type { Db } from '../db/database.ts';
import type { Anchor } from '../../core/ledger/package.ts';
import { CHECKPOINT_ANCHOR_TAG_HEX, checkCheckpointAnchor, jsonRpc, type RpcCall } from '../../core/ledger/anchor-check.ts';
import { checkpointHash, parseCheckpointBody, parseSignedNote } from '../../core/ledger/checkpoint.ts';

export { CHECKPOINT_ANCHOR_TAG_HEX };

export type AnchorSettings = { rpcUrl: string; privateKey: string; intervalMs: number; rpcTimeoutMs: number };

export type Anchorer = {
  /** The account that sends every anchor: published and bound into signed statements. */
  readonly address: string;
  /** Sends one transaction carrying the tag and `checkpointHashHex`; resolves once it is mined. */
  anchor(checkpointHashHex: string): Promise<Anchor>;
  close(): void;
};

type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each call has its own timeout (jsonRpc); a failed call is tried again up to `tries` times with backoff. */
function retrying(rpc: RpcCall, tries = 3): RpcCall {
  return async (method, params) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await rpc(method, params);
      } catch (error) {
        if (attempt >= tries || method === 'eth_sendRawTransaction') throw error;
        await sleep(200 * 2 ** attempt);
      }
    }
  };
}

const big = (v: unknown) => BigInt(typeof v === 'string' ? v : '0x0');

/**
 * Anchors checkpoint hashes on an EVM chain with a zero-value transaction from the
 * platform's account to itself carrying "provena-checkpoint/v1:" and the hash: no contract
 * to deploy or trust; anyone reads it back with eth_getTransactionByHash. The transaction
 * is signed locally (ethers Wallet) and every RPC call goes through jsonRpc with a timeout
 * and retries, so a node that hangs costs one timed-out attempt, never a stuck process.
 */
export function evmAnchorer(opts: { rpcUrl: string; privateKey: string; rpcTimeoutMs?: number; receiptTimeoutMs?: number }): Anchorer {
  const wallet = new Wallet(opts.privateKey);
  const rpc = retrying(jsonRpc(opts.rpcUrl, opts.rpcTimeoutMs ?? 10_000));
  const receiptTimeoutMs = opts.receiptTimeoutMs ?? 120_000;
  /** A sent transaction not yet seen mined: the next attempt waits for it instead of sending another. */
  let inFlight: { hash: string; data: string } | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function waitMined(hash: string): Promise<Anchor | null> {
    const deadline = Date.now() + receiptTimeoutMs;
    for (;;) {
      const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status?: string; blockNumber?: string; transactionHash?: string } | null;
      if (receipt?.blockNumber) {
        if (receipt.status !== '0x1') throw new Error(`anchor transaction ${hash} failed`);
        const chainId = Number(big(await rpc('eth_chainId', [])));
        return { chain_id: chainId, tx_hash: hash, block_number: Number(big(receipt.blockNumber)) };
      }
      if (Date.now() > deadline) return null;
      await sleep(250);
    }
  }

  return {
    address: wallet.address.toLowerCase(),
    anchor(checkpointHashHex: string): Promise<Anchor> {
      const data = `0x${CHECKPOINT_ANCHOR_TAG_HEX}${checkpointHashHex}`;
      const next = queue.catch(() => undefined).then(async () => {
        if (inFlight) {
          const earlier = await waitMined(inFlight.hash);
          if (earlier) {
            const wasSame = inFlight.data === data;
            inFlight = null;
            if (wasSame) return earlier;
          } else if ((await rpc('eth_getTransactionByHash', [inFlight.hash])) === null) {
            inFlight = null; // dropped by the node: send a new one (same nonce, if still free)
          } else {
            throw new Error(`anchor transaction ${inFlight.hash} is not mined yet`);
          }
        }
        const [chainId, nonce, gasPrice, gas] = await Promise.all([
          rpc('eth_chainId', []),
          rpc('eth_getTransactionCount', [wallet.address, 'pending']),
          rpc('eth_gasPrice', []),
          rpc('eth_estimateGas', [{ from: wallet.address, to: wallet.address, value: '0x0', data }]),
        ]);
        // Gas from the node (calldata pricing changes between forks), with a margin.
        const tx = { type: 0, chainId: big(chainId), nonce: Number(big(nonce)), to: wallet.address, value: 0n, data, gasPrice: (big(gasPrice) * 12n) / 10n, gasLimit: (big(gas) * 12n) / 10n };
        const raw = await wallet.signTransaction(tx);
        const hash = (await rpc('eth_sendRawTransaction', [raw])) as string;
        inFlight = { hash, data };
        const anchor = await waitMined(hash);
        if (!anchor) throw new Error(`anchor transaction ${hash} is not mined after ${receiptTimeoutMs} ms; waiting for it next time`);
        inFlight = null;
        return anchor;
      });
      queue = next;
      return next;
    },
    close() {
      /* fetch-based: nothing held open */
    },
  };
}

/**
 * Once per interval, anchors the ledger's newest checkpoint if it is not anchored yet.
 * It runs beside sealing, never in its way: a tick that finds the previous one still
 * running (a slow or hanging node) does nothing, and every RPC call has a timeout.
 */
export class CheckpointAnchoring {
  private running: Promise<void> | null = null;
  private readonly listeners: (() => void)[] = [];

  private readonly db: Db;
  readonly anchorer: Anchorer;
  private readonly current: () => Promise<{ height: number; treeSize: number; note: string } | null>;
  private readonly log: Logger;

  constructor(db: Db, anchorer: Anchorer, current: () => Promise<{ height: number; treeSize: number; note: string } | null>, log: Logger) {
    this.db = db;
    this.anchorer = anchorer;
    this.current = current;
    this.log = log;
  }

  async stop(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  onAnchored(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * One anchoring round as a job: like `tick`, but a failure is thrown, so the queue records
   * it and retries with backoff (the next scheduled run tries again in any case).
   */
  async run(): Promise<void> {
    if (this.running) return this.running;
    let failure: unknown = null;
    this.running = this.anchorNewest()
      .catch((error: unknown) => {
        failure = error;
        this.log.warn({ err: error }, 'checkpoint anchoring failed; the job is retried');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
    if (failure) throw failure;
  }

  /** One anchoring round now (tests call it directly). Never throws. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.anchorNewest()
      .catch((error: unknown) => this.log.warn({ err: error }, 'checkpoint anchoring failed; the next interval tries again'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async anchorNewest(): Promise<void> {
    const cp = await this.current();
    if (!cp) return;
    const done = await this.db.selectFrom('ledger_checkpoint_anchors').select('height').where('height', '>=', cp.height).executeTakeFirst();
    if (done) return;
    const text = (parseSignedNote(cp.note) as { text: string }).text;
    const hash = checkpointHash(text);
    const anchor = await this.anchorer.anchor(hash);
    await this.db
      .insertInto('ledger_checkpoint_anchors')
      .values({ height: cp.height, tree_size: cp.treeSize, note: cp.note, checkpoint_hash: hash, chain_id: anchor.chain_id, address: this.anchorer.address, tx_hash: anchor.tx_hash, block_number: anchor.block_number, anchored_at: Date.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    this.log.info({ height: cp.height, tx: anchor.tx_hash }, 'checkpoint anchored');
    for (const listener of this.listeners) listener();
  }
}

/**
 * For ledger:verify: the newest anchored checkpoint recorded in the database is on the
 * chain as recorded (sender, data), does not go beyond the database's head, and the
 * anchoring account has sent no more transactions than the database records (a missing
 * anchor row means a lost tail of anchors).
 */
export async function checkAnchoredCheckpoints(
  db: Db,
  settings: { rpcUrl: string; privateKey: string },
  head: { height: number; tree_size: number } | null,
): Promise<{ isOk: true; detail: string } | { isOk: false; problem: string }> {
  const address = new Wallet(settings.privateKey).address.toLowerCase();
  const rpc = retrying(jsonRpc(settings.rpcUrl, 10_000));
  const rows = await db.selectFrom('ledger_checkpoint_anchors').selectAll().orderBy('height', 'desc').execute();
  // Per-block anchors sent before checkpoint anchoring came from the same account.
  const older = Number((await db.selectFrom('ledger_anchors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const sent = Number(big(await rpc('eth_getTransactionCount', [address, 'latest'])));
  if (sent > rows.length + older) return { isOk: false, problem: `the anchoring account ${address} has sent ${sent} transactions, the database records ${rows.length + older} anchors: the newest ${sent - rows.length - older} are missing from the database` };
  const newest = rows[0];
  if (!newest) return { isOk: true, detail: 'no anchors yet' };
  const body = parseCheckpointBody(parseSignedNote(newest.note)?.text ?? '');
  if (!body) return { isOk: false, problem: `the anchor of block ${newest.height} records no checkpoint` };
  if (!head || newest.height > head.height || Number(newest.tree_size) > head.tree_size) {
    return { isOk: false, problem: `block ${newest.height} (tree size ${newest.tree_size}) was anchored in ${newest.tx_hash}, the database ends at block ${head?.height ?? 0}: blocks ${(head?.height ?? 0) + 1}–${newest.height} are missing` };
  }
  const result = await checkCheckpointAnchor({ chain_id: Number(newest.chain_id), tx_hash: newest.tx_hash, block_number: Number(newest.block_number) }, { address, checkpointHash: newest.checkpoint_hash, sealedAt: 0 }, rpc);
  if (!result.isOk) return { isOk: false, problem: `the anchor of block ${newest.height}: ${result.detail}` };
  if (checkpointHash(parseSignedNote(newest.note)?.text ?? '') !== newest.checkpoint_hash) return { isOk: false, problem: `the anchor of block ${newest.height} records a hash that is not its checkpoint's` };
  return { isOk: true, detail: `${rows.length} anchors, newest block ${newest.height} in ${newest.tx_hash.slice(0, 18)}…` };
}
