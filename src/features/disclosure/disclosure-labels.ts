import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { DisclosureEvent } from '../../../core/disclosure.ts';

/** Route titles, the sidebar label and the enumerations of the disclosure area (kept here so they land in its catalog). */
export const DISCLOSURE_LABELS = {
  sidebar: msg`File disclosure`,
  list: msg`File disclosure`,
  detail: msg`Disclosure details`,
  receipt: msg`Receive a file`,
};

export const STATUS_LABELS: Record<number, MessageDescriptor> = {
  1: msg`Sent, waiting for the receiver`,
  2: msg`Receiver identity verified`,
  3: msg`Agreement accepted`,
  4: msg`Downloaded`,
  5: msg`Expired`,
  6: msg`Revoked`,
};

export const STATUS_COLORS: Record<number, string> = { 1: 'blue', 2: 'cyan', 3: 'indigo', 4: 'teal', 5: 'gray', 6: 'red' };

export const EVENT_LABELS: Record<DisclosureEvent, MessageDescriptor> = {
  sent: msg`Sent to the receiver by SMS`,
  identity_verified: msg`Receiver verified the phone number`,
  agreement_accepted: msg`Receiver accepted the confidentiality agreement`,
  downloaded: msg`Receiver downloaded the file (receipt recorded on the ledger)`,
  expired: msg`Link expired`,
  revoked: msg`Revoked by the sender`,
};

/** §3 asset types, numbered 1–8 in the order the spec lists them. */
export const ASSET_TYPE_LABELS: Record<number, MessageDescriptor> = {
  1: msg`Creative work`,
  2: msg`Creative design`,
  3: msg`Industrial design`,
  4: msg`Code`,
  5: msg`Research`,
  6: msg`Data`,
  7: msg`Digitally signed file`,
  8: msg`Other`,
};
