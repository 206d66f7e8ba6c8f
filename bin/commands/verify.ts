import fs from 'node:fs';
import { sha256File } from './sha256-file.ts';
import { verifyCertificate, type CheckId } from '../../core/ledger/package.ts';
import { jsonRpc } from '../../core/ledger/anchor-check.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';

/** §8 texts for the proof keys, in English (the browser localizes the same keys). */
const MESSAGES: Partial<Record<ErrorKey, string>> = {
  verify_file_not_found: 'original and proof file do not match',
  hash_mismatch: 'original and proof file do not match',
  no_proof_package: 'proof file missing or invalid',
  gzip_invalid_header: 'proof file format wrong',
  parse_pdf_failed: 'certificate parse error',
  file_hashes_inconsistent: 'proof verification failed',
  expiration_time_verification_failed: 'the digital property proof file has expired, regenerate it',
  checkpoint_invalid: 'the log checkpoint in the proof is not signed by the platform or does not contain this block',
  anchor_not_found: 'the anchor transaction is not on the chain as the proof says',
  anchor_sender_unknown: "the anchor was not sent from the platform's anchoring address",
  anchor_data_mismatch: "the anchor transaction does not carry the proof's checkpoint",
  anchor_time_invalid: 'the anchor is dated before the block was sealed',
};

const LABELS: Record<CheckId, string> = {
  pdf: 'PDF readable',
  package_present: 'proof package present',
  package_format: 'proof package format',
  platform_certificate: 'platform certificate chain',
  platform_key: 'platform key',
  file_hash: 'original matches proof',
  commitment: 'commitment opens',
  asset_dna: 'asset DNA',
  inclusion: 'audit path to block root',
  block_hash: 'block hash',
  block_signature: 'block signature',
  statement_signature: 'certificate signature',
  checkpoint: 'log checkpoint',
  anchor: 'anchor',
  expiry: 'expiry',
};

/** `provena verify <original> <proof.pdf>`: every check offline; exit 1 naming the failed check. */
export const verifyCommand = {
  summary: 'check an original file against its PDF proof, offline',
  usage: 'verify <original> <proof.pdf> [--trust <key id>]… [--trust-root <fingerprint>]… [--rpc <url>] [--json]',
  async run(args: string[]): Promise<number> {
    const positional: string[] = [];
    const trusted: string[] = [];
    const trustedRoots: string[] = [];
    let rpcUrl: string | null = null;
    let isJson = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (a === '--trust') trusted.push((args[++i] ?? '').toLowerCase());
      else if (a === '--trust-root') trustedRoots.push((args[++i] ?? '').toLowerCase());
      else if (a === '--rpc') rpcUrl = args[++i] ?? '';
      else if (a === '--json') isJson = true;
      else positional.push(a);
    }
    const [original, proof] = positional;
    if (!original || !proof || positional.length !== 2 || [...trusted, ...trustedRoots].some((k) => !/^[0-9a-f]{64}$/.test(k)) || (rpcUrl !== null && !/^https?:\/\//.test(rpcUrl))) {
      process.stderr.write(`usage: provena ${this.usage}\n  --trust <key id>  accept this platform key (64 hex; repeatable)\n  --trust-root <fp> accept keys certified by this platform root (SHA-256 of its DER, 64 hex; repeatable)\n  --rpc <url>       check the anchor against this node of its chain (JSON-RPC over http/https)\n  --json            print the verdict as JSON\n`);
      return 2;
    }
    let digest: string;
    let pdf: Uint8Array;
    try {
      digest = await sha256File(original);
      pdf = new Uint8Array(fs.readFileSync(proof));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      process.stderr.write(`provena verify: cannot read ${e.path ?? ''}: ${e.code === 'ENOENT' ? 'no such file' : e.message}\n`);
      return 2;
    }
    const verdict = await verifyCertificate(pdf, extractPackageNode, { fileSha256: digest, now: Date.now(), trustedKeyIds: trusted.length ? trusted : undefined, trustedRootFingerprints: trustedRoots.length ? trustedRoots : undefined, ...(rpcUrl ? { anchorRpc: jsonRpc(rpcUrl), isAnchorRequired: true } : {}) });
    if (isJson) {
      process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
    } else {
      for (const c of verdict.checks) {
        const mark = c.isSkipped ? '-' : c.isOk ? '✓' : '✗';
        const why = c.message ? ` — ${MESSAGES[c.message] ?? c.message} (${c.message})` : '';
        process.stdout.write(`${mark} ${LABELS[c.id].padEnd(26)} ${c.detail}${why}\n`);
      }
      if (verdict.isValid && verdict.summary) {
        const s = verdict.summary;
        process.stdout.write(
          `\nVALID\n  file_hash        ${s.file_hash}\n  asset_dna        ${s.asset_dna}\n  registered_at    ${new Date(s.registered_at).toISOString()}\n  block_address    #${s.block_address.height} ${s.block_address.hash}\n  enterprise_name  ${s.enterprise_name}\n  expired_at       ${new Date(s.expired_at).toISOString()}\n`,
        );
      }
    }
    if (!verdict.isValid) {
      const key = verdict.message as ErrorKey;
      process.stderr.write(`provena verify: FAILED at check "${verdict.failedCheck}": ${MESSAGES[key] ?? key} (${key})\n`);
      return 1;
    }
    return 0;
  },
};
