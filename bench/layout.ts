/**
 * npm run bench:layout — our WebAssembly force layout (wasm/assembly/layout.ts with the
 * multilevel driver of wasm/layout.ts) against ngraph.forcelayout (the reference the
 * stack names), side by side in one process, on the same generated scale-free graphs.
 *
 * Both run ngraph's physical model in 3D with ngraph's defaults (spring length 10,
 * coefficient 0.8, gravity -12, drag 0.9, time step 0.5; ngraph theta 0.8, ours 1.2) and
 * both stop at ngraph's own stability test (movement ≤ 0.01 × spring length). Reported:
 * time to settle (or the cap), steps, and quality at that point: normalised stress
 * against graph distances (lower is better) and the coefficient of variation of link
 * lengths. ngraph gets a wall-clock cap (it needs minutes); its quality is taken where
 * it stopped. JSON in bench/results/layout.json.
 *
 * Flags: --sizes 10000,50000   --ngraph-cap-s 120   --no-ngraph
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createGraph from 'ngraph.graph';
import createForceLayout from 'ngraph.forcelayout';
import { loadLayoutCoreNode } from '../wasm/load-layout-node.ts';
import { createLayout, DEFAULT_PHYSICS, type LayoutGraph } from '../wasm/layout.ts';
import { edgeLengthCv, layoutStress, scaleFreeGraph } from './layout-graphs.ts';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const sizes = flag('sizes', '10000,50000').split(',').map(Number);
const ngraphCapMs = Number(flag('ngraph-cap-s', '120')) * 1000;
const withNgraph = !process.argv.includes('--no-ngraph');

type Run = { engine: string; nodes: number; links: number; ms: number; steps: number; isSettled: boolean; stress: number; edgeLengthCv: number };

function runOurs(graph: LayoutGraph): Run {
  const started = performance.now();
  const layout = createLayout(loadLayoutCoreNode(), graph);
  let progress = layout.progress();
  let steps = 0;
  while (!progress.isSettled) {
    progress = layout.advance(1e9);
  }
  const ms = performance.now() - started;
  steps = progress.steps;
  const positions = layout.positions();
  return { engine: 'provena-wasm', nodes: graph.count, links: graph.links.length / 2, ms, steps, isSettled: true, stress: layoutStress(graph, positions), edgeLengthCv: edgeLengthCv(graph, positions) };
}

function runNgraph(graph: LayoutGraph): Run {
  const started = performance.now();
  const g = createGraph();
  for (let i = 0; i < graph.count; i++) g.addNode(i);
  for (let e = 0; e < graph.links.length; e += 2) g.addLink(graph.links[e], graph.links[e + 1]);
  const layout = createForceLayout(g, { dimensions: 3 });
  let steps = 0;
  let isSettled = false;
  while (!isSettled && performance.now() - started < ngraphCapMs) {
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
  return { engine: 'ngraph.forcelayout', nodes: graph.count, links: graph.links.length / 2, ms, steps, isSettled, stress: layoutStress(graph, positions), edgeLengthCv: edgeLengthCv(graph, positions) };
}

const runs: Run[] = [];
for (const size of sizes) {
  const graph = scaleFreeGraph(size);
  const ours = runOurs(graph);
  runs.push(ours);
  console.log(`${size} nodes, ${ours.links} links — ours: ${(ours.ms / 1000).toFixed(2)} s, ${ours.steps} steps at the finest level, stress ${ours.stress.toFixed(4)}, edge CV ${ours.edgeLengthCv.toFixed(3)}`);
  if (withNgraph) {
    const ref = runNgraph(graph);
    runs.push(ref);
    console.log(`${size} nodes — ngraph.forcelayout: ${(ref.ms / 1000).toFixed(2)} s${ref.isSettled ? '' : ' (cap, not settled)'}, ${ref.steps} steps, stress ${ref.stress.toFixed(4)}, edge CV ${ref.edgeLengthCv.toFixed(3)}`);
  }
}

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'layout.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, physics: DEFAULT_PHYSICS, ngraphCapMs, runs }, null, 2) + '\n',
);
console.log(`results in ${path.relative(process.cwd(), out)}`);
