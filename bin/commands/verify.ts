import fs from 'node:fs';
import { sha256File } from './sha256-file.ts';
import type { CheckId, Verdict } from '../../core/ledger/package.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { envTrustedRoots, readTrustedRoots, trustFile } from '../trust-store.ts';

/** §8 texts for the proof keys, in English (the browser localizes the same keys). */
const MESSAGES: Partial<Record<ErrorKey, string>> = {
  verify_file_not_found: 'original and proof file do not match',
  hash_mismatch: 'original and proof file do not match',
  no_proof_package: 'proof file missing or invalid',
  gzip_invalid_header: 'proof file format wrong',
  parse_pdf_failed: 'certificate parse error',
  file_hashes_inconsistent: 'proof verification failed',
  expiration_time_verification_failed: 'the digital property proof file has expired, regenerate it',
  page_signature_invalid: 'the certificate page was changed after the platform signed it, or is not signed',
  checkpoint_invalid: 'the log checkpoint in the proof is not signed by the platform or does not contain this block',
  anchor_not_found: 'the anchor transaction is not on the chain as the proof says',
  anchor_sender_unknown: "the anchor was not sent from the platform's anchoring address",
  anchor_data_mismatch: "the anchor transaction does not carry the proof's checkpoint",
  anchor_time_invalid: 'the anchor is dated before the block was sealed',
  proof_signer_untrusted: 'issued by a platform you do not trust',
};

const LABELS: Record<CheckId, string> = {
  pdf: 'PDF readable',
  page_signature: 'page signature (PAdES, whole file, time-stamped)',
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
  platform_ledger: "in the platform's ledger",
};

/** Exit codes: the contract CI pipelines read. */
export const EXIT = { valid: 0, failed: 1, usage: 2, untrusted: 3 } as const;

const HELP = `  --trust <key id>  accept this platform key (64 hex; repeatable)
  --trust-root <fp> accept keys certified by this platform root (SHA-256 of its DER, 64 hex; repeatable)
  --rpc <url>       check the anchor against this node of its chain (JSON-RPC over http/https)
  --json            print the verdict as JSON (snake_case, as the verify API)
Trusted roots: --trust-root, PROVENA_TRUST_ROOTS (comma-separated fingerprints) and those pinned
with \`provena trust add <platform URL>\`. With none of these, no proof is valid.
Exit codes:
  0  valid, and signed under a trusted root or key
  1  a check failed (named)
  2  usage error or unreadable input
  3  every check passed but the signer is not trusted (pin its platform's root)
`;

/** The verdict as JSON, with the verify API's field names. */
function verdictJson(v: Verdict) {
  return {
    valid: v.isValid,
    untrusted: v.isUntrusted ?? false,
    message: v.message ?? null,
    failed_check: v.failedCheck ?? null,
    signer: v.signer ?? null,
    checks: v.checks.map((c) => ({ id: c.id, ok: c.isOk, skipped: c.isSkipped ?? false, untrusted: c.isUntrusted ?? false, message: c.message ?? null, detail: c.detail })),
    summary: v.summary ?? null,
  };
}

export type VerifyFlags = { positional: string[]; trusted: string[]; trustedRoots: string[]; rpcUrl: string | null; isJson: boolean; isHelp: boolean };

/** The options `verify` and `verify-commit` share. */
export function parseVerifyArgs(args: string[]): VerifyFlags {
  const flags: VerifyFlags = { positional: [], trusted: [], trustedRoots: [], rpcUrl: null, isJson: false, isHelp: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--trust') flags.trusted.push((args[++i] ?? '').toLowerCase());
    else if (a === '--trust-root') flags.trustedRoots.push((args[++i] ?? '').toLowerCase());
    else if (a === '--rpc') flags.rpcUrl = args[++i] ?? '';
    else if (a === '--json') flags.isJson = true;
    else if (a === '--help' || a === '-h') flags.isHelp = true;
    else flags.positional.push(a);
  }
  return flags;
}

