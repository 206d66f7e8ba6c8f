import { describe, expect, it } from 'vitest';
import { loadLayoutCoreNode } from './load-layout-node.ts';
import { coarsen, createLayout, DEFAULT_PHYSICS, DEFAULT_SCHEDULE, seededRandom, type LayoutCore, type LayoutGraph } from './layout.ts';
import { checkLayout, scaleFreeGraph, shuffledGraph } from '../bench/layout-graphs.ts';

function randomPositions(count: number, radius: number, seed = 5): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: 3 * count }, () => (random() * 2 - 1) * radius);
}

function norm(v: Float32Array, i: number): number {
  return Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
}

/** Mean relative error of force vectors: Σ|a − b| / Σ|b|. */
function relativeError(a: Float32Array, b: Float32Array): number {
  let error = 0;
  let magnitude = 0;
  for (let i = 0; i < b.length / 3; i++) {
    error += Math.hypot(a[3 * i] - b[3 * i], a[3 * i + 1] - b[3 * i + 1], a[3 * i + 2] - b[3 * i + 2]);
    magnitude += norm(b, i);
  }
  return error / magnitude;
}

function defaultTree(core: LayoutCore): LayoutCore {
  core.configureTree(DEFAULT_SCHEDULE.leafBodies, DEFAULT_SCHEDULE.groupBodies);
  return core;
}

/** Settled positions of a scale-free graph (clustered, like a real map), computed once. */
let settled: { graph: LayoutGraph; positions: Float32Array } | null = null;
function settledLayout(): { graph: LayoutGraph; positions: Float32Array } {
  if (!settled) {
    const graph = scaleFreeGraph(3000, 21);
    const layout = createLayout(loadLayoutCoreNode(), graph, { seed: 2 });
    let p = layout.progress();
    while (!p.isSettled) p = layout.advance(1e9);
    settled = { graph, positions: layout.positions() };
  }
  return settled;
}

