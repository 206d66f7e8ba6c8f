/**
 * Typed bindings of our force-layout WebAssembly (wasm/assembly/layout.ts, built by
 * wasm/build.ts) and the multilevel driver around it. Runtime-agnostic: the caller
 * supplies the compiled module (fetched in the layout worker, read from disk in Node),
 * so the worker, the benchmark and the tests run the same code.
 *
 * Multilevel: the graph is coarsened (each node paired with its least-connected free
 * neighbour, leftovers joining a small neighbouring cluster) until a few hundred nodes
 * remain; the coarsest graph is laid out from a random start, then each finer level
 * starts from its clusters' positions (scaled by the cube root of the growth in node
 * count, since volume grows with node count) and is refined until it settles. A warm
 * start (cached positions) skips the coarse levels.
 */

type Exports = {
  memory: WebAssembly.Memory;
  setup(bodies: number, links: number): number;
  positions(): number;
  velocities(): number;
  forces(): number;
  masses(): number;
  linkPairs(): number;
  energy(): number;
  cellsUsed(): number;
  leavesUsed(): number;
  groupsUsed(): number;
  interactionCount(): number;
  configureTree(leafBodies: number, groupBodies: number): void;
  configure(length: number, coefficient: number, gravity: number, theta: number, drag: number, dt: number, centering: number): void;
  computeForces(useTree: number): void;
  step(maxSpeed: number): number;
};

/** The physical model of ngraph.forcelayout, same names and defaults (3D) but theta. */
export type LayoutPhysics = {
  springLength: number;
  springCoefficient: number;
  gravity: number;
  theta: number;
  dragCoefficient: number;
  timeStep: number;
  /** ngraph caps body speed at 1. */
  maxSpeed: number;
  /** Pull towards the origin per unit of mass and distance; 0 (ngraph has none) leaves unlinked nodes adrift. */
  centering: number;
  /** Body mass is 1 + degree × massPerLink (ngraph: 1/3); it scales repulsion and inertia. */
  massPerLink: number;
};

export const DEFAULT_PHYSICS: LayoutPhysics = {
  springLength: 10,
  springCoefficient: 0.8,
  gravity: -12,
  // ngraph uses 0.8 with a test per body; ours tests a whole group's bounding box (stricter),
  // and 1.5 gives the same force error as a per-body 1.2 (about 3.6 % against the exact sum).
  theta: 1.5,
  dragCoefficient: 0.9,
  timeStep: 0.5,
  maxSpeed: 1,
  centering: 0,
  massPerLink: 1 / 3,
};

/**
 * Settled: the movement measure of a step at most this share of the spring length.
 * ngraph's own test is lastMove / n ≤ 0.01, i.e. |(Σ|dx|, Σ|dy|, Σ|dz|)| / n ≤ 0.1:
 * the same bound for its default spring length of 10.
 */
export const SETTLE_RATIO = 0.01;

export type LayoutGraph = {
  count: number;
  /** Flat pairs of node indices [a0, b0, a1, b1, …]. */
  links: Uint32Array;
};

/** Low-level handle on one instance: one graph at a time in its linear memory. */
export type LayoutCore = {
  load(graph: LayoutGraph, positions: Float32Array): void;
  step(maxSpeed: number): number;
  /** Live view of the positions in WebAssembly memory (invalid after load()). */
  positionsView(): Float32Array;
  /** Forces of the current positions, from the octree or exactly (tests). */
  forcesOf(useTree: boolean): Float32Array;
  configure(physics: LayoutPhysics): void;
  /** Most bodies per octree leaf, and per group (the bodies that share one tree walk and interaction list). */
  configureTree(leafBodies: number, groupBodies: number): void;
  energy(): number;
  /** Counters of the last tree force computation. */
  stats(): { cells: number; leaves: number; groups: number; interactions: number };
};

