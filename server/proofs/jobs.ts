import type { Db } from '../db/database.ts';
import type { Ledger, BlockRow } from '../ledger/ledger.ts';
import { buildProofPackage } from './package-builder.ts';
import type { CertificateAsset } from './pdf.ts';
import { padesCertificates, signPreparedPdf } from './pades.ts';
import { RenderPool, renderWorkersFromEnv } from './render-pool.ts';
import { loadPlatformSigner } from '../keys/platform-keys.ts';
import { ASSET_TYPE_TEXT, COMMIT_DETAIL_TEXT, COMMIT_TEXT, REPO_PROJECT_TEXT, VAULT_FILE_TEXT } from './certificate-text.ts';
import type { CertificateLocale } from '../locale.ts';
import type { ObjectDriver } from '../storage/drivers.ts';
import { dropReplacedProofPdf, moveLegacyProofPdfs, PROOF_PDF_COLUMNS, proofPdfKeyOf, putProofPdf, readProofPdfOf } from '../services/proof-pdf.ts';

const isCertificateLocale = (value: string): value is CertificateLocale => value === 'zh' || value === 'en' || value === 'ja';
import type { CheckpointAnchoring } from '../ledger/anchor.ts';
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
  /** Set once the migration 0036 backfill found no certificate left in a row (moveLegacyBatch). */
  private isLegacyMoved = false;
  private readonly db: Db;
  private readonly ledger: Ledger;
  private readonly log: Logger;
  private readonly anchoring: CheckpointAnchoring | null;
  /** Pages are rendered here (worker threads unless PROOF_RENDER_WORKERS=0) and signed in this thread. */
  private readonly renderer: RenderPool;
  /** Where certificate PDFs are written (server/services/proof-pdf.ts): the object store. */
  readonly storage: ObjectDriver;

  /** `storage` defaults to the object store the ledger publishes its checkpoints to. */
  constructor(db: Db, ledger: Ledger, log: Logger, anchoring: CheckpointAnchoring | null = null, renderWorkers = renderWorkersFromEnv(), storage: ObjectDriver | null = null) {
    this.db = db;
    this.ledger = ledger;
    this.log = log;
    this.anchoring = anchoring;
    this.renderer = new RenderPool(renderWorkers);
    const driver = storage ?? ledger.checkpoints?.driver;
    if (!driver) throw new Error('certificates need an object store: pass one, or give the ledger a checkpoint store');
    this.storage = driver;
  }

  /** Stops the render workers (the app's onClose, after drain). */
  async close(): Promise<void> {
    await this.renderer.close();
  }

  /**
   * The checkpoint a certificate of `block` is issued under: with anchoring on, the first
   * anchored checkpoint at or after the block (and its anchor); otherwise the ledger's
   * current checkpoint. Null when none covers the block yet.
   */
  async checkpointFor(block: BlockRow): Promise<{ note: string; treeSize: number; anchor: Anchor | null } | null> {
    if (this.anchoring) {
      const row = await this.db.selectFrom('ledger_checkpoint_anchors').selectAll().where('height', '>=', block.height).orderBy('height').limit(1).executeTakeFirst();
      return row ? { note: row.note, treeSize: Number(row.tree_size), anchor: { chain_id: Number(row.chain_id), tx_hash: row.tx_hash, block_number: Number(row.block_number) } } : null;
    }
    const current = await this.ledger.currentCheckpoint();
    return current && current.height >= block.height ? { note: current.note, treeSize: current.treeSize, anchor: null } : null;
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
          while ((await this.signLegacyBatch()) > 0) {
            /* until every stored certificate carries the page signature */
          }
          // Nothing writes the column any more: once empty, it stays empty for this process.
          if (!this.isLegacyMoved) {
            while ((await this.moveLegacyBatch()) > 0) {
              /* until no certificate is left in a database row */
            }
            this.isLegacyMoved = true;
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
    let q = this.db
      .selectFrom('proofs')
      .innerJoin('ledger_entries', 'ledger_entries.dna', 'proofs.dna')
      .select(['proofs.dna as dna'])
      .where('proofs.status', '>=', PROOF_STATUS.sealed)
      .where('proofs.status', '<=', PROOF_STATUS.rendering)
      .where('proofs.error', 'is', null);
    if (this.anchoring) {
      // With anchoring on, a certificate waits for an anchored checkpoint that covers its block.
      const newest = await this.db.selectFrom('ledger_checkpoint_anchors').select((eb) => eb.fn.max('height').as('h')).executeTakeFirst();
      if (newest?.h === null || newest?.h === undefined) return 0;
      q = q.where('ledger_entries.block_height', '<=', Number(newest.h));
    }
    const jobs = await q.orderBy('proofs.updated_at').limit(20).execute();
    // As many certificates at once as there are render workers (each renders one page at a time).
    let next = 0;
    await Promise.all(Array.from({ length: Math.max(1, this.renderer.size) }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        try {
          await this.generate(job.dna);
        } catch (error) {
          this.log.error({ err: error, dna: job.dna }, 'certificate generation failed');
          await this.db.updateTable('proofs').set({ error: String(error instanceof Error ? error.message : error), updated_at: Date.now() }).where('dna', '=', job.dna).execute();
        }
      }
    }));
    return jobs.length;
  }

  /**
   * Certificates rendered before pages were signed: each is signed in place, once (the
   * page stays as it was issued; the time-stamp says when it was signed). Verifiers
   * refuse an unsigned page, so this runs at boot, after the waiting certificates.
   */
  private async signLegacyBatch(): Promise<number> {
    const rows = await this.db
      .selectFrom('proofs')
      .select(['dna', 'generation', 'locale', ...PROOF_PDF_COLUMNS])
      .where('page_signed', '=', 0)
      .where((eb) => eb.or([eb('pdf', 'is not', null), eb('pdf_key', 'is not', null)]))
      .limit(20)
      .execute();
    if (rows.length === 0) return 0;
    const signing = { proof: await loadPlatformSigner(this.db, 'proof'), tsa: await loadPlatformSigner(this.db, 'tsa') };
    const host = new URL(this.ledger.config.publicUrl).host;
    for (const row of rows) {
      try {
        const unsigned = await readProofPdfOf(this.storage, row);
        // pdf.ts (pdf-lib, fontkit) is loaded only when an old unsigned certificate is signed.
        const { signExistingCertificate } = await import('./pdf.ts');
        const pdf = await signExistingCertificate(new Uint8Array(unsigned!), signing, isCertificateLocale(row.locale) ? row.locale : 'zh', host);
        // The signed copy is a new object, written before the row points at it.
        const stored = await putProofPdf(this.storage, proofPdfKeyOf(row.dna, row.generation, '-signed'), pdf);
        const r = await this.db
          .updateTable('proofs')
          .set({ pdf: null, ...stored, page_signed: 1 })
          .where('dna', '=', row.dna)
          .where('generation', '=', row.generation)
          .where('page_signed', '=', 0)
          .executeTakeFirst();
        await this.dropReplaced(Number(r.numUpdatedRows) > 0 ? row.pdf_key : stored.pdf_key, stored.pdf_key);
      } catch (error) {
        // Not tried again on every pass (-1); regenerating the certificate renders and signs it anew.
        this.log.error({ err: error, dna: row.dna }, 'an older certificate could not be signed; regenerate it');
        await this.db.updateTable('proofs').set({ page_signed: -1 }).where('dna', '=', row.dna).where('page_signed', '=', 0).execute();
      }
    }
    return rows.length;
  }

  /** One batch of the migration 0036 backfill (server/services/proof-pdf.ts); the rows moved. */
  moveLegacyBatch(): Promise<number> {
    return moveLegacyProofPdfs(this.db, this.storage, this.log);
  }

  /** Moves every certificate still in a database row to the object store (tests, `moveLegacyBatch` until done). */
  async moveLegacyPdfs(): Promise<number> {
    let moved = 0;
    for (let n = await this.moveLegacyBatch(); n > 0; n = await this.moveLegacyBatch()) moved += n;
    return moved;
  }

  private dropReplaced(key: string | null, current: string): Promise<void> {
    return dropReplacedProofPdf(this.storage, this.log, key, current);
  }

  /** What the certificate names: the digital asset or vault file registered under this DNA, if any. */
  private async assetOf(dna: string): Promise<CertificateAsset | null> {
    const asset = await this.db.selectFrom('assets').select(['name', 'type', 'size']).where('dna', '=', dna).executeTakeFirst();
    if (asset) return { name: asset.name, type: ASSET_TYPE_TEXT[Number(asset.type)] ?? ASSET_TYPE_TEXT[ASSET_TYPE_TEXT.length - 1]!, size: Number(asset.size) };
    const file = await this.db.selectFrom('vault_files').select(['name', 'size']).where('dna', '=', dna).executeTakeFirst();
    if (file) return { name: file.name, type: VAULT_FILE_TEXT, size: Number(file.size) };
    const commit = await this.db
      .selectFrom('repo_commits as c')
      .innerJoin('repo_projects as p', 'p.id', 'c.project_id')
      .select(['c.commit_id', 'c.record', 'c.author_time', 'p.name'])
      .where('c.dna', '=', dna)
      .executeTakeFirst();
    if (commit) {
      const record = JSON.parse(commit.record) as { tree_sha256: string; author: { tz: string } };
      const D = COMMIT_DETAIL_TEXT;
      return {
        name: `${commit.name} @ ${commit.commit_id.slice(0, 12)}`,
        type: COMMIT_TEXT,
        size: null,
        details: [
          { label: D.commit, value: commit.commit_id, isMono: true },
          { label: D.treeDigest, value: record.tree_sha256, isMono: true },
          { label: D.authorTime, value: `${new Date(Number(commit.author_time)).toISOString().replace('.000Z', 'Z')} (${record.author.tz})`, isMono: false },
        ],
      };
    }
    const project = await this.db.selectFrom('repo_projects').select(['name']).where('dna', '=', dna).executeTakeFirst();
    if (project) return { name: project.name, type: REPO_PROJECT_TEXT, size: null };
    return null;
  }

  async generate(dna: string): Promise<void> {
    const entry = await this.db.selectFrom('ledger_entries').selectAll().where('dna', '=', dna).executeTakeFirstOrThrow();
    const proof = await this.db.selectFrom('proofs').selectAll().where('dna', '=', dna).executeTakeFirstOrThrow();
    if (entry.block_height === null) return;
    const block = (await this.ledger.block(Number(entry.block_height))) as BlockRow;
    // With anchoring on, the certificate waits for an anchored checkpoint (status 3);
    // without it, status 3 is passed straight through.
    const checkpoint = await this.checkpointFor(block);
    if (!checkpoint) {
      // Only with anchoring on are jobs picked before a checkpoint covers them (runBatch filters them out).
      throw new Error(`no checkpoint of this process covers block ${block.height} yet`);
    }
    const anchor = checkpoint.anchor;
    if (anchor) await this.db.updateTable('proofs').set({ status: PROOF_STATUS.anchored, updated_at: Date.now() }).where('dna', '=', dna).execute();
    await this.db.updateTable('proofs').set({ status: PROOF_STATUS.rendering, updated_at: Date.now() }).where('dna', '=', dna).execute();
    const issuedAt = Date.now();
    const pkg = await buildProofPackage(this.ledger, { ...entry, leaf_index: entry.leaf_index === null ? null : Number(entry.leaf_index), registered_at: Number(entry.registered_at) }, block, {
      issuedAt,
      expiresAt: issuedAt + Number(proof.valid_ms),
      anchor,
      anchorAddress: this.anchoring?.anchorer.address,
      checkpoint: { note: checkpoint.note, consistency: this.ledger.consistencyProof(Number(block.tree_size), checkpoint.treeSize) },
    });
    const signing = { proof: await loadPlatformSigner(this.db, 'proof'), tsa: await loadPlatformSigner(this.db, 'tsa') };
    const page = await this.renderer.render(
      {
        pkg,
        verifyUrl: `${this.ledger.config.publicUrl}/verify-file?dna=${dna}`,
        fontFile: this.ledger.config.fontFile,
        fallbackFontFile: this.ledger.config.fallbackFontFile,
        locale: isCertificateLocale(proof.locale) ? proof.locale : 'zh',
        asset: await this.assetOf(dna),
      },
      padesCertificates(signing),
    );
    const pdf = await signPreparedPdf(page, signing, new Date(pkg.statement.issued_at));
    // The object first, then the row that points at it; the previous generation's object goes after.
    const stored = await putProofPdf(this.storage, proofPdfKeyOf(dna, proof.generation), pdf);
    const r = await this.db
      .updateTable('proofs')
      .set({
        status: proof.generation > 1 ? PROOF_STATUS.regenerated : PROOF_STATUS.generated,
        pdf: null,
        ...stored,
        page_signed: 1,
        issued_at: pkg.statement.issued_at,
        expires_at: pkg.statement.expires_at,
        error: null,
        updated_at: Date.now(),
      })
      .where('dna', '=', dna)
      .where('generation', '=', proof.generation)
      .executeTakeFirst();
    await this.dropReplaced(Number(r.numUpdatedRows) > 0 ? proof.pdf_key : stored.pdf_key, stored.pdf_key);
  }

  /**
   * Issues a new certificate with a new expiry (the entry and its block do not change). The row
   * keeps the old object's key until the new certificate replaces it (status < 5: never served).
   */
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
