/**
 * npm run bench:layout — our WebAssembly force layout (wasm/assembly/layout.ts with the
 * multilevel driver of wasm/layout.ts) against ngraph.forcelayout (the reference the
 * issue names), side by side in one process, on the same generated scale-free graphs.
 *
 * Both lay out the same forces in 3D (ngraph's springs, body masses 1 + degree / 3 and
 * 1/r² repulsion with its default constants: spring length 10, coefficient 0.8, gravity
 * -12); ngraph runs entirely with its defaults (theta 0.8, drag 0.9, time step 0.5), ours
 * with its own integrator settings (DEFAULT_PHYSICS). Both stop at ngraph's stability
 * test (movement ≤ 0.01 × spring length). Reported: time to settle, steps, and quality
 * at that point, computed by the same functions for both: normalised stress against
 * BFS graph distances from 24 sources (lower is better) and the coefficient of variation
 * of link lengths. Every layout is checked (finite, not collapsed) and the run fails
 * otherwise. ngraph gets a wall-clock cap (it needs minutes at 50 000 nodes); where it
 * has not settled, its quality is taken where it stopped and the table says so.
 *
 * Quality varies from one graph to another (and with the random start) by about as much
 * as the two engines differ, so besides the timed graphs (seed 7) the run compares both
 * engines on further graphs of the quality size (--quality-seeds) and reports medians.
 *
 * Flags: --sizes 10000,50000  --repeats 3  --ngraph-cap-s 60 (graphs above the quality
 *        size)  --ngraph-quality-cap-s 240  --quality-size 10000  --quality-seeds 8  --no-ngraph
 * JSON in bench/results/layout.json; the machine's load average is recorded with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createGraph from 'ngraph.graph';
import createForceLayout from 'ngraph.forcelayout';
import { loadLayoutCoreNode } from '../wasm/load-layout-node.ts';
import { createLayout, DEFAULT_PHYSICS, DEFAULT_SCHEDULE, type LayoutGraph } from '../wasm/layout.ts';
import { checkLayout, edgeLengthCv, layoutStress, scaleFreeGraph } from './layout-graphs.ts';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const list = (text: string) => text.split(',').filter(Boolean).map(Number);
const sizes = list(flag('sizes', '10000,50000'));
const repeats = Math.max(1, Number(flag('repeats', '3')));
const ngraphCapMs = Number(flag('ngraph-cap-s', '60')) * 1000;
const qualitySize = Number(flag('quality-size', '10000'));
const qualitySeeds = list(flag('quality-seeds', '8'));
const withNgraph = !process.argv.includes('--no-ngraph');
const TIMED_SEED = 7;
/** ngraph at the quality size settles in about a minute on a quiet 2-core machine; a busy one gets this long. */
const SAFETY_CAP_MS = Number(flag('ngraph-quality-cap-s', '240')) * 1000;

type Run = {
  engine: 'provena-wasm' | 'ngraph.forcelayout';
  graphSeed: number;
  nodes: number;
  links: number;
  /** Time to settle (ours: median of the repeats), or to the cap. */
  ms: number;
  msRuns: number[];
  steps: number;
  isSettled: boolean;
  stress: number;
  edgeLengthCv: number;
  loadAverage: number;
};

