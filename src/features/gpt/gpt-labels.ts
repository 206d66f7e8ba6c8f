import { msg } from '@lingui/core/macro';

/** Route titles and the sidebar label, kept here so that they land in the assistant's catalog. */
export const GPT_LABELS = {
  sidebar: msg`Chat assistant`,
  list: msg`Conversations`,
  detail: msg`Chat assistant`,
};
