/** Weeks of the score: Monday 00:00 UTC, numbered from the Monday 1970-01-05. */
export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const FIRST_MONDAY_MS = 4 * 24 * 60 * 60 * 1000; // 1970-01-05T00:00Z

/** Week number of an instant (ms). */
export function weekOf(ms: number): number {
  return Math.floor((ms - FIRST_MONDAY_MS) / WEEK_MS);
}

/** Start (ms) of week number w. */
export function weekStart(w: number): number {
  return FIRST_MONDAY_MS + w * WEEK_MS;
}

/** §3: a time above 9999999999 is in milliseconds, otherwise in seconds. */
export function toMs(t: number): number {
  return t > 9_999_999_999 ? t : t * 1000;
}
