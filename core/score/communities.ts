import type { Graph } from './graph.ts';

/**
 * Modularity of a partition (Newman 2006): Q = Σ_c [ L_c/m − (d_c/2m)² ], with L_c the
 * weight inside community c, d_c the total strength of its nodes and m the total
 * weight; equal to networkx.community.modularity at resolution 1.
 */
export function modularity(g: Graph, community: ArrayLike<number>): number {
  let m = 0;
  for (let e = 0; e < g.m; e++) m += g.ew[e];
  if (m === 0) return 0;
  const tot = new Map<number, number>();
  let inside = 0;
  for (let e = 0; e < g.m; e++) if (community[g.eu[e]] === community[g.ev[e]]) inside += g.ew[e];
  for (let i = 0; i < g.n; i++) tot.set(community[i], (tot.get(community[i]) ?? 0) + g.strength[i]);
  let q = inside / m;
  for (const d of tot.values()) q -= (d / (2 * m)) ** 2;
  return q;
}

type Level = { n: number; offset: Int32Array; adj: Int32Array; w: Float64Array; loop: Float64Array; k: Float64Array };

function levelFromGraph(g: Graph): Level {
  const w = new Float64Array(g.adj.length);
  for (let k = 0; k < g.adj.length; k++) w[k] = g.ew[g.adjEdge[k]];
  return { n: g.n, offset: g.offset, adj: g.adj, w, loop: new Float64Array(g.n), k: Float64Array.from(g.strength) };
}

/** One pass of local moving; returns whether any node moved. Nodes visited in index order (deterministic). */
function moveNodes(level: Level, comm: Int32Array, m2: number): boolean {
  const { n, offset, adj, w, k } = level;
  const tot = new Float64Array(n);
  for (let i = 0; i < n; i++) tot[comm[i]] += k[i];
  const neighWeight = new Float64Array(n);
  const touched: number[] = [];
  let isMovedAny = false;
  let isImproving = true;
  let rounds = 0;
  while (isImproving && rounds++ < 64) {
    isImproving = false;
    for (let i = 0; i < n; i++) {
      const own = comm[i];
      for (let p = offset[i]; p < offset[i + 1]; p++) {
        const c = comm[adj[p]];
        if (neighWeight[c] === 0) touched.push(c);
        neighWeight[c] += w[p];
      }
      tot[own] -= k[i];
      let best = own;
      let bestGain = neighWeight[own] - (tot[own] * k[i]) / m2;
      for (const c of touched) {
        const gain = neighWeight[c] - (tot[c] * k[i]) / m2;
        if (gain > bestGain + 1e-12) {
          bestGain = gain;
          best = c;
        }
      }
      tot[best] += k[i];
      if (best !== own) {
        comm[i] = best;
        isImproving = true;
        isMovedAny = true;
      }
      for (const c of touched) neighWeight[c] = 0;
      neighWeight[own] = 0;
      touched.length = 0;
    }
  }
  return isMovedAny;
}

function aggregate(level: Level, comm: Int32Array): { next: Level; map: Int32Array } {
  const map = new Int32Array(level.n).fill(-1);
  let count = 0;
  for (let i = 0; i < level.n; i++) {
    if (map[comm[i]] === -1) map[comm[i]] = count++;
  }
  const of = (i: number) => map[comm[i]];
  const loop = new Float64Array(count);
  const k = new Float64Array(count);
  const pairs = new Map<number, number>();
  for (let i = 0; i < level.n; i++) {
    const ci = of(i);
    loop[ci] += level.loop[i];
    k[ci] += level.k[i];
    for (let p = level.offset[i]; p < level.offset[i + 1]; p++) {
      const j = level.adj[p];
      const cj = of(j);
      if (ci === cj) {
        loop[ci] += level.w[p]; // each internal edge seen from both ends: counts 2w, as A_ii does
      } else if (ci < cj) {
        const key = ci * count + cj;
        pairs.set(key, (pairs.get(key) ?? 0) + level.w[p]);
      }
    }
  }
  const offset = new Int32Array(count + 1);
  for (const key of pairs.keys()) {
    offset[Math.floor(key / count) + 1]++;
    offset[(key % count) + 1]++;
  }
  for (let i = 0; i < count; i++) offset[i + 1] += offset[i];
  const fill = offset.slice(0, count);
  const adj = new Int32Array(offset[count]);
  const w = new Float64Array(offset[count]);
  for (const [key, weight] of pairs) {
    const a = Math.floor(key / count);
    const b = key % count;
    adj[fill[a]] = b;
    w[fill[a]++] = weight;
    adj[fill[b]] = a;
    w[fill[b]++] = weight;
  }
  const result = new Int32Array(level.n);
  for (let i = 0; i < level.n; i++) result[i] = of(i);
  return { next: { n: count, offset, adj, w, loop, k }, map: result };
}

