import type { Bridge, GraphLink, GraphNode, GraphSnapshot, ScorePoint, StructuralHole, TimelineEntry, CommunitySnapshot } from '../score-api.ts';
import { bipartiteDensity, bridges, buildGraph, constraint, degreeCentralization, type Graph } from './graph.ts';
import { louvain, matchCommunities, type IdentifiedCommunity } from './communities.ts';
import { weekStart } from './weeks.ts';

/**
 * The weekly enterprise score (docs/score.md): from an enterprise's repositories,
 * developers, contributions and registered assets, the §3 score points and, per week,
 * the repository/developer graph with constraint, communities, structural holes and
 * bridges. Pure: the server feeds it from the database, the bench from memory.
 */

/** Weekly depreciation of capital (perpetual inventory): half-life ≈ 34 weeks. */
export const CAPITAL_RETENTION = 0.98;
/** A registered asset counts as this many commits of work in flow and capital. */
export const ASSET_WEIGHT = 10;
/** The graph of week w holds the contributions of weeks w−12 … w (a quarter). */
export const GRAPH_WINDOW_WEEKS = 13;
/** Structural holes: nodes with ≥ 2 ties and constraint ≤ this, the lowest first, at most HOLES_PER_WEEK. */
export const HOLE_MAX_CONSTRAINT = 0.5;
export const HOLES_PER_WEEK = 20;
/** Bridges: cut edges that cut off ≥ 2 nodes (leaf edges are trivial), the largest cuts first. */
export const BRIDGES_PER_WEEK = 20;

export type HistoryRepo = { id: number; name: string; createdWeek: number };
export type HistoryDeveloper = { id: number; name: string };
/** A developer's work on a repository over weeks fromWeek…toWeek (inclusive), spread evenly. */
export type HistoryContribution = { repo: number; developer: number; fromWeek: number; toWeek: number; commits: number };

/** Everything the score of one enterprise is computed from. `repo`/`developer` index the arrays. */
export type EnterpriseHistory = {
  repos: HistoryRepo[];
  developers: HistoryDeveloper[];
  contributions: HistoryContribution[];
  /** Week numbers of registered assets (one entry per asset). */
  assetWeeks: number[];
};

/** First week with any data, or null for an enterprise with no history. */
export function firstWeek(h: EnterpriseHistory): number | null {
  let first = Number.POSITIVE_INFINITY;
  for (const r of h.repos) first = Math.min(first, r.createdWeek);
  for (const c of h.contributions) first = Math.min(first, c.fromWeek);
  for (const a of h.assetWeeks) first = Math.min(first, a);
  return Number.isFinite(first) ? first : null;
}

type WeekGraph = { graph: Graph; nodeRepo: Int32Array; nodeDeveloper: Int32Array; repoCount: number };

