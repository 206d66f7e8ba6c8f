import { msg } from '@lingui/core/macro';

/** Route titles of the search screens, kept here so that they land in the home/search catalog. */
export const SEARCH_LABELS = {
  empty: msg`No search results`,
};
