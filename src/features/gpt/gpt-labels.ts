import { msg } from '@lingui/core/macro';

/** Route titles and the sidebar label, kept here so that they land in the assistant's catalog. */
export const GPT_LABELS = {
  // Its own entry: the sidebar is narrow, and the Japanese title would wrap there.
  sidebar: msg({ message: 'Chat assistant', context: 'sidebar' }),
  list: msg`Conversations`,
  detail: msg`Chat assistant`,
};
