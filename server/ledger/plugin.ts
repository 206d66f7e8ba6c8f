import fp from 'fastify-plugin';
import { Ledger, type InTransaction, type RegisterInput, type Registration } from './ledger.ts';
import { readLedgerConfig, type LedgerConfig } from './config.ts';
import { ProofJobs } from '../proofs/jobs.ts';
import { evmAnchorer } from './anchor.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ledger: Ledger;
    proofs: ProofJobs;
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
  }
}

export type LedgerPluginOptions = { config?: Partial<LedgerConfig>; isSealingTimerOn?: boolean };

/** Decorates the app with the ledger and the certificate jobs; seals on a timer while the app runs. */
export default fp<LedgerPluginOptions>(async function ledgerPlugin(app, opts) {
  const config = { ...readLedgerConfig(), ...opts.config };
  const ledger = new Ledger(app.db, config, app.log);
  const anchorer = config.anchor ? evmAnchorer(config.anchor) : null;
  const proofs = new ProofJobs(app.db, ledger, app.log, anchorer);
  ledger.onSealed(() => void proofs.kick());
  app.decorate('ledger', ledger);
  app.decorate('proofs', proofs);
  app.decorate('registerEntry', (input: RegisterInput, inTransaction?: InTransaction) => ledger.register(input, inTransaction));
  app.addHook('onReady', async () => {
    await ledger.start({ isSealingTimerOn: opts.isSealingTimerOn });
    // Certificates that failed in an earlier run (a missing font, say) are retried at boot.
    await app.db.updateTable('proofs').set({ error: null }).where('error', 'is not', null).execute();
    void proofs.kick();
  });
  app.addHook('onClose', async () => {
    await ledger.stop();
    await proofs.drain().catch(() => undefined);
    anchorer?.close();
  });
});
