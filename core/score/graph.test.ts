import { describe, expect, it } from 'vitest';
import { bipartiteDensity, bridges, buildGraph, constraint, degreeCentralization, density } from './graph.ts';
import { louvain, matchCommunities, modularity } from './communities.ts';

/** Zachary's karate club (networkx.karate_club_graph, unweighted). */
export const KARATE: [number, number][] = [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7], [0, 8], [0, 10], [0, 11], [0, 12], [0, 13], [0, 17], [0, 19], [0, 21], [0, 31], [1, 2], [1, 3], [1, 7], [1, 13], [1, 17], [1, 19], [1, 21], [1, 30], [2, 3], [2, 7], [2, 8], [2, 9], [2, 13], [2, 27], [2, 28], [2, 32], [3, 7], [3, 12], [3, 13], [4, 6], [4, 10], [5, 6], [5, 10], [5, 16], [6, 16], [8, 30], [8, 32], [8, 33], [9, 33], [13, 33], [14, 32], [14, 33], [15, 32], [15, 33], [18, 32], [18, 33], [19, 33], [20, 32], [20, 33], [22, 32], [22, 33], [23, 25], [23, 27], [23, 29], [23, 32], [23, 33], [24, 25], [24, 27], [24, 31], [25, 31], [26, 29], [26, 33], [27, 33], [28, 31], [28, 33], [29, 32], [29, 33], [30, 32], [30, 33], [31, 32], [31, 33], [32, 33]];

const graphOf = (n: number, edges: number[][]) => buildGraph(n, edges.map((e) => e[0]), edges.map((e) => e[1]), edges.map((e) => e[2] ?? 1));

describe('Burt constraint', () => {
  it('matches networkx.constraint on the karate club', () => {
    // python3 -c "import networkx as nx; H=nx.Graph(nx.karate_club_graph().edges()); print(nx.constraint(H))"
    const expected = [0.155423, 0.279535, 0.185177, 0.39666, 0.529417, 0.477485, 0.477485, 0.442712, 0.303601, 0.5, 0.529417, 1.0, 0.622504, 0.323335, 0.57368, 0.57368, 0.78125, 0.590869, 0.57368, 0.373719, 0.57368, 0.590869, 0.57368, 0.305824, 0.459877, 0.459877, 0.670902, 0.285069, 0.386913, 0.449409, 0.346006, 0.244575, 0.249223, 0.156419];
    const c = constraint(graphOf(34, KARATE));
    expected.forEach((v, i) => expect(c[i]).toBeCloseTo(v, 5));
  });

  it('matches networkx.constraint(weight=) on a weighted graph, and Σp² on a bipartite one', () => {
    const w = graphOf(6, [[0, 1, 3], [0, 2, 1], [1, 2, 2], [2, 3, 4], [3, 4, 1], [3, 5, 1], [4, 5, 2]]);
    const expected = [0.977245, 0.734337, 0.579643, 0.598765, 0.830247, 0.830247];
    const c = constraint(w);
    expected.forEach((v, i) => expect(c[i]).toBeCloseTo(v, 5));
    // r0–d0, r0–d1, r1–d1, r1–d2, r2–d2 as nodes r0..r2 = 0..2, d0..d2 = 3..5
    const b = constraint(graphOf(6, [[0, 3], [0, 4], [1, 4], [1, 5], [2, 5]]));
    expect(Array.from(b)).toEqual([0.5, 0.5, 1, 1, 0.5, 0.5]);
    expect(Number.isNaN(constraint(graphOf(2, []))[0])).toBe(true);
  });
});

describe('density and centralization', () => {
  it('density: networkx.density and bipartite.density', () => {
    expect(density(34, 78)).toBeCloseTo(0.13903743315508021, 12);
    expect(bipartiteDensity(3, 3, 5)).toBeCloseTo(5 / 9, 12);
    expect(density(1, 0)).toBe(0);
    expect(bipartiteDensity(0, 4, 0)).toBe(0);
  });
  it('Freeman degree centralization: star 1, cycle 0, karate known value', () => {
    expect(degreeCentralization(graphOf(6, [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5]]))).toBeCloseTo(1, 12);
    expect(degreeCentralization(graphOf(5, [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]]))).toBe(0);
    // karate: d_max 17, Σd 156, n 34 → (34·17 − 156)/(33·32)
    expect(degreeCentralization(graphOf(34, KARATE))).toBeCloseTo((34 * 17 - 156) / (33 * 32), 12);
    expect(degreeCentralization(graphOf(2, [[0, 1]]))).toBe(0);
  });
});

