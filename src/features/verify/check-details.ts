import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ErrorKey } from '../../../core/errors.ts';
import type { Check } from '../../../core/ledger/package.ts';

const short = (value: string | number | undefined) => {
  const text = String(value ?? '');
  return text.length > 20 ? `${text.slice(0, 16)}…` : text;
};

/**
 * A check's detail line in the reader's language, from its facts (the core's `detail` is the
 * CLI's English line). A check without facts for its outcome gets the sentence that says
 * what the outcome means.
 */
export function checkDetail(check: Check, i18n: I18n): string {
  const f = check.facts ?? {};
  const when = (ms: string | number | undefined) => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long', timeStyle: 'short' }).format(Number(ms));
  if (check.isSkipped) {
    if (check.id === 'anchor') return i18n._(msg`Not checked here: the anchor is checked against a node of its chain (provena verify --rpc, or the platform's verify API).`);
    if (check.id === 'checkpoint') return i18n._(msg`This proof was issued before checkpoints existed.`);
    if (check.id === 'platform_certificate') return i18n._(msg`This proof was issued before certificate chains existed: its key is judged by its id.`);
    if (check.id === 'page_signature') return i18n._(msg`This certificate was issued before certificate pages were signed: the proof inside it is verified, the text printed on the page is not. Regenerate it on the asset's page for a signed copy.`);
    return i18n._(msg`Not applicable to this proof.`);
  }
  switch (check.id) {
    case 'pdf':
      return check.isOk ? i18n._(msg`PDF read (${i18n.number(Number(f.bytes ?? 0))} bytes).`) : i18n._(msg`The file is not a readable PDF.`);
    case 'page_signature':
      if (check.isOk) return i18n._(msg`Signed by ${String(f.signer ?? '')}, time-stamped ${when(f.at)}; nothing was changed or added after signing.`);
      if (f.reason === 'unsigned') return i18n._(msg`This PDF is not signed by the platform: it was issued before certificates were signed, or its signature was removed.`);
      if (f.reason === 'other_root') return i18n._(msg`The page is signed by another platform than the one that issued the proof inside it.`);
      return i18n._(msg`The PDF was changed after the platform signed it (an edited page, or something appended): the page you see is not the one the platform issued.`);
    case 'package_present':
      return check.isOk ? i18n._(msg`The certificate carries its machine-readable proof package.`) : i18n._(msg`The PDF has no proof package: it is not a certificate issued by the platform, or it was re-saved by another program.`);
    case 'package_format':
      return check.isOk ? i18n._(msg`Proof package format provena-proof.`) : i18n._(msg`The proof package is damaged or of an unknown format.`);
    case 'platform_certificate':
      if (check.isUntrusted) return i18n._(msg`Signed under root ${short(f.root)}, which is not this platform's root.`);
      return check.isOk ? i18n._(msg`Signed under this platform's root ${short(f.root)}.`) : i18n._(msg`The certificate chain of the signing key is not valid.`);
    case 'platform_key':
      if (check.isUntrusted) return i18n._(msg`The signing key is not one of this platform's.`);
      return check.isOk ? i18n._(msg`The platform's signing key is known.`) : i18n._(msg`The signing key in the proof cannot be read.`);
    case 'file_hash':
      return check.isOk
        ? i18n._(msg`The original's SHA-256 fingerprint is ${short(f.claimed)}, as registered.`)
        : i18n._(msg`The chosen file's fingerprint is ${short(f.actual)}; the proof is for ${short(f.claimed)}.`);
    case 'commitment':
      return check.isOk ? i18n._(msg`The registered record commits to this file's fingerprint.`) : i18n._(msg`The registered record does not commit to this file.`);
    case 'asset_dna':
      return check.isOk ? i18n._(msg`Asset DNA ${String(f.dna ?? '')}.`) : i18n._(msg`The asset DNA does not match the registered record.`);
    case 'inclusion':
      return check.isOk
        ? i18n._(msg`Entry ${Number(f.leaf ?? 0) + 1} of ${i18n.number(Number(f.size ?? 0))} in the log, proven by ${f.hashes ?? 0} hashes.`)
        : i18n._(msg`The audit path does not lead to the block's root: the entry is not proven to be in the log.`);
    case 'block_hash':
      return check.isOk ? i18n._(msg`Block #${String(f.height ?? '')}, hash ${short(f.hash)}.`) : i18n._(msg`The block header does not match its hash.`);
    case 'block_signature':
      return check.isOk ? i18n._(msg`The block is signed by the platform's key.`) : i18n._(msg`The block's signature does not verify.`);
    case 'statement_signature':
      return check.isOk ? i18n._(msg`The issue and expiry dates are signed by the platform.`) : i18n._(msg`The certificate's dates are not signed by the platform.`);
    case 'checkpoint':
      return check.isOk
        ? i18n._(msg`The platform's signed checkpoint (${i18n.number(Number(f.size ?? 0))} entries) contains block #${String(f.height ?? '')}.`)
        : i18n._(msg`The log checkpoint in the proof is not valid.`);
    case 'anchor':
      return check.isOk ? i18n._(msg`A public chain transaction from the platform's anchoring address carries this proof's checkpoint.`) : i18n._(msg`The public chain anchor does not confirm this proof.`);
    case 'expiry':
      return check.isOk ? i18n._(msg`Valid until ${when(f.at)}.`) : i18n._(msg`Expired on ${when(f.at)}.`);
    case 'platform_ledger':
      return check.isOk ? i18n._(msg`The block and the entry are in this platform's ledger.`) : i18n._(msg`This platform's ledger does not hold this block or entry.`);
    default:
      return check.isOk ? i18n._(msg`Passed.`) : i18n._(msg`Failed.`);
  }
}