export function areFlagsValid(flags: VerifyFlags): boolean {
  return ![...flags.trusted, ...flags.trustedRoots].some((k) => !/^[0-9a-f]{64}$/.test(k)) && (flags.rpcUrl === null || /^https?:\/\//.test(flags.rpcUrl));
}

/** The roots verify trusts: --trust-root, PROVENA_TRUST_ROOTS and the pinned ones; null (reported) when unreadable. */
export function trustedRootsFor(command: string, flags: VerifyFlags): string[] | null {
  const fromEnv = envTrustedRoots();
  if (fromEnv.bad.length) {
    process.stderr.write(`provena ${command}: PROVENA_TRUST_ROOTS: not a 64-hex fingerprint: ${fromEnv.bad.join(', ')}\n`);
    return null;
  }
  let pinned: string[];
  try {
    pinned = readTrustedRoots().map((r) => r.fingerprint);
  } catch (error) {
    process.stderr.write(`provena ${command}: cannot read ${trustFile()}: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  }
  return [...new Set([...flags.trustedRoots, ...fromEnv.roots, ...pinned])];
}

/** Runs every check of a proof PDF against the original's SHA-256, prints them and answers the exit code. */
export async function verifyAndReport(command: string, pdf: Uint8Array, digest: string, flags: VerifyFlags, roots: string[]): Promise<number> {
  // Loaded when a proof is checked: pdf.js and the ledger checks are most of the CLI's start-up,
  // which every other command (a CI `repo push` above all) would otherwise pay for.
  const [{ verifyCertificate }, { jsonRpc }, { extractPackageNode }] = await Promise.all([import('../../core/ledger/package.ts'), import('../../core/ledger/anchor-check.ts'), import('../../server/proofs/extract.ts')]);
  const verdict = await verifyCertificate(pdf, extractPackageNode, { fileSha256: digest, now: Date.now(), trustedKeyIds: flags.trusted.length ? flags.trusted : undefined, trustedRootFingerprints: roots, ...(flags.rpcUrl ? { anchorRpc: jsonRpc(flags.rpcUrl), isAnchorRequired: true } : {}) });
  if (flags.isJson) {
    process.stdout.write(`${JSON.stringify(verdictJson(verdict), null, 2)}\n`);
  } else {
    for (const c of verdict.checks) {
      const mark = c.isSkipped ? '-' : c.isOk ? '✓' : c.isUntrusted ? '?' : '✗';
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
  if (verdict.isUntrusted) {
    const s = verdict.signer;
    const how = s?.root_fingerprint
      ? `pin the root of the platform that issued it, after checking it is the one you mean:\n  provena trust add <platform URL>     (fetches and pins its roots)\n  --trust-root ${s.root_fingerprint}   (or PROVENA_TRUST_ROOTS=${s.root_fingerprint})`
      : `this proof has no certificate chain; pin its key after checking it with the platform:\n  --trust ${s?.key_id ?? '<key id>'}`;
    process.stderr.write(`provena ${command}: UNTRUSTED: every check passed, but the signer is not trusted (${roots.length ? `${roots.length} root(s) trusted, none of them this one` : 'no platform root is trusted'}).\n${how}\n`);
    return EXIT.untrusted;
  }
  if (!verdict.isValid) {
    const key = verdict.message as ErrorKey;
    process.stderr.write(`provena ${command}: FAILED at check "${verdict.failedCheck}": ${MESSAGES[key] ?? key} (${key})\n`);
    return EXIT.failed;
  }
  return EXIT.valid;
}

export const VERIFY_HELP = HELP;

/** `provena verify <original> <proof.pdf>`: every check offline; the exit codes are in HELP. */
export const verifyCommand = {
  summary: 'check an original file against its PDF proof, offline',
  usage: 'verify <original> <proof.pdf> [--trust <key id>]… [--trust-root <fingerprint>]… [--rpc <url>] [--json]',
  help: HELP,
  async run(args: string[]): Promise<number> {
    const flags = parseVerifyArgs(args);
    if (flags.isHelp) {
      process.stdout.write(`usage: provena ${this.usage}\n${HELP}`);
      return EXIT.valid;
    }
    const roots = trustedRootsFor('verify', flags);
    if (!roots) return EXIT.usage;
    const [original, proof] = flags.positional;
    if (!original || !proof || flags.positional.length !== 2 || !areFlagsValid(flags)) {
      process.stderr.write(`usage: provena ${this.usage}\n${HELP}`);
      return EXIT.usage;
    }
    let digest: string;
    let pdf: Uint8Array;
    try {
      digest = await sha256File(original);
      pdf = new Uint8Array(fs.readFileSync(proof));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      process.stderr.write(`provena verify: cannot read ${e.path ?? ''}: ${e.code === 'ENOENT' ? 'no such file' : e.message}\n`);
      return EXIT.usage;
    }
    return verifyAndReport('verify', pdf, digest, flags, roots);
  },
};
