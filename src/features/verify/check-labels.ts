import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CheckId } from '../../../core/ledger/package.ts';

/** What each proof check establishes, in the reader's language. */
export const CHECK_LABELS: Record<CheckId, MessageDescriptor> = {
  pdf: msg`The PDF can be read`,
  page_signature: msg`The page is the one the platform signed (whole file, time-stamped)`,
  package_present: msg`The PDF carries a proof package`,
  package_format: msg`The proof package format is valid`,
  platform_certificate: msg`The platform's root certificate certifies the signing key`,
  platform_key: msg`The platform key is known`,
  file_hash: msg`The original matches the proof`,
  commitment: msg`The salted commitment opens to the file hash`,
  asset_dna: msg`The asset DNA matches the record`,
  inclusion: msg`The audit path leads to the block root`,
  block_hash: msg`The block hash matches the header`,
  block_signature: msg`The block is signed by the platform`,
  statement_signature: msg`The certificate (issue and expiry) is signed by the platform`,
  checkpoint: msg`The log checkpoint is signed by the platform and contains the block`,
  anchor: msg`Public chain anchor`,
  expiry: msg`The certificate has not expired`,
  platform_ledger: msg`The entry is in this platform's ledger`,
};
