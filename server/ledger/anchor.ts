import { Wallet, keccak256 } from 'ethers';
import type { Db } from '../db/database.ts';
import type { Anchor } from '../../core/ledger/package.ts';
import { CHECKPOINT_ANCHOR_TAG_HEX, checkCheckpointAnchor, jsonRpc, type RpcCall } from '../../core/ledger/anchor-check.ts';
import { checkpointHash, parseCheckpointBody, parseSignedNote } from '../../core/ledger/checkpoint.ts';

export { CHECKPOINT_ANCHOR_TAG_HEX };

export type AnchorSettings = { rpcUrl: string; privateKey: string; intervalMs: number; rpcTimeoutMs: number };

/** A signed anchor transaction, not necessarily sent: what an intent row holds. */
export type SignedAnchor = { nonce: number; chainId: number; raw: string; hash: string };

/** What the node knows of a transaction. */
export type TxLookup = { state: 'mined'; anchor: Anchor } | { state: 'failed' } | { state: 'unmined' };

export type Anchorer = {
  /** The account that sends every anchor: published and bound into signed statements. */
  readonly address: string;
  /** The account's transaction count: mined, and with what the node holds but has not mined. */
  nonces(): Promise<{ mined: number; pending: number }>;
  /** Signs (does not send) the transaction carrying the tag and `checkpointHashHex` with `nonce`. */
  sign(checkpointHashHex: string, nonce: number): Promise<SignedAnchor>;
  /** Broadcasts signed bytes. Sending the same bytes again is harmless: same nonce, same hash. */
  send(raw: string): Promise<void>;
  /** Looks a transaction up by hash. */
  lookup(hash: string): Promise<TxLookup>;
  /** Waits until the transaction is mined (its anchor), failed, or `receiptTimeoutMs` passed (unmined). */
  waitMined(hash: string): Promise<TxLookup>;
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
 * It holds no state: which nonce carries which checkpoint is the database's (CheckpointAnchoring).
 */
export function evmAnchorer(opts: { rpcUrl: string; privateKey: string; rpcTimeoutMs?: number; receiptTimeoutMs?: number }): Anchorer {
  const wallet = new Wallet(opts.privateKey);
  const rpc = retrying(jsonRpc(opts.rpcUrl, opts.rpcTimeoutMs ?? 10_000));
  const receiptTimeoutMs = opts.receiptTimeoutMs ?? 120_000;

  async function lookup(hash: string): Promise<TxLookup> {
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status?: string; blockNumber?: string } | null;
    if (!receipt?.blockNumber) return { state: 'unmined' };
    if (receipt.status !== '0x1') return { state: 'failed' };
    const chainId = Number(big(await rpc('eth_chainId', [])));
    return { state: 'mined', anchor: { chain_id: chainId, tx_hash: hash, block_number: Number(big(receipt.blockNumber)) } };
  }

  return {
    address: wallet.address.toLowerCase(),
    async nonces() {
      const [mined, pending] = await Promise.all([rpc('eth_getTransactionCount', [wallet.address, 'latest']), rpc('eth_getTransactionCount', [wallet.address, 'pending'])]);
      return { mined: Number(big(mined)), pending: Number(big(pending)) };
    },
    async sign(checkpointHashHex, nonce) {
      const data = `0x${CHECKPOINT_ANCHOR_TAG_HEX}${checkpointHashHex}`;
      const [chainId, gasPrice, gas] = await Promise.all([
        rpc('eth_chainId', []),
        rpc('eth_gasPrice', []),
        rpc('eth_estimateGas', [{ from: wallet.address, to: wallet.address, value: '0x0', data }]),
      ]);
      // Gas from the node (calldata pricing changes between forks), with a margin.
      const tx = { type: 0, chainId: big(chainId), nonce, to: wallet.address, value: 0n, data, gasPrice: (big(gasPrice) * 12n) / 10n, gasLimit: (big(gas) * 12n) / 10n };
      const raw = await wallet.signTransaction(tx);
      return { nonce, chainId: Number(big(chainId)), raw, hash: keccak256(raw) };
    },
    async send(raw) {
      try {
        await rpc('eth_sendRawTransaction', [raw]);
      } catch (error) {
        // The node has it already (a second send of the same bytes), or mined it meanwhile.
        if (/already known|known transaction|already imported|nonce too low|nonce is too low/i.test(error instanceof Error ? error.message : '')) return;
        throw error;
      }
    },
    lookup,
    async waitMined(hash) {
      const deadline = Date.now() + receiptTimeoutMs;
      for (;;) {
        const found = await lookup(hash);
        if (found.state !== 'unmined' || Date.now() > deadline) return found;
        await sleep(250);
      }
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
 *
 * Intent, then send: the signed transaction (nonce, checkpoint, raw bytes, hash) is written
 * to ledger_anchor_intents before it is broadcast, and every round first reconciles the
 * intents not yet recorded with the chain. A leader killed between sending and recording
 * leaves an intent: the next round (on any leader) records its transaction when mined, or
 * sends the same bytes again when the node never got it. A nonce is only ever signed once:
 * the intent's primary key (address, nonce) refuses a second one, which also fences a deposed
 * leader still running.
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
    this.running = this.round()
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
    this.running = this.round()
      .catch((error: unknown) => this.log.warn({ err: error }, 'checkpoint anchoring failed; the next interval tries again'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async round(): Promise<void> {
    const isAnyRecorded = await this.reconcile();
    const isNewRecorded = await this.anchorNewest();
    if (isAnyRecorded || isNewRecorded) for (const listener of this.listeners) listener();
  }

  /**
   * Every intent still in state 'sent', oldest nonce first: recorded when its transaction is
   * mined; sent again (the same bytes) when it is not and its nonce is still free; marked
   * 'replaced' when its nonce was used by a transaction it does not describe. Throws while one
   * is sent but not mined yet: no later nonce is signed behind it.
   */
  private async reconcile(): Promise<boolean> {
    const open = await this.db.selectFrom('ledger_anchor_intents').selectAll().where('address', '=', this.anchorer.address).where('state', '=', 'sent').orderBy('nonce').execute();
    let isRecorded = false;
    for (const intent of open) {
      const nonce = Number(intent.nonce);
      // The count first: a transaction it counts is also found by the lookup after it.
      const { mined } = await this.anchorer.nonces();
      let found = await this.anchorer.lookup(intent.tx_hash);
      if (found.state === 'unmined') {
        if (mined > nonce) {
          await this.db.updateTable('ledger_anchor_intents').set({ state: 'replaced' }).where('address', '=', intent.address).where('nonce', '=', intent.nonce).where('state', '=', 'sent').execute();
          this.log.warn({ nonce, tx: intent.tx_hash }, 'the anchoring nonce was used by a transaction this platform did not sign for it: is ANCHOR_PRIVATE_KEY used elsewhere?');
          continue;
        }
        this.log.info({ nonce, tx: intent.tx_hash, height: intent.height }, 'sending a recorded anchor intent again');
        await this.anchorer.send(intent.raw_tx);
        found = await this.anchorer.waitMined(intent.tx_hash);
      }
      if (found.state === 'unmined') throw new Error(`anchor transaction ${intent.tx_hash} (nonce ${nonce}) is not mined yet; waiting for it next time`);
      if (found.state === 'failed') {
        await this.db.updateTable('ledger_anchor_intents').set({ state: 'failed' }).where('address', '=', intent.address).where('nonce', '=', intent.nonce).where('state', '=', 'sent').execute();
        this.log.warn({ nonce, tx: intent.tx_hash }, 'an anchor transaction failed on the chain; the checkpoint is anchored again');
        continue;
      }
      await this.record(intent, found.anchor);
      isRecorded = true;
    }
    return isRecorded;
  }

  /** The anchor row and the intent's new state, in one transaction. */
  private async record(intent: { address: string; nonce: number; height: number; tree_size: number; note: string; checkpoint_hash: string }, anchor: Anchor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('ledger_checkpoint_anchors')
        .values({ height: intent.height, tree_size: intent.tree_size, note: intent.note, checkpoint_hash: intent.checkpoint_hash, chain_id: anchor.chain_id, address: intent.address, tx_hash: anchor.tx_hash, block_number: anchor.block_number, anchored_at: Date.now() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx.updateTable('ledger_anchor_intents').set({ state: 'recorded' }).where('address', '=', intent.address).where('nonce', '=', intent.nonce).execute();
    });
    this.log.info({ height: intent.height, tx: anchor.tx_hash }, 'checkpoint anchored');
  }

  private async anchorNewest(): Promise<boolean> {
    const cp = await this.current();
    if (!cp) return false;
    const done = await this.db.selectFrom('ledger_checkpoint_anchors').select('height').where('height', '>=', cp.height).executeTakeFirst();
    if (done) return false;
    const text = (parseSignedNote(cp.note) as { text: string }).text;
    const hash = checkpointHash(text);
    const address = this.anchorer.address;
    // The chain's count before the intents are read: a transaction it counts had its intent
    // written before it was sent, so the check below sees it (another leader's, just mined).
    const { pending } = await this.anchorer.nonces();
    const held = await this.db.selectFrom('ledger_anchor_intents').select(['nonce', 'height', 'state']).where('address', '=', address).orderBy('nonce', 'desc').execute();
    if (held.some((i) => i.height >= cp.height && (i.state === 'sent' || i.state === 'recorded'))) return false; // another leader is on it
    const nonce = Math.max(pending, held.length ? Number(held[0]!.nonce) + 1 : 0);
    const signed = await this.anchorer.sign(hash, nonce);
    // The intent, durably, before anything is sent. Its key refuses a second transaction for the nonce.
    const inserted = await this.db
      .insertInto('ledger_anchor_intents')
      .values({ address, nonce, height: cp.height, tree_size: cp.treeSize, note: cp.note, checkpoint_hash: hash, chain_id: signed.chainId, tx_hash: signed.hash, raw_tx: signed.raw, state: 'sent', created_at: Date.now() })
      .onConflict((oc) => oc.columns(['address', 'nonce']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) {
      this.log.info({ nonce }, 'another leader holds this anchoring nonce; nothing sent');
      return false;
    }
    await this.anchorer.send(signed.raw);
    const found = await this.anchorer.waitMined(signed.hash);
    if (found.state === 'unmined') throw new Error(`anchor transaction ${signed.hash} is not mined yet; waiting for it next time`);
    if (found.state === 'failed') {
      await this.db.updateTable('ledger_anchor_intents').set({ state: 'failed' }).where('address', '=', address).where('nonce', '=', nonce).execute();
      throw new Error(`anchor transaction ${signed.hash} failed`);
    }
    await this.record({ address, nonce, height: cp.height, tree_size: cp.treeSize, note: cp.note, checkpoint_hash: hash }, found.anchor);
    return true;
  }
}

/**
 * For ledger:verify: the newest anchored checkpoint recorded in the database is on the
 * chain as recorded (sender, data), does not go beyond the database's head, and the
 * anchoring account has sent no more transactions than the database knows: its anchors,
 * the transactions of intents written before sending and not recorded yet (a leader died
 * in between; the next anchoring round records them), and those that failed on the chain.
 * More means a lost tail of anchors.
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
  const intents = await db.selectFrom('ledger_anchor_intents').select(['tx_hash', 'state']).where('address', '=', address).where('state', 'in', ['sent', 'failed']).execute();
  const failed = intents.filter((i) => i.state === 'failed').length;
  let awaiting = 0;
  for (const intent of intents.filter((i) => i.state === 'sent')) {
    const receipt = (await rpc('eth_getTransactionReceipt', [intent.tx_hash])) as { blockNumber?: string } | null;
    if (receipt?.blockNumber) awaiting += 1;
  }
  const known = rows.length + older + failed + awaiting;
  if (sent > known) return { isOk: false, problem: `the anchoring account ${address} has sent ${sent} transactions, the database records ${known} anchors: the newest ${sent - known} are missing from the database` };
  const pendingNote = awaiting ? `, ${awaiting} sent and waiting to be recorded` : '';
  const newest = rows[0];
  if (!newest) return { isOk: true, detail: `no anchors yet${pendingNote}` };
  const body = parseCheckpointBody(parseSignedNote(newest.note)?.text ?? '');
  if (!body) return { isOk: false, problem: `the anchor of block ${newest.height} records no checkpoint` };
  if (!head || newest.height > head.height || Number(newest.tree_size) > head.tree_size) {
    return { isOk: false, problem: `block ${newest.height} (tree size ${newest.tree_size}) was anchored in ${newest.tx_hash}, the database ends at block ${head?.height ?? 0}: blocks ${(head?.height ?? 0) + 1}–${newest.height} are missing` };
  }
  const result = await checkCheckpointAnchor({ chain_id: Number(newest.chain_id), tx_hash: newest.tx_hash, block_number: Number(newest.block_number) }, { address, checkpointHash: newest.checkpoint_hash, sealedAt: 0 }, rpc);
  if (!result.isOk) return { isOk: false, problem: `the anchor of block ${newest.height}: ${result.detail}` };
  if (checkpointHash(parseSignedNote(newest.note)?.text ?? '') !== newest.checkpoint_hash) return { isOk: false, problem: `the anchor of block ${newest.height} records a hash that is not its checkpoint's` };
  return { isOk: true, detail: `${rows.length} anchors${pendingNote}, newest block ${newest.height} in ${newest.tx_hash.slice(0, 18)}…` };
}
