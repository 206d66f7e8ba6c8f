/**
 * Weighted undirected graphs in compressed sparse row form, and the network measures
 * the enterprise score uses (docs/score.md gives each formula with its reference):
 * density, Freeman degree centralization, Burt's constraint, bridges (Tarjan).
 * Pure code with typed arrays: runs in Node, a worker or the browser.
 */

export type Graph = {
  /** Node count. */
  n: number;
  /** Edge count (undirected, no self-loops; parallel edges are merged by the builder). */
  m: number;
  /** Edge endpoints and weights, edge e joins eu[e]–ev[e] with weight ew[e]. */
  eu: Int32Array;
  ev: Int32Array;
  ew: Float64Array;
  /** CSR adjacency: neighbours of i are adj[offset[i]..offset[i+1]), their edge index in adjEdge. */
  offset: Int32Array;
  adj: Int32Array;
  adjEdge: Int32Array;
  /** Weighted degree (strength) of each node. */
  strength: Float64Array;
};

/**
 * Builds a graph of n nodes from edge lists. Self-loops are dropped and parallel
 * edges merged (weights summed), so callers may pass raw contributions.
 */
export function buildGraph(n: number, src: ArrayLike<number>, dst: ArrayLike<number>, weight?: ArrayLike<number>): Graph {
  const keyed = new Map<number, number>();
  const eu: number[] = [];
  const ev: number[] = [];
  const ew: number[] = [];
  for (let k = 0; k < src.length; k++) {
    let a = src[k];
    let b = dst[k];
    if (a === b) continue;
    if (a > b) [a, b] = [b, a];
    const key = a * n + b;
    const w = weight ? weight[k] : 1;
    const at = keyed.get(key);
    if (at === undefined) {
      keyed.set(key, eu.length);
      eu.push(a);
      ev.push(b);
      ew.push(w);
    } else {
      ew[at] += w;
    }
  }
  const m = eu.length;
  const offset = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    offset[eu[e] + 1]++;
    offset[ev[e] + 1]++;
  }
  for (let i = 0; i < n; i++) offset[i + 1] += offset[i];
  const fill = offset.slice(0, n);
  const adj = new Int32Array(2 * m);
  const adjEdge = new Int32Array(2 * m);
  const strength = new Float64Array(n);
  for (let e = 0; e < m; e++) {
    const a = eu[e];
    const b = ev[e];
    adj[fill[a]] = b;
    adjEdge[fill[a]++] = e;
    adj[fill[b]] = a;
    adjEdge[fill[b]++] = e;
    strength[a] += ew[e];
    strength[b] += ew[e];
  }
  return { n, m, eu: Int32Array.from(eu), ev: Int32Array.from(ev), ew: Float64Array.from(ew), offset, adj, adjEdge, strength };
}

export function degree(g: Graph, i: number): number {
  return g.offset[i + 1] - g.offset[i];
}

/** Density of a simple undirected graph: 2m / (n(n−1)) (networkx.density). */
export function density(n: number, m: number): number {
  return n < 2 ? 0 : (2 * m) / (n * (n - 1));
}

/** Density of a bipartite graph with parts of size a and b: m / (a·b) (networkx.bipartite.density). */
export function bipartiteDensity(a: number, b: number, m: number): number {
  return a === 0 || b === 0 ? 0 : m / (a * b);
}

/**
 * Freeman's degree centralization: Σ (d_max − d_i) / ((n−1)(n−2)), 1 for a star,
 * 0 when all degrees are equal (Freeman 1978). 0 for graphs of fewer than 3 nodes.
 */
export function degreeCentralization(g: Graph): number {
  const n = g.n;
  if (n < 3) return 0;
  let max = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = g.offset[i + 1] - g.offset[i];
    if (d > max) max = d;
    sum += d;
  }
  return (n * max - sum) / ((n - 1) * (n - 2));
}

