/**
 * Graphs for the layout and render benchmarks: preferential attachment (Barabási–Albert
 * with 1–3 links per new node (or a fixed number), so the degree distribution has the power-law tail of real
 * collaboration networks) plus a few local triangle-closing links, seeded and reproducible.
 */
import { seededRandom, type LayoutGraph } from '../wasm/layout.ts';

export function scaleFreeGraph(count: number, seed = 7, linksPerNode: number | null = null): LayoutGraph {
  const random = seededRandom(seed);
  const links: number[] = [];
  // Endpoint list: picking a uniform entry picks a node with probability ∝ degree.
  const ends: number[] = [0, 1];
  links.push(0, 1);
  for (let v = 2; v < count; v++) {
    const want = linksPerNode ?? 1 + Math.floor(random() * 2.5);
    const chosen = new Set<number>();
    for (let k = 0; k < want && chosen.size < v; k++) {
      const u = ends[Math.floor(random() * ends.length)];
      if (u !== v) chosen.add(u);
    }
    for (const u of chosen) {
      links.push(v, u);
      ends.push(v, u);
    }
  }
  return { count, links: Uint32Array.from(links) };
}

/**
 * Normalised stress of a layout against graph distances, on BFS from `sources` random
 * nodes (weights 1/d², optimal scale): 0 is perfect, lower is better. Kamada–Kawai's
 * measure, the usual way to compare layouts of one graph.
 */
export function layoutStress(graph: LayoutGraph, pos: Float32Array, sources = 24, seed = 3): number {
  const n = graph.count;
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < graph.links.length; i++) start[graph.links[i] + 1]++;
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = start.slice(0, n);
  const adj = new Uint32Array(graph.links.length);
  for (let e = 0; e < graph.links.length; e += 2) {
    adj[fill[graph.links[e]]++] = graph.links[e + 1];
    adj[fill[graph.links[e + 1]]++] = graph.links[e];
  }
  const random = seededRandom(seed);
  const dist = new Int32Array(n);
  const queue = new Uint32Array(n);
  // Σ w e d, Σ w e², Σ w d² with w = d⁻²: optimal α = Σ(e/d) / Σ(e²/d²).
  let sumED = 0;
  let sumEE = 0;
  const pairs: Array<[number, number]> = [];
  for (let s = 0; s < sources; s++) {
    const src = Math.floor(random() * n);
    dist.fill(-1);
    dist[src] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = src;
    while (head < tail) {
      const v = queue[head++];
      for (let k = start[v]; k < start[v + 1]; k++) {
        const u = adj[k];
        if (dist[u] < 0) {
          dist[u] = dist[v] + 1;
          queue[tail++] = u;
        }
      }
    }
    for (let i = 0; i < n; i++) {
      if (i === src || dist[i] <= 0) continue;
      const dx = pos[3 * i] - pos[3 * src];
      const dy = pos[3 * i + 1] - pos[3 * src + 1];
      const dz = pos[3 * i + 2] - pos[3 * src + 2];
      const e = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const d = dist[i];
      sumED += e / d;
      sumEE += (e * e) / (d * d);
      pairs.push([e, d]);
    }
  }
  const alpha = sumED / sumEE;
  let stress = 0;
  for (const [e, d] of pairs) stress += ((alpha * e - d) / d) ** 2;
  return stress / pairs.length;
}

/** Coefficient of variation of link lengths (std / mean): lower is more uniform. */
export function edgeLengthCv(graph: LayoutGraph, pos: Float32Array): number {
  let sum = 0;
  let sum2 = 0;
  const m = graph.links.length / 2;
  for (let e = 0; e < graph.links.length; e += 2) {
    const a = graph.links[e];
    const b = graph.links[e + 1];
    const l = Math.hypot(pos[3 * a] - pos[3 * b], pos[3 * a + 1] - pos[3 * b + 1], pos[3 * a + 2] - pos[3 * b + 2]);
    sum += l;
    sum2 += l * l;
  }
  const mean = sum / m;
  return Math.sqrt(Math.max(0, sum2 / m - mean * mean)) / mean;
}

/**
 * Why a layout is unusable, or null: every coordinate finite, links neither collapsed
 * nor exploded (mean length between half a spring length and 100 of them, at most 1 %
 * of links shorter than a tenth of the mean), and a real 3D spread (each axis of the
 * bounding box at least a tenth of the largest).
 */
export function checkLayout(graph: LayoutGraph, pos: Float32Array, springLength: number): string | null {
  if (pos.length < 3 * graph.count) return `${pos.length / 3} positions for ${graph.count} nodes`;
  for (let i = 0; i < 3 * graph.count; i++) if (!Number.isFinite(pos[i])) return `coordinate ${i} is ${pos[i]}`;
  const m = graph.links.length / 2;
  const lengths = new Float64Array(m);
  let sum = 0;
  for (let e = 0; e < m; e++) {
    const a = graph.links[2 * e];
    const b = graph.links[2 * e + 1];
    lengths[e] = Math.hypot(pos[3 * a] - pos[3 * b], pos[3 * a + 1] - pos[3 * b + 1], pos[3 * a + 2] - pos[3 * b + 2]);
    sum += lengths[e];
  }
  const mean = m ? sum / m : springLength;
  if (mean < 0.5 * springLength || mean > 100 * springLength) return `mean link length ${mean.toFixed(2)} (spring length ${springLength})`;
  let short = 0;
  for (const l of lengths) if (l < 0.1 * mean) short++;
  if (short > 0.01 * m) return `${short} of ${m} links shorter than a tenth of the mean: collapsed`;
  const extent = [0, 1, 2].map((d) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < graph.count; i++) {
      lo = Math.min(lo, pos[3 * i + d]);
      hi = Math.max(hi, pos[3 * i + d]);
    }
    return hi - lo;
  });
  const widest = Math.max(...extent);
  if (graph.count > 3 && Math.min(...extent) < 0.1 * widest) return `flat: bounding box ${extent.map((x) => x.toFixed(1)).join(' × ')}`;
  return null;
}

/**
 * The same graph with node ids (and link order) shuffled. A generator numbers nodes in
 * the order it grows the graph, which a layout that places each node beside its
 * lower-numbered neighbours (ngraph's initial placement) replays; real enterprise ids
 * carry no such order.
 */
export function shuffledGraph(graph: LayoutGraph, seed = 11): LayoutGraph {
  const random = seededRandom(seed);
  const ids = Uint32Array.from({ length: graph.count }, (_, i) => i);
  for (let i = graph.count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  const m = graph.links.length / 2;
  const order = Uint32Array.from({ length: m }, (_, e) => e);
  for (let e = m - 1; e > 0; e--) {
    const j = Math.floor(random() * (e + 1));
    [order[e], order[j]] = [order[j], order[e]];
  }
  const links = new Uint32Array(graph.links.length);
  for (let e = 0; e < m; e++) {
    links[2 * e] = ids[graph.links[2 * order[e]]];
    links[2 * e + 1] = ids[graph.links[2 * order[e] + 1]];
  }
  return { count: graph.count, links };
}
