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
 * The graphs' node ids are shuffled (shuffledGraph): the generator numbers nodes in the
 * order it grows the graph, and ngraph places each new body at the mean of its
 * lower-numbered neighbours, which replays the generator; enterprise ids on the map
 * carry no such order. --ordered adds the growth-ordered 10 000-node graph for the record.
 *
 * Quality varies from one graph to another and with the random start by about as much
 * as the two engines differ, so the run compares both engines on a second graph of the
 * quality size (--quality-seeds) and lays each quality-size graph out with 8 random
 * starts of ours (median, min–max beside the default start's figure; ngraph has no seed).
 *
 * Flags: --sizes 10000,50000  --repeats 3  --ngraph-cap-s 60 (graphs above the quality
 *        size)  --ngraph-quality-cap-s 240  --quality-size 10000  --quality-seeds 8
 *        --starts 8  --ordered  --no-ngraph
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
import { checkLayout, edgeLengthCv, layoutStress, scaleFreeGraph, shuffledGraph } from './layout-graphs.ts';

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
const withOrdered = process.argv.includes('--ordered');
const starts = Math.max(1, Number(flag('starts', '8')));
const TIMED_SEED = 7;
/** ngraph at the quality size settles in about a minute on a quiet 2-core machine; a busy one gets this long. */
const SAFETY_CAP_MS = Number(flag('ngraph-quality-cap-s', '240')) * 1000;

type Run = {
  engine: 'provena-wasm' | 'ngraph.forcelayout';
  graphSeed: number;
  /** Node ids in the generator's growth order (else shuffled). */
  isOrdered: boolean;
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
  /** Ours on quality-size graphs: stress with other random starts (layout seeds 1…starts). */
  stressByStart?: number[];
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

function runOurs(graph: LayoutGraph, graphSeed: number, isOrdered: boolean, times: number): Run {
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
    isOrdered,
    nodes: graph.count,
    links: graph.links.length / 2,
    ms: median(msRuns),
    msRuns,
    steps,
    isSettled: true,
    ...quality(graph, positions, `ours, ${graph.count} nodes, graph ${graphSeed}${isOrdered ? ' (ordered)' : ''}`),
    loadAverage: os.loadavg()[0],
  };
}

function runNgraph(graph: LayoutGraph, graphSeed: number, isOrdered: boolean, capMs: number): Run {
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
    isOrdered,
    nodes: graph.count,
    links: graph.links.length / 2,
    ms,
    msRuns: [ms],
    steps,
    isSettled,
    ...quality(graph, positions, `ngraph, ${graph.count} nodes, graph ${graphSeed}${isOrdered ? ' (ordered)' : ''}`),
    loadAverage: os.loadavg()[0],
  };
}