export function instantiateLayoutCore(module: WebAssembly.Module): LayoutCore {
  const instance = new WebAssembly.Instance(module, { env: { abort: () => { throw new Error('layout wasm abort'); } } });
  const x = instance.exports as unknown as Exports;
  let count = 0;
  let massPerLink = DEFAULT_PHYSICS.massPerLink;
  return {
    configure(p) {
      massPerLink = p.massPerLink;
      x.configure(p.springLength, p.springCoefficient, p.gravity, p.theta, p.dragCoefficient, p.timeStep, p.centering);
    },
    load(graph, positions) {
      const m = graph.links.length >> 1;
      if (x.setup(graph.count, m) < 0) throw new Error('layout: out of memory');
      count = graph.count;
      const buffer = x.memory.buffer;
      new Float32Array(buffer, x.positions(), 3 * count).set(positions.subarray(0, 3 * count));
      new Uint32Array(buffer, x.linkPairs(), 2 * m).set(graph.links);
      new Float32Array(buffer, x.masses(), count).set(bodyMasses(graph, massPerLink));
    },
    step: (maxSpeed) => x.step(maxSpeed),
    positionsView: () => new Float32Array(x.memory.buffer, x.positions(), 3 * count),
    forcesOf(useTree) {
      x.computeForces(useTree ? 1 : 0);
      return new Float32Array(x.memory.buffer, x.forces(), 3 * count).slice();
    },
    energy: () => x.energy(),
    configureTree: (leafBodies, groupBodies) => x.configureTree(leafBodies, groupBodies),
    stats: () => ({ cells: x.cellsUsed(), leaves: x.leavesUsed(), groups: x.groupsUsed(), interactions: x.interactionCount() }),
  };
}

// ---------------------------------------------------------------------------------
// Coarsening

type Level = { graph: LayoutGraph; /** parent cluster of each node in the next coarser level */ parent: Uint32Array | null };

/** ngraph's body mass: 1 + degree × massPerLink (1/3 in ngraph). */
export function bodyMasses(graph: LayoutGraph, massPerLink: number): Float32Array {
  const mass = new Float32Array(graph.count);
  for (let i = 0; i < graph.links.length; i++) mass[graph.links[i]]++;
  for (let i = 0; i < graph.count; i++) mass[i] = 1 + mass[i] * massPerLink;
  return mass;
}

function degrees(graph: LayoutGraph): Uint32Array {
  const d = new Uint32Array(graph.count);
  for (let i = 0; i < graph.links.length; i++) d[graph.links[i]]++;
  return d;
}

function adjacency(graph: LayoutGraph, degree: Uint32Array): { start: Uint32Array; list: Uint32Array } {
  const start = new Uint32Array(graph.count + 1);
  for (let i = 0; i < graph.count; i++) start[i + 1] = start[i] + degree[i];
  const fill = start.slice(0, graph.count);
  const list = new Uint32Array(graph.links.length);
  for (let e = 0; e < graph.links.length; e += 2) {
    const a = graph.links[e];
    const b = graph.links[e + 1];
    list[fill[a]++] = b;
    list[fill[b]++] = a;
  }
  return { start, list };
}

const MAX_CLUSTER = 4;

/** One coarsening pass; returns null when it no longer shrinks the graph enough. */
export function coarsen(graph: LayoutGraph): { coarse: LayoutGraph; parent: Uint32Array } | null {
  const n = graph.count;
  const degree = degrees(graph);
  const { start, list } = adjacency(graph, degree);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => degree[a] - degree[b] || a - b);
  const parent = new Int32Array(n).fill(-1);
  const size: number[] = [];
  let clusters = 0;
  for (const v of order) {
    if (parent[v] >= 0) continue;
    let best = -1;
    for (let k = start[v]; k < start[v + 1]; k++) {
      const u = list[k];
      if (u !== v && parent[u] < 0 && (best < 0 || degree[u] < degree[best])) best = u;
    }
    if (best >= 0) {
      parent[v] = parent[best] = clusters;
      size.push(2);
      clusters++;
      continue;
    }
    let join = -1;
    for (let k = start[v]; k < start[v + 1]; k++) {
      const c = parent[list[k]];
      if (c >= 0 && size[c] < MAX_CLUSTER && (join < 0 || size[c] < size[join])) join = c;
    }
    if (join >= 0) {
      parent[v] = join;
      size[join]++;
    } else {
      parent[v] = clusters;
      size.push(1);
      clusters++;
    }
  }
  if (clusters > 0.85 * n) return null;
  const seen = new Set<number>();
  const links: number[] = [];
  for (let e = 0; e < graph.links.length; e += 2) {
    const a = parent[graph.links[e]];
    const b = parent[graph.links[e + 1]];
    if (a === b) continue;
    const key = a < b ? a * clusters + b : b * clusters + a;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push(a, b);
  }
  return { coarse: { count: clusters, links: Uint32Array.from(links) }, parent: Uint32Array.from(parent) };
}