describe.each(['simd', 'scalar'] as const)('layout wasm (%s build): forces', (flavour) => {
  it('octree repulsion matches the exact O(n²) force when every cell is opened', () => {
    const core = defaultTree(loadLayoutCoreNode(flavour));
    const graph: LayoutGraph = { count: 300, links: new Uint32Array() };
    core.load(graph, randomPositions(300, 100));
    core.configure({ ...DEFAULT_PHYSICS, theta: 0.001 });
    const tree = core.forcesOf(true);
    const exact = core.forcesOf(false);
    for (let i = 0; i < 300; i++) {
      for (let d = 0; d < 3; d++) expect(tree[3 * i + d]).toBeCloseTo(exact[3 * i + d], 3);
    }
  });

  it('Barnes-Hut at the layout theta stays within a few percent of the exact force', () => {
    const core = defaultTree(loadLayoutCoreNode(flavour));
    const count = 2000;
    core.load({ count, links: new Uint32Array() }, randomPositions(count, 200, 9));
    for (const theta of [0.8, DEFAULT_PHYSICS.theta]) {
      core.configure({ ...DEFAULT_PHYSICS, theta });
      const tree = core.forcesOf(true);
      const exact = core.forcesOf(false);
      let error = 0;
      let magnitude = 0;
      for (let i = 0; i < count; i++) {
        error += Math.hypot(tree[3 * i] - exact[3 * i], tree[3 * i + 1] - exact[3 * i + 1], tree[3 * i + 2] - exact[3 * i + 2]);
        magnitude += norm(exact, i);
      }
      // Mean relative error of the force vectors.
      expect(error / magnitude).toBeLessThan(theta <= 0.8 ? 0.03 : 0.06);
    }
  });

  it('on a settled, clustered layout: within 5 % of the exact force at the layout theta, exact at theta → 0 whatever the leaf and group sizes', () => {
    const { positions } = settledLayout();
    const count = positions.length / 3;
    const core = loadLayoutCoreNode(flavour);
    core.load({ count, links: new Uint32Array() }, positions);
    core.configure(DEFAULT_PHYSICS);
    const exact = core.forcesOf(false);
    defaultTree(core);
    // The group test (bounding box of up to 64 bodies) is stricter than a test per body:
    // 2.7 % here, where a walk per body (groups of 1) would be 8.8 % off at this theta.
    expect(relativeError(core.forcesOf(true), exact)).toBeLessThan(0.05);
    for (const [leaf, group] of [[DEFAULT_SCHEDULE.leafBodies, DEFAULT_SCHEDULE.groupBodies], [1, 1], [4, 16], [32, 256]]) {
      core.configureTree(leaf, group);
      core.configure({ ...DEFAULT_PHYSICS, theta: 1e-3 });
      expect(relativeError(core.forcesOf(true), exact)).toBeLessThan(1e-4);
      // Groups of at most `group` bodies, every body in one: at least n / group of them.
      expect(core.stats().groups).toBeGreaterThanOrEqual(Math.ceil(count / group));
    }
  });

  it('a tight cluster far from the rest (a deep octree, bodies at the depth limit) keeps exact forces at theta → 0', () => {
    const random = seededRandom(13);
    const count = 600;
    const positions = new Float32Array(3 * count);
    for (let i = 0; i < count; i++) {
      // 500 bodies within 0.05 of (1000, 1000, 1000), 100 spread over a 4000-wide box.
      const isCluster = i < 500;
      for (let d = 0; d < 3; d++) positions[3 * i + d] = isCluster ? 1000 + (random() - 0.5) * 0.1 : (random() - 0.5) * 4000;
    }
    const core = defaultTree(loadLayoutCoreNode(flavour));
    core.load({ count, links: new Uint32Array() }, positions);
    core.configure({ ...DEFAULT_PHYSICS, theta: 1e-3 });
    const tree = core.forcesOf(true);
    const exact = core.forcesOf(false);
    expect(tree.every(Number.isFinite)).toBe(true);
    expect(relativeError(tree, exact)).toBeLessThan(1e-3);
  });

  it('springs pull and push along the link: Hooke with ngraph coefficients', () => {
    const core = loadLayoutCoreNode(flavour);
    core.configure({ ...DEFAULT_PHYSICS, gravity: 0 });
    core.load({ count: 2, links: Uint32Array.of(0, 1) }, Float32Array.of(0, 0, 0, 20, 0, 0));
    const f = core.forcesOf(true);
    // Stretched by 10: 0.8 × 10 towards each other.
    expect(f[0]).toBeCloseTo(8, 4);
    expect(f[3]).toBeCloseTo(-8, 4);
    expect(f[1]).toBeCloseTo(0, 6);
  });

  it('two linked bodies come to rest at the spring length', () => {
    const core = loadLayoutCoreNode(flavour);
    core.configure({ ...DEFAULT_PHYSICS, gravity: 0 });
    core.load({ count: 2, links: Uint32Array.of(0, 1) }, Float32Array.of(0, 0, 0, 37, 4, -3));
    let movement = Infinity;
    for (let k = 0; k < 500 && movement > 1e-5; k++) movement = core.step(1);
    const p = core.positionsView();
    expect(Math.hypot(p[3] - p[0], p[4] - p[1], p[5] - p[2])).toBeCloseTo(DEFAULT_PHYSICS.springLength, 2);
    expect(movement).toBeLessThan(1e-4);
  });

  it('coincident bodies are pushed apart instead of producing NaN', () => {
    const core = defaultTree(loadLayoutCoreNode(flavour));
    core.configure(DEFAULT_PHYSICS);
    core.load({ count: 20, links: new Uint32Array() }, new Float32Array(60));
    for (let k = 0; k < 20; k++) core.step(1);
    const p = core.positionsView();
    expect(p.every(Number.isFinite)).toBe(true);
    expect(new Set(Array.from({ length: 20 }, (_, i) => `${p[3 * i].toFixed(3)},${p[3 * i + 1].toFixed(3)},${p[3 * i + 2].toFixed(3)}`)).size).toBe(20);
  });
});

describe('layout wasm builds', () => {
  it('the SIMD and scalar builds compute the same forces (to float rounding)', () => {
    const { graph, positions } = settledLayout();
    const [simd, scalar] = (['simd', 'scalar'] as const).map((flavour) => {
      const core = defaultTree(loadLayoutCoreNode(flavour));
      core.configure(DEFAULT_PHYSICS);
      core.load(graph, positions);
      return core.forcesOf(true);
    });
    expect(relativeError(simd, scalar)).toBeLessThan(1e-4);
  });

  it('a hundred bodies on one point next to others separate, all finite', () => {
    const count = 300;
    const positions = randomPositions(count, 50, 17);
    for (let i = 0; i < 100; i++) positions.set([3, -2, 7], 3 * i);
    const core = defaultTree(loadLayoutCoreNode());
    core.configure(DEFAULT_PHYSICS);
    core.load({ count, links: new Uint32Array() }, positions);
    for (let k = 0; k < 30; k++) core.step(1);
    const p = core.positionsView();
    expect(p.every(Number.isFinite)).toBe(true);
    const spots = new Set(Array.from({ length: 100 }, (_, i) => `${p[3 * i].toFixed(4)},${p[3 * i + 1].toFixed(4)},${p[3 * i + 2].toFixed(4)}`));
    expect(spots.size).toBe(100);
  });
});

