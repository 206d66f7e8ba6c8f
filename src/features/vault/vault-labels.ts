import { msg } from '@lingui/core/macro';

/** Route titles and the sidebar label of the vault, kept here so they land in the vault catalog. */
export const VAULT_LABELS = {
  sidebar: msg`Vault`,
  vault: msg`Trade-secret vault`,
  unlock: msg`Unlock the vault`,
  project: msg`Vault project`,
  log: msg`Vault log`,
};