/** Deterministic pseudo-random numbers (mulberry32), so layouts are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------
// The driver

export type LayoutProgress = {
  /** 0 = finest level. */
  level: number;
  levels: number;
  steps: number;
  /** ngraph's movement measure of the last step, |(Σ|dx|, Σ|dy|, Σ|dz|)| / n. */
  movement: number;
  isSettled: boolean;
};

export type LayoutOptions = {
  physics?: Partial<LayoutPhysics>;
  /** Cached positions of the finest graph (3 per node): skip the coarse levels. */
  initial?: Float32Array | null;
  seed?: number;
  /** Step caps per level (a level that has not settled by then moves on). */
  maxStepsCoarse?: number;
  maxStepsFine?: number;
  /** The multilevel schedule (bench/tests tune it; the defaults are measured in bench/README.md). */
  schedule?: Partial<LayoutSchedule>;
};

export type LayoutSchedule = {
  /** Coarsening stops at this many nodes. */
  coarsest: number;
  /** Per-step factor of the speed limit's fall at the start of each level. */
  cooling: number;
  /** Past ngraph's speed limit, the slower fall towards tailFloor × that limit. */
  tailCooling: number;
  tailFloor: number;
  /** How far a prolonged node starts towards its outside neighbours' clusters. */
  pull: number;
  /** Speed limit at the start of a prolonged level, in spring lengths per unit time. */
  prolongedSpeed: number;
  /** Octree leaf and group sizes (wasm/assembly/layout.ts configureTree). */
  leafBodies: number;
  groupBodies: number;
};

export const DEFAULT_SCHEDULE: LayoutSchedule = {
  coarsest: 300,
  cooling: 0.94,
  tailCooling: 0.95,
  tailFloor: 0.25,
  pull: 0.25,
  prolongedSpeed: 3,
  leafBodies: 16,
  groupBodies: 64,
};

export type Layout = {
  /** Runs steps for up to `budgetMs` (or until settled); returns where it stands. */
  advance(budgetMs: number): LayoutProgress;
  /** True once the finest level is the one being laid out (positions() is meaningful). */
  isAtFinest(): boolean;
  /** The graph of the level being laid out (the finest one once isAtFinest()). */
  levelGraph(): LayoutGraph;
  /** Copy of the positions of the level being laid out (3 floats per node): the finest level's once isAtFinest(). */
  positions(): Float32Array;
  progress(): LayoutProgress;
};

