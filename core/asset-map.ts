/**
 * §9 constants of the asset map and the score playback, and the pure rules behind them
 * (§4 asset map polling, score windows, node radius), shared by the map, the bigscreen
 * and the score page.
 */

/** Two clicks on one node within this long are a double-click. */
export const MAP_DOUBLE_CLICK_MS = 500;
/** latest-activate is polled this often. */
export const MAP_ACTIVATION_POLL_MS = 2000;
/** An activation this recent is still news: the map focuses it. */
export const MAP_RECENT_ACTIVATION_MS = 30_000;
/** A newly activated node lights up this long after the camera starts flying to it. */
export const MAP_LIGHT_UP_DELAY_MS = 2000;

/** Score windows in weekly points; null = all. */
export const SCORE_RANGES = { halfYear: 26, twoYears: 104, all: null } as const;
export type ScoreRange = keyof typeof SCORE_RANGES;
/** Charts show at most this many points of a window. */
export const SCORE_MAX_POINTS = 50;
/** Graph (and community) snapshots fetched per window. */
export const SCORE_GRAPH_SNAPSHOTS = 30;

/** Node radius on the score graph: by weight, up to 40 for repositories and 15 for developers, never under 5. */
export const NODE_RADIUS = { repoMax: 40, developerMax: 15, min: 5 } as const;

export function nodeRadius(category: 'repo' | 'developer', weight: number, maxWeight: number): number {
  const max = category === 'repo' ? NODE_RADIUS.repoMax : NODE_RADIUS.developerMax;
  if (!(maxWeight > 0) || !(weight > 0)) return NODE_RADIUS.min;
  // Area, not radius, follows the weight, so a node twice as active does not look four times as big.
  return NODE_RADIUS.min + (max - NODE_RADIUS.min) * Math.sqrt(Math.min(1, weight / maxWeight));
}

/** The last `window` items (all when null). */
export function lastWindow<T>(items: readonly T[], window: number | null): T[] {
  return window === null ? items.slice() : items.slice(Math.max(0, items.length - window));
}

/**
 * Picks at most `max` items evenly across the list, always keeping the first and the
 * last (the newest week must be on the chart).
 */
export function downsample<T>(items: readonly T[], max = SCORE_MAX_POINTS): T[] {
  if (items.length <= max) return items.slice();
  if (max <= 1) return items.slice(-1);
  const out: T[] = [];
  for (let k = 0; k < max; k++) out.push(items[Math.round((k * (items.length - 1)) / (max - 1))]);
  return out;
}

export type LatestActivation = { id: number; updated_at: number };
export type ActivationDecision = { action: 'none' } | { action: 'focus' } | { action: 'focus-then-light' };

/**
 * §4 asset map polling: what the map does with a latest-activate answer.
 * - id 0 (none yet) or the activation already handled: nothing.
 * - a node the map still shows as not activated: focus it, light it after 2 s.
 * - a node already activated whose activation is at most 30 s old: focus it.
 */
export function decideActivation(latest: LatestActivation, handled: LatestActivation | null, isShownActivated: boolean | null, now: number): ActivationDecision {
  if (!latest.id) return { action: 'none' };
  if (handled && handled.id === latest.id && handled.updated_at === latest.updated_at) return { action: 'none' };
  if (isShownActivated === null) return { action: 'none' };
  if (!isShownActivated) return { action: 'focus-then-light' };
  return now - latest.updated_at <= MAP_RECENT_ACTIVATION_MS ? { action: 'focus' } : { action: 'none' };
}

/** Enterprises whose name contains the text (case-insensitive, trimmed); best match first: exact, then prefix, then shorter names. */
export function searchEnterprises(names: readonly string[], text: string, limit = 10): number[] {
  const needle = text.trim().toLocaleLowerCase();
  if (!needle) return [];
  const hits: Array<{ index: number; rank: number }> = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i].toLocaleLowerCase();
    const at = name.indexOf(needle);
    if (at < 0) continue;
    hits.push({ index: i, rank: name === needle ? 0 : at === 0 ? 1 : 2 });
  }
  hits.sort((a, b) => a.rank - b.rank || names[a.index].length - names[b.index].length || a.index - b.index);
  return hits.slice(0, limit).map((h) => h.index);
}