/**
 * Burt's constraint of every node, weighted, exactly as networkx.constraint:
 * c_i = Σ_{j∈N(i)} (p_ij + Σ_{q∈N(i)} p_iq p_qj)², p_ij = w_ij / s_i (Burt 1992).
 * Isolated nodes get NaN, as in networkx.
 */
export function constraint(g: Graph): Float64Array {
  const { n, offset, adj, adjEdge, ew, strength } = g;
  const out = new Float64Array(n);
  const pi = new Float64Array(n); // p_i· of the current node, 0 elsewhere
  const acc = new Float64Array(n); // indirect terms toward i's neighbours
  for (let i = 0; i < n; i++) {
    const from = offset[i];
    const to = offset[i + 1];
    if (from === to || strength[i] === 0) {
      out[i] = Number.NaN;
      continue;
    }
    for (let k = from; k < to; k++) pi[adj[k]] = ew[adjEdge[k]] / strength[i];
    for (let k = from; k < to; k++) {
      const q = adj[k];
      const piq = pi[q];
      const sq = strength[q];
      for (let l = offset[q]; l < offset[q + 1]; l++) {
        const j = adj[l];
        if (j !== i && pi[j] !== 0) acc[j] += (piq * ew[adjEdge[l]]) / sq;
      }
    }
    let c = 0;
    for (let k = from; k < to; k++) {
      const j = adj[k];
      const t = pi[j] + acc[j];
      c += t * t;
    }
    for (let k = from; k < to; k++) {
      pi[adj[k]] = 0;
      acc[adj[k]] = 0;
    }
    out[i] = c;
  }
  return out;
}

export type BridgeEdge = {
  /** Edge index in the graph. */
  edge: number;
  /** Endpoint on the smaller side, endpoint on the larger side. */
  small: number;
  large: number;
  /** Nodes on the smaller side once the edge is removed. */
  cutSize: number;
};

/**
 * Bridges (edges whose removal disconnects their component): Tarjan's lowlink DFS,
 * iterative so deep graphs cannot overflow the stack; parallel edges are already merged.
 * Each comes with the size of the part it would cut off (DFS subtree size).
 */
export function bridges(g: Graph): BridgeEdge[] {
  const { n, offset, adj, adjEdge } = g;
  const disc = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const size = new Int32Array(n);
  const parentEdge = new Int32Array(n).fill(-1);
  const cursor = new Int32Array(n);
  const stack = new Int32Array(n);
  const found: { edge: number; parent: number; child: number; root: number }[] = [];
  const componentSize = new Map<number, number>();
  let time = 0;
  for (let root = 0; root < n; root++) {
    if (disc[root] !== -1) continue;
    let top = 0;
    stack[top++] = root;
    disc[root] = low[root] = time++;
    cursor[root] = offset[root];
    size[root] = 1;
    while (top > 0) {
      const v = stack[top - 1];
      if (cursor[v] < offset[v + 1]) {
        const k = cursor[v]++;
        const w = adj[k];
        const e = adjEdge[k];
        if (e === parentEdge[v]) continue;
        if (disc[w] === -1) {
          disc[w] = low[w] = time++;
          parentEdge[w] = e;
          cursor[w] = offset[w];
          size[w] = 1;
          stack[top++] = w;
        } else if (disc[w] < low[v]) {
          low[v] = disc[w];
        }
      } else {
        top--;
        if (top > 0) {
          const p = stack[top - 1];
          size[p] += size[v];
          if (low[v] < low[p]) low[p] = low[v];
          if (low[v] > disc[p]) found.push({ edge: parentEdge[v], parent: p, child: v, root });
        }
      }
    }
    componentSize.set(root, size[root]);
  }
  return found.map(({ edge, parent, child, root }) => {
    const below = size[child];
    const above = (componentSize.get(root) ?? below) - below;
    return below <= above ? { edge, small: child, large: parent, cutSize: below } : { edge, small: parent, large: child, cutSize: above };
  });
}