/** The window graph of week w: repos and developers with work in weeks w−12…w, edges weighted by commits there. */
function windowGraph(h: EnterpriseHistory, w: number, repoNode: Int32Array, devNode: Int32Array): WeekGraph {
  const from = w - GRAPH_WINDOW_WEEKS + 1;
  const src: number[] = [];
  const dst: number[] = [];
  const wt: number[] = [];
  const nodeRepo: number[] = [];
  const nodeDeveloper: number[] = [];
  const touchedRepos: number[] = [];
  const touchedDevs: number[] = [];
  for (const c of h.contributions) {
    if (c.fromWeek > w || c.toWeek < from) continue;
    const span = c.toWeek - c.fromWeek + 1;
    const overlap = Math.min(c.toWeek, w) - Math.max(c.fromWeek, from) + 1;
    if (repoNode[c.repo] === -1) {
      repoNode[c.repo] = -2;
      touchedRepos.push(c.repo);
    }
    if (devNode[c.developer] === -1) {
      devNode[c.developer] = -2;
      touchedDevs.push(c.developer);
    }
    src.push(c.repo);
    dst.push(c.developer);
    wt.push((c.commits * overlap) / span);
  }
  // Repos first (nodes 0…R−1), then developers, each in index order: stable numbering.
  touchedRepos.sort((a, b) => a - b);
  touchedDevs.sort((a, b) => a - b);
  for (const r of touchedRepos) {
    repoNode[r] = nodeRepo.length;
    nodeRepo.push(r);
    nodeDeveloper.push(-1);
  }
  for (const d of touchedDevs) {
    devNode[d] = nodeRepo.length;
    nodeRepo.push(-1);
    nodeDeveloper.push(d);
  }
  for (let k = 0; k < src.length; k++) {
    src[k] = repoNode[src[k]];
    dst[k] = devNode[dst[k]];
  }
  const graph = buildGraph(nodeRepo.length, src, dst, wt);
  for (const r of touchedRepos) repoNode[r] = -1;
  for (const d of touchedDevs) devNode[d] = -1;
  return { graph, nodeRepo: Int32Array.from(nodeRepo), nodeDeveloper: Int32Array.from(nodeDeveloper), repoCount: touchedRepos.length };
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/**
 * Score points for weeks fromWeek…toWeek. `previousCapital` is the capital of week
 * fromWeek−1 (0 when the series starts), so a stored series is extended week by week
 * without recomputing its past.
 */
export function scorePoints(h: EnterpriseHistory, fromWeek: number, toWeek: number, previousCapital = 0): ScorePoint[] {
  const points: ScorePoint[] = [];
  const repoNode = new Int32Array(h.repos.length).fill(-1);
  const devNode = new Int32Array(h.developers.length).fill(-1);
  const assets = [...h.assetWeeks].sort((a, b) => a - b);
  const repoWeeks = h.repos.map((r) => r.createdWeek).sort((a, b) => a - b);
  let assetAt = 0;
  let repoAt = 0;
  let capital = previousCapital;
  // Registrations and repositories before the first week count into the stock.
  while (assetAt < assets.length && assets[assetAt] < fromWeek) assetAt++;
  while (repoAt < repoWeeks.length && repoWeeks[repoAt] < fromWeek) repoAt++;
  for (let w = fromWeek; w <= toWeek; w++) {
    let registrations = 0;
    while (assetAt < assets.length && assets[assetAt] <= w) {
      assetAt++;
      registrations++;
    }
    while (repoAt < repoWeeks.length && repoWeeks[repoAt] <= w) repoAt++;
    let commits = 0;
    for (const c of h.contributions) if (c.fromWeek <= w && c.toWeek >= w) commits += c.commits / (c.toWeek - c.fromWeek + 1);
    const flow = commits + ASSET_WEIGHT * registrations;
    // Kept to 2 decimals week by week, so extending a stored series gives exactly what a full run gives.
    capital = round(CAPITAL_RETENTION * capital + flow, 2);
    const { graph, repoCount } = windowGraph(h, w, repoNode, devNode);
    points.push({
      timestamp: weekStart(w),
      capital,
      amount: assetAt + repoAt,
      flow: round(flow, 2),
      density: round(bipartiteDensity(repoCount, graph.n - repoCount, graph.m), 4),
      centralization: round(degreeCentralization(graph), 4),
    });
  }
  return points;
}

export type WeekAnalysis = {
  snapshot: GraphSnapshot;
  communities: CommunitySnapshot;
  holes: StructuralHole[];
  bridges: Bridge[];
  timeline: TimelineEntry;
};

/**
 * The per-week network analysis for weeks fromWeek…toWeek, in order (community ids
 * are matched week to week, so the range is always analysed from its start).
 */
export function analyzeWeeks(h: EnterpriseHistory, fromWeek: number, toWeek: number): WeekAnalysis[] {
  return Array.from(eachWeekAnalysis(h, fromWeek, toWeek));
}

/** analyzeWeeks one week at a time, so a server can yield to other work between weeks. */
export function* eachWeekAnalysis(h: EnterpriseHistory, fromWeek: number, toWeek: number): Generator<WeekAnalysis> {
  const repoNode = new Int32Array(h.repos.length).fill(-1);
  const devNode = new Int32Array(h.developers.length).fill(-1);
  let previous: IdentifiedCommunity[] = [];
  let nextId = 1;
  for (let w = fromWeek; w <= toWeek; w++) {
    const timestamp = weekStart(w);
    const { graph: g, nodeRepo, nodeDeveloper } = windowGraph(h, w, repoNode, devNode);
    const ids: string[] = new Array(g.n);
    const names: string[] = new Array(g.n);
    const categories: ('repo' | 'developer')[] = new Array(g.n);
    for (let i = 0; i < g.n; i++) {
      if (nodeRepo[i] >= 0) {
        const r = h.repos[nodeRepo[i]];
        ids[i] = `r${r.id}`;
        names[i] = r.name;
        categories[i] = 'repo';
      } else {
        const d = h.developers[nodeDeveloper[i]];
        ids[i] = `d${d.id}`;
        names[i] = d.name;
        categories[i] = 'developer';
      }
    }
    const c = constraint(g);
    const nodes: GraphNode[] = new Array(g.n);
    for (let i = 0; i < g.n; i++) {
      nodes[i] = { id: ids[i], category: categories[i], name: names[i], weight: round(g.strength[i], 2), constraint: Number.isNaN(c[i]) ? 1 : round(c[i], 4) };
    }
    const links: GraphLink[] = new Array(g.m);
    for (let e = 0; e < g.m; e++) links[e] = { source: ids[g.eu[e]], target: ids[g.ev[e]], weight: round(g.ew[e], 2) };

    const { community, count, modularity: q } = louvain(g);
    const groups: string[][] = Array.from({ length: count }, () => []);
    for (let i = 0; i < g.n; i++) groups[community[i]].push(ids[i]);
    groups.sort((a, b) => b.length - a.length || (a[0] < b[0] ? -1 : 1));
    const matched = matchCommunities(previous, groups, nextId);
    nextId = matched.nextId;
    previous = groups.map((members, k) => ({ id: matched.ids[k], members }));

    const holes: StructuralHole[] = [];
    for (let i = 0; i < g.n; i++) {
      const deg = g.offset[i + 1] - g.offset[i];
      if (deg >= 2 && c[i] <= HOLE_MAX_CONSTRAINT) holes.push({ id: ids[i], timestamp, name: names[i], category: categories[i], constraint: round(c[i], 4), degree: deg });
    }
    holes.sort((a, b) => a.constraint - b.constraint || b.degree - a.degree || (a.id < b.id ? -1 : 1));
    holes.length = Math.min(holes.length, HOLES_PER_WEEK);

    const cut = bridges(g)
      .filter((b) => b.cutSize >= 2)
      .sort((a, b) => b.cutSize - a.cutSize || a.edge - b.edge)
      .slice(0, BRIDGES_PER_WEEK);
    const weekBridges: Bridge[] = cut.map((b) => {
      // The strongest other tie of the far endpoint carries the bridge into the larger side.
      let best = -1;
      for (let k = g.offset[b.large]; k < g.offset[b.large + 1]; k++) {
        const e = g.adjEdge[k];
        if (e !== b.edge && (best === -1 || g.ew[e] > g.ew[best])) best = e;
      }
      const far = best === -1 ? b.small : g.eu[best] === b.large ? g.ev[best] : g.eu[best];
      return { timestamp, link1: { source: ids[b.small], target: ids[b.large] }, link2: { source: ids[b.large], target: ids[far] }, cut_size: b.cutSize };
    });

    yield {
      snapshot: { timestamp, nodes, links },
      communities: { timestamp, communities: groups, community_ids: matched.ids, modularity: round(q, 4) },
      holes,
      bridges: weekBridges,
      timeline: {
        timestamp,
        repos: nodeRepo.filter((r) => r >= 0).length,
        developers: nodeDeveloper.filter((d) => d >= 0).length,
        links: g.m,
        communities: count,
        structural_holes: holes.length,
        bridges: weekBridges.length,
      },
    };
  }
}