/** What to do when a check fails, by its §8 key: the next step, not only the verdict. */
const NEXT_STEPS: Partial<Record<ErrorKey, MessageDescriptor>> = {
  hash_mismatch: msg`Choose the original file that was registered: a copy changed in any way, even re-saved or renamed inside an archive, has another fingerprint. The certificate names the registered file.`,
  verify_file_not_found: msg`Choose the original file that was registered: a copy changed in any way has another fingerprint.`,
  expiration_time_verification_failed: msg`The registration itself does not expire. Ask the registrant to regenerate the certificate on the asset's page, then verify the new PDF.`,
  proof_signer_untrusted: msg`The proof is intact but was signed by a platform this page does not trust. Verify it at the platform that issued it, or pin that platform's root with provena trust add if you trust it.`,
  no_proof_package: msg`Choose the PDF certificate as downloaded from the platform: a printout, a scan or a copy re-saved by another program loses the embedded proof.`,
  gzip_invalid_header: msg`The proof inside the PDF is damaged. Download the certificate again from the platform.`,
  parse_pdf_failed: msg`Choose the PDF certificate as downloaded from the platform.`,
  file_hashes_inconsistent: msg`The certificate was altered after it was issued. Do not rely on it: download it again from the platform, or ask the registrant for it.`,
  page_signature_invalid: msg`Do not rely on what the page shows. Download the certificate again from the platform; a certificate issued before pages were signed can be regenerated on the asset's page.`,
  checkpoint_invalid: msg`The certificate's log checkpoint was altered or comes from another log. Download the certificate again from the platform.`,
  proof_not_in_ledger: msg`This platform has no record of the proof: it was issued elsewhere, or forged. Do not rely on it.`,
  anchor_not_found: msg`The public chain does not show the anchor the proof names. Ask the platform; keep both files.`,
  anchor_sender_unknown: msg`The anchor was not sent by the platform. Do not rely on the anchor; the other checks stand on their own.`,
  anchor_data_mismatch: msg`The anchor does not carry this proof's checkpoint. Ask the platform; keep both files.`,
  anchor_time_invalid: msg`The anchor's time does not fit the registration. Ask the platform; keep both files.`,
};

export function nextStep(check: Check, i18n: I18n): string | null {
  if (check.isOk || check.isSkipped || !check.message) return null;
  const step = NEXT_STEPS[check.message];
  return step ? i18n._(step) : null;
}
