import { JsonRpcProvider, Wallet } from 'ethers';
import type { Anchor } from '../../core/ledger/package.ts';
import { ANCHOR_TAG_HEX } from '../../core/ledger/anchor-check.ts';

/** Transaction data of an anchor: the ASCII tag "provena1" then the 32-byte block hash. */
export { ANCHOR_TAG_HEX };

export type Anchorer = { anchor(blockHash: string): Promise<Anchor>; close(): void };

/**
 * Anchors a block hash on an EVM chain with a zero-value transaction from the platform's
 * account to itself, carrying the hash as data: no contract to deploy or trust, and
 * anyone can read it back with eth_getTransactionByHash. Resolves after one confirmation.
 */
export function evmAnchorer(opts: { rpcUrl: string; privateKey: string }): Anchorer {
  const provider = new JsonRpcProvider(opts.rpcUrl);
  const wallet = new Wallet(opts.privateKey, provider);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    anchor(blockHash: string): Promise<Anchor> {
      // One transaction at a time from this process: nonces stay in order.
      const next = queue.catch(() => undefined).then(async () => {
        const tx = await wallet.sendTransaction({ to: wallet.address, value: 0n, data: `0x${ANCHOR_TAG_HEX}${blockHash}` });
        const receipt = await tx.wait(1);
        if (!receipt || receipt.status !== 1) throw new Error(`anchor transaction ${tx.hash} failed`);
        const network = await provider.getNetwork();
        return { chain_id: Number(network.chainId), tx_hash: receipt.hash, block_number: receipt.blockNumber };
      });
      queue = next;
      return next;
    },
    close() {
      provider.destroy();
    },
  };
}