/**
 * Louvain community detection (Blondel et al. 2008): local moving then aggregation,
 * repeated while modularity improves. Deterministic (nodes in index order). Returns
 * each node's community (0…count−1, numbered by first appearance) and the modularity.
 */
export function louvain(g: Graph): { community: Int32Array; count: number; modularity: number } {
  const community = new Int32Array(g.n);
  for (let i = 0; i < g.n; i++) community[i] = i;
  let m2 = 0;
  for (let i = 0; i < g.n; i++) m2 += g.strength[i];
  if (m2 === 0) return renumber(community, g);
  let level = levelFromGraph(g);
  for (let depth = 0; depth < 32; depth++) {
    const comm = new Int32Array(level.n);
    for (let i = 0; i < level.n; i++) comm[i] = i;
    if (!moveNodes(level, comm, m2)) break;
    const { next, map } = aggregate(level, comm);
    for (let i = 0; i < g.n; i++) community[i] = map[community[i]];
    if (next.n === level.n) break;
    level = next;
  }
  return renumber(community, g);
}

function renumber(community: Int32Array, g: Graph) {
  const seen = new Map<number, number>();
  for (let i = 0; i < community.length; i++) {
    let c = seen.get(community[i]);
    if (c === undefined) {
      c = seen.size;
      seen.set(community[i], c);
    }
    community[i] = c;
  }
  return { community, count: seen.size, modularity: modularity(g, community) };
}

export type IdentifiedCommunity = { id: number; members: string[] };

/**
 * Stable community ids across weeks: each of this week's communities takes the id of
 * the previous week's community it overlaps most (greedy maximum-overlap matching:
 * pairs by shared members, then by Jaccard similarity, each old id used once);
 * a community with no overlap left gets a fresh id from `nextId`. Returned in the
 * order given.
 */
export function matchCommunities(previous: readonly IdentifiedCommunity[], current: readonly (readonly string[])[], nextId: number): { ids: number[]; nextId: number } {
  const owner = new Map<string, number>();
  previous.forEach((c, index) => {
    for (const member of c.members) owner.set(member, index);
  });
  const candidates: { cur: number; prev: number; overlap: number; jaccard: number }[] = [];
  current.forEach((members, cur) => {
    const counts = new Map<number, number>();
    for (const member of members) {
      const p = owner.get(member);
      if (p !== undefined) counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    for (const [prev, overlap] of counts) {
      candidates.push({ cur, prev, overlap, jaccard: overlap / (members.length + previous[prev].members.length - overlap) });
    }
  });
  candidates.sort((a, b) => b.overlap - a.overlap || b.jaccard - a.jaccard || previous[a.prev].id - previous[b.prev].id || a.cur - b.cur);
  const ids = new Array<number>(current.length).fill(-1);
  const used = new Set<number>();
  for (const c of candidates) {
    if (ids[c.cur] !== -1 || used.has(c.prev)) continue;
    ids[c.cur] = previous[c.prev].id;
    used.add(c.prev);
  }
  let next = nextId;
  for (let i = 0; i < ids.length; i++) if (ids[i] === -1) ids[i] = next++;
  return { ids, nextId: next };
}
