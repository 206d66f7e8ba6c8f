import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CreditKind, OrderStatus } from '../../../core/credits.ts';

/** Route titles, the sidebar label and the operator console's tab, kept here so they land in the credit catalog. */
export const CREDIT_LABELS = {
  sidebar: msg`Credits`,
  page: msg`Credits`,
  operatorTab: msg`Top-up orders`,
};

export const KIND_LABELS: Record<CreditKind, MessageDescriptor> = {
  top_up: msg`Top-up`,
  allocate: msg`Member top-up`,
  reclaim: msg`Taken back`,
  asset_registration: msg`Asset registration`,
  vault_file_registration: msg`Vault file registration`,
  commit_registration: msg`Source-code commit registration`,
  application_file_registration: msg`Application file registration`,
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, MessageDescriptor> = {
  1: msg`Awaiting confirmation`,
  2: msg`Confirmed`,
  3: msg`Rejected`,
  4: msg`Cancelled`,
};

export const ORDER_STATUS_COLORS: Record<OrderStatus, string> = { 1: 'orange', 2: 'green', 3: 'red', 4: 'gray' };
