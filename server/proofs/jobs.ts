import type { Db } from '../db/database.ts';
import type { Ledger, BlockRow } from '../ledger/ledger.ts';
import { buildProofPackage } from './package-builder.ts';
import { renderCertificate } from './pdf.ts';
import type { Anchorer } from '../ledger/anchor.ts';
import type { Anchor } from '../../core/ledger/package.ts';

/**
 * §3/§9 proof status: 1 registered (waiting for a block), 2 sealed in a block,
 * 3 anchored (or anchoring off), 4 rendering the certificate — all "generating";
 * 5 generated, 6 regenerated — "generated".
 */
export const PROOF_STATUS = { registered: 1, sealed: 2, anchored: 3, rendering: 4, generated: 5, regenerated: 6 } as const;

export function isProofGenerated(status: number): boolean {
  return status >= PROOF_STATUS.generated;
}

type Logger = { error(obj: object, msg?: string): void };

/**
 * The certificate job: a table row per entry (schema) plus this handler. It runs after
 * each sealed block and at boot, so a crash mid-render only delays a certificate.
 */
export class ProofJobs {
  private running: Promise<void> | null = null;
  private isAgain = false;
  private readonly db: Db;
  private readonly ledger: Ledger;
  private readonly log: Logger;
  private readonly anchorer: Anchorer | null;
  private readonly anchoring = new Map<number, Promise<Anchor>>();

  constructor(db: Db, ledger: Ledger, log: Logger, anchorer: Anchorer | null = null) {
    this.db = db;
    this.ledger = ledger;
    this.log = log;
    this.anchorer = anchorer;
  }

  /** The block's anchor, sending its transaction once per block (certificates of a block share it). */
  async anchorOf(block: BlockRow): Promise<Anchor> {
    const stored = await this.db.selectFrom('ledger_anchors').selectAll().where('height', '=', block.height).executeTakeFirst();
    if (stored) return { chain_id: Number(stored.chain_id), tx_hash: stored.tx_hash, block_number: Number(stored.block_number) };
    let pending = this.anchoring.get(block.height);
    if (!pending) {
      pending = (async () => {
        const anchor = await (this.anchorer as Anchorer).anchor(block.hash);
        await this.db
          .insertInto('ledger_anchors')
          .values({ height: block.height, block_hash: block.hash, chain_id: anchor.chain_id, tx_hash: anchor.tx_hash, block_number: anchor.block_number, anchored_at: Date.now() })
          .onConflict((oc) => oc.doNothing())
          .execute();
        return anchor;
      })().finally(() => this.anchoring.delete(block.height));
      this.anchoring.set(block.height, pending);
    }
    return pending;
  }

  /** Starts a pass if none runs (and another one after it, if asked while running). */
  kick(): Promise<void> {
    if (this.running) {
      this.isAgain = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.isAgain = false;
        try {
          while ((await this.runBatch()) > 0) {
            /* until no job waits */
          }
        } catch (error) {
          this.log.error({ err: error }, 'proof generation pass failed');
        }
      } while (this.isAgain);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Waits until every sealed entry has its certificate (tests, benchmarks). */
  async drain(): Promise<void> {
    await this.kick();
    if (this.running) await this.running;
  }

  private async runBatch(): Promise<number> {
    const jobs = await this.db
      .selectFrom('proofs')
      .select(['dna'])
      .where('status', '>=', PROOF_STATUS.sealed)
      .where('status', '<=', PROOF_STATUS.rendering)
      .where('error', 'is', null)
      .orderBy('updated_at')
      .limit(20)
      .execute();
    for (const job of jobs) {
      try {
        await this.generate(job.dna);
      } catch (error) {
        this.log.error({ err: error, dna: job.dna }, 'certificate generation failed');
        await this.db.updateTable('proofs').set({ error: String(error instanceof Error ? error.message : error), updated_at: Date.now() }).where('dna', '=', job.dna).execute();
      }
    }
    return jobs.length;
  }

  async generate(dna: string): Promise<void> {
    const entry = await this.db.selectFrom('ledger_entries').selectAll().where('dna', '=', dna).executeTakeFirstOrThrow();
    const proof = await this.db.selectFrom('proofs').selectAll().where('dna', '=', dna).executeTakeFirstOrThrow();
    if (entry.block_height === null) return;
    const block = (await this.ledger.block(Number(entry.block_height))) as BlockRow;
    // With anchoring on, the certificate waits for the block's transaction (status 3);
    // without it, status 3 is passed straight through.
    const anchor = this.anchorer ? await this.anchorOf(block) : null;
    if (anchor) await this.db.updateTable('proofs').set({ status: PROOF_STATUS.anchored, updated_at: Date.now() }).where('dna', '=', dna).execute();
    await this.db.updateTable('proofs').set({ status: PROOF_STATUS.rendering, updated_at: Date.now() }).where('dna', '=', dna).execute();
    const issuedAt = Date.now();
    const pkg = await buildProofPackage(this.ledger, { ...entry, leaf_index: entry.leaf_index === null ? null : Number(entry.leaf_index), registered_at: Number(entry.registered_at) }, block, {
      issuedAt,
      expiresAt: issuedAt + Number(proof.valid_ms),
      anchor,
    });
    const pdf = await renderCertificate({ pkg, verifyUrl: `${this.ledger.config.publicUrl}/verify-file?dna=${dna}`, fontFile: this.ledger.config.fontFile, fallbackFontFile: this.ledger.config.fallbackFontFile });
    await this.db
      .updateTable('proofs')
      .set({
        status: proof.generation > 1 ? PROOF_STATUS.regenerated : PROOF_STATUS.generated,
        pdf,
        issued_at: pkg.statement.issued_at,
        expires_at: pkg.statement.expires_at,
        error: null,
        updated_at: Date.now(),
      })
      .where('dna', '=', dna)
      .where('generation', '=', proof.generation)
      .execute();
  }

  /** Issues a new certificate with a new expiry (the entry and its block do not change). */
  async regenerate(dna: string, validMs: number): Promise<void> {
    await this.db
      .updateTable('proofs')
      .set((eb) => ({ status: PROOF_STATUS.sealed, generation: eb('generation', '+', 1), valid_ms: validMs, pdf: null, error: null, updated_at: Date.now() }))
      .where('dna', '=', dna)
      .where('status', '>=', PROOF_STATUS.sealed)
      .execute();
    void this.kick();
  }
}