const failures: string[] = [];
const runs: Run[] = [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function quality(graph: LayoutGraph, positions: Float32Array, label: string): { stress: number; edgeLengthCv: number } {
  const problem = checkLayout(graph, positions, DEFAULT_PHYSICS.springLength);
  if (problem) failures.push(`${label}: ${problem}`);
  return { stress: layoutStress(graph, positions), edgeLengthCv: edgeLengthCv(graph, positions) };
}

function runOurs(graph: LayoutGraph, graphSeed: number, times: number): Run {
  const msRuns: number[] = [];
  let positions: Float32Array = new Float32Array(0);
  let steps = 0;
  for (let r = 0; r < times; r++) {
    const started = performance.now();
    const layout = createLayout(loadLayoutCoreNode(), graph);
    let progress = layout.progress();
    while (!progress.isSettled) progress = layout.advance(1e9);
    msRuns.push(performance.now() - started);
    const now = layout.positions();
    // The layout is deterministic: every repeat must give the same positions.
    if (r > 0 && !now.every((v, i) => v === positions[i])) failures.push(`ours, ${graph.count} nodes: repeat ${r + 1} differs from the first`);
    positions = now;
    steps = progress.steps;
  }
  return {
    engine: 'provena-wasm',
    graphSeed,
    nodes: graph.count,
    links: graph.links.length / 2,
    ms: median(msRuns),
    msRuns,
    steps,
    isSettled: true,
    ...quality(graph, positions, `ours, ${graph.count} nodes, graph ${graphSeed}`),
    loadAverage: os.loadavg()[0],
  };
}

function runNgraph(graph: LayoutGraph, graphSeed: number, capMs: number): Run {
  const started = performance.now();
  const g = createGraph();
  for (let i = 0; i < graph.count; i++) g.addNode(i);
  for (let e = 0; e < graph.links.length; e += 2) g.addLink(graph.links[e], graph.links[e + 1]);
  const layout = createForceLayout(g, { dimensions: 3 });
  let steps = 0;
  let isSettled = false;
  while (!isSettled && performance.now() - started < capMs) {
    isSettled = layout.step();
    steps++;
  }
  const ms = performance.now() - started;
  const positions = new Float32Array(3 * graph.count);
  for (let i = 0; i < graph.count; i++) {
    const p = layout.getNodePosition(i);
    positions[3 * i] = p.x;
    positions[3 * i + 1] = p.y;
    positions[3 * i + 2] = p.z ?? 0;
  }
  return {
    engine: 'ngraph.forcelayout',
    graphSeed,
    nodes: graph.count,
    links: graph.links.length / 2,
    ms,
    msRuns: [ms],
    steps,
    isSettled,
    ...quality(graph, positions, `ngraph, ${graph.count} nodes, graph ${graphSeed}`),
    loadAverage: os.loadavg()[0],
  };
}

const loadBefore = os.loadavg();
console.log(`load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);

// Timed graphs: ours repeated (median), ngraph once with its cap.
for (const size of sizes) {
  const graph = scaleFreeGraph(size, TIMED_SEED);
  runs.push(runOurs(graph, TIMED_SEED, repeats));
  if (withNgraph) runs.push(runNgraph(graph, TIMED_SEED, size > qualitySize ? ngraphCapMs : SAFETY_CAP_MS));
}
// Further graphs of the quality size: quality only (each engine once).
if (withNgraph) {
  for (const seed of qualitySeeds) {
    const graph = scaleFreeGraph(qualitySize, seed);
    runs.push(runOurs(graph, seed, 1));
    runs.push(runNgraph(graph, seed, SAFETY_CAP_MS));
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log('\n| graph | engine | time to settle | steps | stress | link-length CV | load |');
console.log('|---|---|---|---|---|---|---|');
for (const r of runs) {
  const time = r.engine === 'provena-wasm' ? `${s(r.ms)} (median of ${r.msRuns.length}: ${r.msRuns.map((m) => (m / 1000).toFixed(2)).join(' / ')})` : r.isSettled ? s(r.ms) : `not settled at the ${s(r.ms)} cap`;
  console.log(`| ${r.nodes} nodes, ${r.links} links, seed ${r.graphSeed} | ${r.engine} | ${time} | ${r.steps}${r.engine === 'provena-wasm' ? ' (finest level)' : ''} | ${r.stress.toFixed(4)} | ${r.edgeLengthCv.toFixed(3)} | ${r.loadAverage.toFixed(2)} |`);
}

// Quality side by side where both settled on the same graph.
const pairs: Array<{ nodes: number; seed: number; ours: Run; ref: Run }> = [];
for (const ours of runs.filter((r) => r.engine === 'provena-wasm')) {
  const ref = runs.find((r) => r.engine === 'ngraph.forcelayout' && r.nodes === ours.nodes && r.graphSeed === ours.graphSeed);
  if (ref?.isSettled) pairs.push({ nodes: ours.nodes, seed: ours.graphSeed, ours, ref });
}
if (pairs.length) {
  console.log('\nquality where both settled (ours / ngraph):');
  for (const p of pairs) console.log(`  ${p.nodes} nodes, graph ${p.seed}: stress ${p.ours.stress.toFixed(4)} / ${p.ref.stress.toFixed(4)} (${(((p.ours.stress - p.ref.stress) / p.ref.stress) * 100).toFixed(1)} %), link CV ${p.ours.edgeLengthCv.toFixed(3)} / ${p.ref.edgeLengthCv.toFixed(3)}`);
  const oursMedian = median(pairs.map((p) => p.ours.stress));
  const refMedian = median(pairs.map((p) => p.ref.stress));
  console.log(`  median stress over ${pairs.length} graph(s): ours ${oursMedian.toFixed(4)}, ngraph ${refMedian.toFixed(4)}`);
}

const loadAfter = os.loadavg();
console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'layout.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadBefore, loadAfter },
      physics: DEFAULT_PHYSICS,
      schedule: DEFAULT_SCHEDULE,
      ngraphCapMs,
      runs,
      failures,
    },
    null,
    2,
  ) + '\n',
);
console.log(`results in ${path.relative(process.cwd(), out)}`);
if (failures.length) {
  console.error(`FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
