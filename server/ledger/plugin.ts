import fp from 'fastify-plugin';
import { Ledger, type InTransaction, type InTransactionMany, type RegisterInput, type Registration } from './ledger.ts';
import { readLedgerConfig, type LedgerConfig } from './config.ts';
import { ProofJobs } from '../proofs/jobs.ts';
import type { CheckpointAnchoring } from './anchor.ts';
import { scheduleJob } from '../jobs/schedule.ts';
import { CheckpointStore } from './checkpoints.ts';
import { Witnessing } from './witnessing.ts';
import { driverFor } from '../storage/file-store.ts';
import { checkpointOrigin } from '../../core/ledger/checkpoint.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ledger: Ledger;
    proofs: ProofJobs;
    /** Witness cosigning of checkpoints; null when WITNESS_URLS is not set. */
    witnessing: Witnessing | null;
    /** Checkpoint anchoring on an EVM chain; null when ANCHOR_RPC_URL is not set. */
    anchoring: CheckpointAnchoring | null;
    /**
     * The registration service for assets, vault, source code and applications: durable
     * when it resolves; the entry joins the next block and its certificate follows (§9).
     * `inTransaction` runs in the entry's own transaction (charge credits, insert the asset
     * row): all of it commits together or none of it does. An in-process service only, never
     * behind a route of its own: its callers (feature services) check the caller's unfrozen
     * membership and §6 role, charge the price in `inTransaction`, and take the enterprise name
     * from the enterprise row (tests/server/registration-door.test.ts walks every route).
     */
    registerEntry(input: RegisterInput, inTransaction?: InTransaction): Promise<Registration>;
    /** The same door for a batch (a pushed git history), in one transaction, inserted in bulk; same duties for its callers. */
    registerEntries(inputs: RegisterInput[], inTransaction?: InTransactionMany): Promise<Registration[]>;
  }
}

export type LedgerPluginOptions = { config?: Partial<LedgerConfig>; isSealingTimerOn?: boolean };

/** Decorates the app with the ledger and the certificate jobs; seals on a timer while the app runs. */
export default fp<LedgerPluginOptions>(async function ledgerPlugin(app, opts) {
  // One public origin for every absolute URL: the validated PUBLIC_URL of the environment.
  const config = { ...readLedgerConfig(), publicUrl: app.env.publicUrl, ...opts.config };
  // Checkpoints go to the object store (STORAGE_URL or DATA_DIR/blobs/objects), beside the database, not in it.
  const checkpoints = new CheckpointStore(driverFor(app.env.storage), checkpointOrigin(config.publicUrl));
  const ledger = new Ledger(app.db, config, app.log, checkpoints);
  // anchor.ts (and ethers, ~7 MB of heap) is loaded only when anchoring is configured.
  const anchor = config.anchor;
  const anchoring = anchor
    ? await import('./anchor.ts').then(({ CheckpointAnchoring, evmAnchorer }) => new CheckpointAnchoring(app.db, evmAnchorer({ ...anchor, receiptTimeoutMs: Math.max(anchor.rpcTimeoutMs, anchor.intervalMs) }), () => ledger.currentCheckpoint(), app.log))
    : null;
  const proofs = new ProofJobs(app.db, ledger, app.log, anchoring);
  // Certificates are a job (any worker takes it; at most one pass runs at a time across them):
  // the worker first follows the blocks the leader sealed, then renders what waits.
  app.jobs.define('proofs.render', async () => {
    await ledger.catchUp();
    await proofs.drain();
  });
  const renderSoon = () => void app.jobs.send('proofs.render').catch((error: unknown) => app.log.warn({ err: error }, 'could not queue certificate rendering'));
  ledger.onSealed(renderSoon);
  const witnessing = config.witnesses.length ? new Witnessing(config.witnesses, (a, b) => ledger.consistencyProof(a, b), checkpoints, app.log) : null;
  if (witnessing) {
    ledger.onSealed(() => void ledger.currentCheckpoint().then((cp) => cp && witnessing.submit(cp)));
  }
  anchoring?.onAnchored(renderSoon);
  app.decorate('ledger', ledger);
  app.decorate('proofs', proofs);
  app.decorate('anchoring', anchoring);
  app.decorate('witnessing', witnessing);
  app.decorate('registerEntry', (input: RegisterInput, inTransaction?: InTransaction) => ledger.register(input, inTransaction));
  app.decorate('registerEntries', (inputs: RegisterInput[], inTransaction?: InTransactionMany) => ledger.registerMany(inputs, inTransaction));
  // Sealing and anchoring belong to the leader only: a standby worker and every API
  // replica keep the tree loaded and follow the blocks the leader seals.
  const isSealingOn = opts.isSealingTimerOn !== false && app.env.role !== 'serve';
  let follower: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await ledger.start({ isSealingTimerOn: false });
    await ledger.stopSealing();
    follower = setInterval(() => {
      if (!ledger.isSealer) void ledger.catchUp().catch((error: unknown) => app.log.warn({ err: error }, 'following the ledger failed'));
    }, config.blockIntervalMs);
    follower.unref();
  });
  if (isSealingOn) {
    // Anchoring is a job the leader asks for once per ANCHOR_INTERVAL: retried with backoff,
    // visible to operators, and never in the sealer's way.
    if (anchoring) scheduleJob(app, 'ledger.anchor', { everyMs: config.anchor!.intervalMs }, () => anchoring.run(), { retryLimit: 3, retryDelaySeconds: 30 });
    app.leadership.onGained(async () => {
      await ledger.startSealing();
      // Certificates that failed in an earlier run (a missing font, say) are retried when a leader starts.
      await app.db.updateTable('proofs').set({ error: null }).where('error', 'is not', null).execute();
      renderSoon();
    });
    app.leadership.onLost(async () => {
      await ledger.stopSealing();
      await anchoring?.stop();
    });
  }
  app.addHook('onClose', async () => {
    clearInterval(follower);
    await ledger.stop();
    await anchoring?.stop();
    await witnessing?.idle();
    // An API replica renders nothing; elsewhere a pass in progress finishes first.
    if (app.env.role !== 'serve') await proofs.drain().catch(() => undefined);
    await proofs.close();
    anchoring?.anchorer.close();
  });
});