describe('layout driver', () => {
  it('coarsening maps every node to a cluster and keeps the graph connected', () => {
    const graph = scaleFreeGraph(3000);
    const step = coarsen(graph);
    expect(step).not.toBeNull();
    const { coarse, parent } = step!;
    expect(coarse.count).toBeLessThan(0.85 * graph.count);
    expect(Math.max(...parent)).toBe(coarse.count - 1);
    // Links between distinct clusters only, no duplicates.
    const keys = new Set<string>();
    for (let e = 0; e < coarse.links.length; e += 2) {
      expect(coarse.links[e]).not.toBe(coarse.links[e + 1]);
      keys.add(`${Math.min(coarse.links[e], coarse.links[e + 1])}-${Math.max(coarse.links[e], coarse.links[e + 1])}`);
    }
    expect(keys.size).toBe(coarse.links.length / 2);
  });

  it('settles a scale-free graph with linked nodes near the spring length, reproducibly', () => {
    const graph = scaleFreeGraph(2000);
    const run = () => {
      const layout = createLayout(loadLayoutCoreNode(), graph, { seed: 4 });
      let p = layout.progress();
      while (!p.isSettled) p = layout.advance(1e9);
      return { p, positions: layout.positions() };
    };
    const first = run();
    expect(first.p.level).toBe(0);
    expect(first.p.movement).toBeLessThanOrEqual(0.01 * DEFAULT_PHYSICS.springLength + 1e-9);
    let sum = 0;
    for (let e = 0; e < graph.links.length; e += 2) {
      const a = graph.links[e];
      const b = graph.links[e + 1];
      const p = first.positions;
      sum += Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
    }
    const mean = sum / (graph.links.length / 2);
    expect(mean).toBeGreaterThan(0.5 * DEFAULT_PHYSICS.springLength);
    expect(mean).toBeLessThan(3 * DEFAULT_PHYSICS.springLength);
    expect(run().positions).toEqual(first.positions);
  });

  it('a warm start from settled positions settles within a few steps', () => {
    const graph = scaleFreeGraph(1500);
    const cold = createLayout(loadLayoutCoreNode(), graph);
    let p = cold.progress();
    while (!p.isSettled) p = cold.advance(1e9);
    const warm = createLayout(loadLayoutCoreNode(), graph, { initial: cold.positions() });
    expect(warm.isAtFinest()).toBe(true);
    let q = warm.progress();
    while (!q.isSettled) q = warm.advance(1e9);
    expect(q.steps).toBeLessThan(p.steps);
  });
});

describe('bench graphs', () => {
  it('shuffledGraph renumbers nodes by a permutation: the same degrees and links up to the renumbering', () => {
    const graph = scaleFreeGraph(500, 3);
    const shuffled = shuffledGraph(graph, 5);
    expect(shuffled.count).toBe(graph.count);
    expect(shuffled.links.length).toBe(graph.links.length);
    const key = (g: LayoutGraph) => {
      const degree = new Uint32Array(g.count);
      for (const v of g.links) degree[v]++;
      return Array.from(degree).sort((a, b) => a - b).join(',');
    };
    expect(key(shuffled)).toBe(key(graph));
    expect(Array.from(shuffled.links.slice(0, 20))).not.toEqual(Array.from(graph.links.slice(0, 20)));
  });

  it('checkLayout accepts a settled layout and names what is wrong with broken ones', () => {
    const { graph, positions } = settledLayout();
    const L = DEFAULT_PHYSICS.springLength;
    expect(checkLayout(graph, positions, L)).toBeNull();
    const withNaN = positions.slice();
    withNaN[7] = Number.NaN;
    expect(checkLayout(graph, withNaN, L)).toMatch(/coordinate 7 is NaN/);
    expect(checkLayout(graph, new Float32Array(positions.length), L)).toMatch(/mean link length/);
    const flat = positions.slice();
    for (let i = 0; i < graph.count; i++) flat[3 * i + 2] = 0;
    expect(checkLayout(graph, flat, L)).toMatch(/flat/);
    // Half the nodes pulled onto their first neighbour: links collapse.
    const collapsed = positions.slice();
    for (let e = 0; e < graph.links.length; e += 4) collapsed.set(positions.subarray(3 * graph.links[e + 1], 3 * graph.links[e + 1] + 3), 3 * graph.links[e]);
    expect(checkLayout(graph, collapsed, L)).toMatch(/collapsed/);
  });
});
