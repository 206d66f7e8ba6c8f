import { msg } from '@lingui/core/macro';

/** Route titles of the map area (kept here so they land in the map catalog). */
export const MAP_TITLES = {
  assets: msg`Digital asset map`,
  activate: msg`Light up an enterprise`,
  score: msg`Enterprise digital assets`,
  bigscreen: msg`Digital asset network`,
};