describe('bridges (Tarjan)', () => {
  it('finds the bridges of a barbell and the sizes they cut off', () => {
    // networkx.barbell_graph(4, 2): bridges (3,4), (4,5), (5,6)
    const edges: number[][] = [];
    for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) edges.push([a, b]);
    for (let a = 6; a < 10; a++) for (let b = a + 1; b < 10; b++) edges.push([a, b]);
    edges.push([3, 4], [4, 5], [5, 6]);
    const g = graphOf(10, edges);
    const found = bridges(g).map((b) => ({ pair: [g.eu[b.edge], g.ev[b.edge]], cut: b.cutSize })).sort((x, y) => x.pair[0] - y.pair[0]);
    expect(found).toEqual([
      { pair: [3, 4], cut: 4 },
      { pair: [4, 5], cut: 5 },
      { pair: [5, 6], cut: 4 },
    ]);
  });
  it('a cycle has none, a tree has every edge, a weighted test graph has (2,3)', () => {
    expect(bridges(graphOf(4, [[0, 1], [1, 2], [2, 3], [3, 0]]))).toEqual([]);
    expect(bridges(graphOf(5, [[0, 1], [0, 2], [2, 3], [2, 4]]))).toHaveLength(4);
    const w = graphOf(6, [[0, 1, 3], [0, 2, 1], [1, 2, 2], [2, 3, 4], [3, 4, 1], [3, 5, 1], [4, 5, 2]]);
    const [b] = bridges(w);
    expect([w.eu[b.edge], w.ev[b.edge], b.cutSize]).toEqual([2, 3, 3]);
  });
  it('does not overflow on a 200 000-node path', () => {
    const n = 200_000;
    const src = Array.from({ length: n - 1 }, (_, i) => i);
    const g = buildGraph(n, src, src.map((i) => i + 1));
    expect(bridges(g)).toHaveLength(n - 1);
  });
});

describe('communities', () => {
  it('modularity equals networkx.community.modularity for a given partition', () => {
    const g = graphOf(34, KARATE);
    const halves = Array.from({ length: 34 }, (_, i) => (i < 17 ? 0 : 1));
    expect(modularity(g, halves)).toBeCloseTo(0.24326101249178175, 10);
  });
  it('Louvain finds the karate club structure (Q ≈ 0.42, best known 0.4198)', () => {
    const g = graphOf(34, KARATE);
    const { community, count, modularity: q } = louvain(g);
    expect(q).toBeGreaterThan(0.41);
    expect(q).toBeCloseTo(modularity(g, community), 12);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThanOrEqual(5);
    // The two leaders never share a community.
    expect(community[0]).not.toBe(community[33]);
  });
  it('Louvain separates two cliques joined by one edge', () => {
    const edges: number[][] = [];
    for (let a = 0; a < 5; a++) for (let b = a + 1; b < 5; b++) edges.push([a, b], [a + 5, b + 5]);
    edges.push([4, 5]);
    const { community, count } = louvain(graphOf(10, edges));
    expect(count).toBe(2);
    expect(new Set(Array.from(community).slice(0, 5)).size).toBe(1);
    expect(community[0]).not.toBe(community[9]);
  });
  it('keeps ids stable by maximum overlap and gives new groups fresh ids', () => {
    const previous = [
      { id: 7, members: ['a', 'b', 'c'] },
      { id: 9, members: ['d', 'e'] },
    ];
    const { ids, nextId } = matchCommunities(previous, [['d', 'e', 'f'], ['x', 'y'], ['a', 'b']], 10);
    expect(ids).toEqual([9, 10, 7]);
    expect(nextId).toBe(11);
    // A split: the larger part keeps the id.
    expect(matchCommunities(previous, [['a'], ['b', 'c']], 10).ids).toEqual([10, 7]);
  });
});