const loadBefore = os.loadavg();
console.log(`load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);

/** Stress of ours from random starts 1…starts (seed 1 is the default start). */
function stressByStart(graph: LayoutGraph): number[] {
  const out: number[] = [];
  for (let seed = 1; seed <= starts; seed++) {
    const layout = createLayout(loadLayoutCoreNode(), graph, { seed });
    let progress = layout.progress();
    while (!progress.isSettled) progress = layout.advance(1e9);
    const positions = layout.positions();
    out.push(quality(graph, positions, `ours, ${graph.count} nodes, start ${seed}`).stress);
  }
  return out;
}

function compare(graph: LayoutGraph, graphSeed: number, isOrdered: boolean, oursRepeats: number, ngraphCap: number): void {
  const ours = runOurs(graph, graphSeed, isOrdered, oursRepeats);
  if (graph.count === qualitySize && starts > 1) ours.stressByStart = stressByStart(graph);
  runs.push(ours);
  if (withNgraph) runs.push(runNgraph(graph, graphSeed, isOrdered, ngraphCap));
}

// Timed graphs: ours repeated (median), ngraph once with its cap.
for (const size of sizes) compare(shuffledGraph(scaleFreeGraph(size, TIMED_SEED)), TIMED_SEED, false, repeats, size > qualitySize ? ngraphCapMs : SAFETY_CAP_MS);
// Further graphs of the quality size: quality (each engine once).
for (const seed of qualitySeeds) compare(shuffledGraph(scaleFreeGraph(qualitySize, seed)), seed, false, 1, SAFETY_CAP_MS);
if (withOrdered) compare(scaleFreeGraph(qualitySize, TIMED_SEED), TIMED_SEED, true, 1, SAFETY_CAP_MS);

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log('\n| graph | engine | time to settle | steps | stress | link-length CV | load |');
console.log('|---|---|---|---|---|---|---|');
for (const r of runs) {
  const time = r.engine === 'provena-wasm' ? `${s(r.ms)} (median of ${r.msRuns.length}: ${r.msRuns.map((m) => (m / 1000).toFixed(2)).join(' / ')})` : r.isSettled ? s(r.ms) : `not settled at the ${s(r.ms)} cap`;
  const spread = r.stressByStart ? ` (${r.stressByStart.length} starts: median ${median(r.stressByStart).toFixed(4)}, ${Math.min(...r.stressByStart).toFixed(4)}–${Math.max(...r.stressByStart).toFixed(4)})` : '';
  console.log(`| ${r.nodes} nodes, ${r.links} links, seed ${r.graphSeed}${r.isOrdered ? ', growth-ordered ids' : ''} | ${r.engine} | ${time} | ${r.steps}${r.engine === 'provena-wasm' ? ' (finest level)' : ''} | ${r.stress.toFixed(4)}${spread} | ${r.edgeLengthCv.toFixed(3)} | ${r.loadAverage.toFixed(2)} |`);
}

// Quality side by side where both settled on the same graph.
const pairs: Array<{ label: string; ours: Run; ref: Run }> = [];
for (const ours of runs.filter((r) => r.engine === 'provena-wasm')) {
  const ref = runs.find((r) => r.engine === 'ngraph.forcelayout' && r.nodes === ours.nodes && r.graphSeed === ours.graphSeed && r.isOrdered === ours.isOrdered);
  if (ref?.isSettled) pairs.push({ label: `${ours.nodes} nodes, graph ${ours.graphSeed}${ours.isOrdered ? ' (growth-ordered ids)' : ''}`, ours, ref });
}
const pct = (a: number, b: number) => `${a <= b ? '' : '+'}${(((a - b) / b) * 100).toFixed(1)} %`;
if (pairs.length) {
  console.log('\nquality where both settled, ours vs ngraph (lower is better):');
  for (const p of pairs) {
    const spread = p.ours.stressByStart ? `; ours over ${p.ours.stressByStart.length} starts median ${median(p.ours.stressByStart).toFixed(4)} (${pct(median(p.ours.stressByStart), p.ref.stress)})` : '';
    console.log(`  ${p.label}: stress ${p.ours.stress.toFixed(4)} vs ${p.ref.stress.toFixed(4)} (${pct(p.ours.stress, p.ref.stress)})${spread}; link CV ${p.ours.edgeLengthCv.toFixed(3)} vs ${p.ref.edgeLengthCv.toFixed(3)} (${pct(p.ours.edgeLengthCv, p.ref.edgeLengthCv)})`);
  }
}
for (const ref of runs.filter((r) => r.engine === 'ngraph.forcelayout' && !r.isSettled)) {
  const ours = runs.find((r) => r.engine === 'provena-wasm' && r.nodes === ref.nodes && r.graphSeed === ref.graphSeed && r.isOrdered === ref.isOrdered)!;
  console.log(`  ${ref.nodes} nodes: ngraph had not settled after ${s(ref.ms)} (${ref.steps} steps); its layout there: stress ${ref.stress.toFixed(4)}, link CV ${ref.edgeLengthCv.toFixed(3)}; ours settled in ${s(ours.ms)}: ${ours.stress.toFixed(4)}, ${ours.edgeLengthCv.toFixed(3)}`);
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