export function createLayout(core: LayoutCore, graph: LayoutGraph, options: LayoutOptions = {}): Layout {
  const physics: LayoutPhysics = { ...DEFAULT_PHYSICS, ...options.physics };
  const schedule: LayoutSchedule = { ...DEFAULT_SCHEDULE, ...options.schedule };
  const { cooling: COOLING, tailCooling: TAIL_COOLING, tailFloor: TAIL_FLOOR, pull: PULL } = schedule;
  core.configure(physics);
  core.configureTree(schedule.leafBodies, schedule.groupBodies);
  const random = seededRandom(options.seed ?? 1);
  const maxCoarse = options.maxStepsCoarse ?? 40;
  const maxFine = options.maxStepsFine ?? 600;
  const settleAt = SETTLE_RATIO * physics.springLength;
  // The coarsest level starts from random positions and must travel far; a prolonged
  // level starts near its place; a warm start is at its place.
  let startSpeed = options.initial ? physics.maxSpeed : physics.springLength * 2;
  let fastSteps = 0;
  const setStartSpeed = (speed: number) => {
    startSpeed = speed;
    fastSteps = Math.max(0, Math.ceil(Math.log(physics.maxSpeed / startSpeed) / Math.log(COOLING)));
  };
  setStartSpeed(startSpeed);

  const levels: Level[] = [{ graph, parent: null }];
  const isWarm = Boolean(options.initial && options.initial.length >= 3 * graph.count);
  if (!isWarm) {
    while (levels[levels.length - 1].graph.count > schedule.coarsest) {
      const next = coarsen(levels[levels.length - 1].graph);
      if (!next) break;
      levels[levels.length - 1].parent = next.parent;
      levels.push({ graph: next.coarse, parent: null });
    }
  }

  let level = levels.length - 1;
  let steps = 0;
  let movement = Infinity;
  let isSettled = false;

  function randomStart(count: number): Float32Array {
    const radius = physics.springLength * Math.cbrt(count) * 1.5;
    const out = new Float32Array(3 * count);
    for (let i = 0; i < count; i++) {
      // Uniform in a ball.
      const u = random() * 2 - 1;
      const phi = random() * 2 * Math.PI;
      const r = radius * Math.cbrt(random());
      const s = Math.sqrt(1 - u * u);
      out[3 * i] = r * s * Math.cos(phi);
      out[3 * i + 1] = r * s * Math.sin(phi);
      out[3 * i + 2] = r * u;
    }
    return out;
  }

  if (isWarm) core.load(graph, options.initial as Float32Array);
  else core.load(levels[level].graph, randomStart(levels[level].graph.count));

  /**
   * Places the nodes of level - 1 at their clusters' positions, each pulled a little
   * towards the clusters of its outside neighbours (so that a cluster unfolds facing
   * the way its links go, instead of in a random twist), plus a small jitter.
   */
  function prolong(): void {
    const coarsePos = core.positionsView().slice();
    const fine = levels[level - 1];
    const parent = fine.parent as Uint32Array;
    const scale = Math.cbrt(fine.graph.count / levels[level].graph.count);
    const jitter = physics.springLength * 0.5;
    const count = fine.graph.count;
    const pull = new Float32Array(3 * count);
    const pulls = new Uint32Array(count);
    const links = fine.graph.links;
    for (let e = 0; e < links.length; e += 2) {
      const a = links[e];
      const b = links[e + 1];
      const ca = parent[a];
      const cb = parent[b];
      if (ca === cb) continue;
      for (let d = 0; d < 3; d++) {
        pull[3 * a + d] += coarsePos[3 * cb + d];
        pull[3 * b + d] += coarsePos[3 * ca + d];
      }
      pulls[a]++;
      pulls[b]++;
    }
    const out = new Float32Array(3 * count);
    for (let i = 0; i < count; i++) {
      const c = parent[i];
      for (let d = 0; d < 3; d++) {
        const home = coarsePos[3 * c + d];
        const toward = pulls[i] ? pull[3 * i + d] / pulls[i] : home;
        out[3 * i + d] = (home + PULL * (toward - home)) * scale + (random() - 0.5) * jitter;
      }
    }
    level--;
    steps = 0;
    setStartSpeed(physics.springLength * schedule.prolongedSpeed);
    movement = Infinity;
    core.load(fine.graph, out);
  }

  function progress(): LayoutProgress {
    return { level, levels: levels.length, steps, movement, isSettled };
  }

  return {
    advance(budgetMs) {
      if (isSettled) return progress();
      const until = performance.now() + budgetMs;
      do {
        // Cooling: a level starts with a generous speed limit (whole regions must move
        // far after prolongation) that falls geometrically to ngraph's limit.
        // Past ngraph's limit it keeps falling, slowly, to a quarter of it: the last
        // steps only shave Barnes-Hut noise off positions that have found their place.
        const fast = startSpeed * Math.pow(COOLING, steps);
        const speed = fast > physics.maxSpeed ? fast : Math.max(physics.maxSpeed * TAIL_FLOOR, physics.maxSpeed * Math.pow(TAIL_COOLING, steps - fastSteps));
        movement = core.step(speed);
        steps++;
        const cap = level === 0 ? maxFine : maxCoarse;
        if (movement <= settleAt || steps >= cap) {
          if (level === 0) isSettled = true;
          else prolong();
        }
      } while (!isSettled && performance.now() < until);
      return progress();
    },
    isAtFinest: () => level === 0,
    levelGraph: () => levels[level].graph,
    positions: () => core.positionsView().slice(),
    progress,
  };
}
