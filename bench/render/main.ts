/**
 * Page of bench/render.ts: draws one graph (same nodes, links and positions) with our
 * GraphScene or with 3d-force-graph, and reports per animation frame both the main
 * thread's CPU time (every requestAnimationFrame callback is timed, so each library is
 * measured in its own frame loop, camera turning) and the wall-clock time between frames
 * (what a viewer sees: GPU work, here SwiftShader's, included). Each engine stops at its
 * time cap (capMs, counted from the page's start, setup included) with what it has.
 */
import ForceGraph3D from '3d-force-graph';
import { GraphScene } from '../../src/features/map/graph-scene.ts';
import { scaleFreeGraph } from '../layout-graphs.ts';
import { seededRandom } from '../../wasm/layout.ts';

type Result = {
  engine: string;
  nodes: number;
  links: number;
  frames: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  /** Wall-clock time between successive frames (GPU work included): mean, p95, and frames per second. */
  wallMeanMs: number;
  wallP95Ms: number;
  fps: number;
  setupMs: number;
  positionsUpdateMs: number | null;
  /** True when the time cap ended the run before `frames` frames. */
  isCapped: boolean;
};

const params = new URLSearchParams(location.search);
const engine = params.get('engine') ?? 'ours';
const nodes = Number(params.get('nodes') ?? 50000);
const frames = Number(params.get('frames') ?? 120);
const isMoving = params.get('moving') === '1';
const deadline = performance.now() + Number(params.get('capMs') ?? 60000);

// Time every animation-frame callback.
const durations: number[] = [];
/** Start times of the frame callbacks: their differences are the wall-clock frame times. */
const starts: number[] = [];
/** Time to take a new positions frame (copy into the shared buffer, mark for upload). */
const updates: number[] = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) =>
  raf((t) => {
    const started = performance.now();
    starts.push(started);
    callback(t);
    durations.push(performance.now() - started);
  });

function summary(setupMs: number, links: number): Result {
  // Warm-up frames left out (when there are enough to spare).
  const skip = durations.length > 20 ? 5 : 1;
  const d = durations.slice(skip).sort((a, b) => a - b);
  const mean = d.reduce((s, x) => s + x, 0) / Math.max(1, d.length);
  const intervals = starts.slice(skip).map((t, i, all) => (i === 0 ? NaN : t - all[i - 1]!)).filter(Number.isFinite).sort((a, b) => a - b);
  const wallMean = intervals.reduce((s, x) => s + x, 0) / Math.max(1, intervals.length);
  const positionsUpdateMs = updates.length ? updates.reduce((s, x) => s + x, 0) / updates.length : null;
  return {
    engine,
    nodes,
    links,
    frames: d.length,
    meanMs: mean,
    p50Ms: d[Math.floor(d.length / 2)] ?? 0,
    p95Ms: d[Math.floor(d.length * 0.95)] ?? 0,
    wallMeanMs: wallMean,
    wallP95Ms: intervals[Math.floor(intervals.length * 0.95)] ?? 0,
    fps: wallMean > 0 ? 1000 / wallMean : 0,
    setupMs,
    positionsUpdateMs,
    isCapped: durations.length < frames,
  };
}

const isRunning = () => durations.length < frames && performance.now() < deadline;

async function run(): Promise<Result> {
  const graph = scaleFreeGraph(nodes, 11, 2);
  const random = seededRandom(3);
  const radius = 10 * Math.cbrt(nodes) * 1.5;
  const positions = Float32Array.from({ length: 3 * nodes }, () => (random() * 2 - 1) * radius);
  const stage = document.getElementById('stage')!;
  const linkCount = graph.links.length / 2;
  const started = performance.now();
  if (engine === 'ours') {
    const scene = new GraphScene(stage, { background: '#0b1220', linkColor: '#5b7aa6', linkOpacity: 0.35, isAutoRotating: true, autoRotateSpeed: 2 });
    const sizes = new Float32Array(nodes).fill(5);
    const colors = new Float32Array(3 * nodes).fill(0.8);
    scene.setGraph(nodes, graph.links, sizes, colors);
    scene.setPositions(positions);
    const setupMs = performance.now() - started;
    durations.length = 0;
    // While a layout runs, every frame also takes new positions.
    if (isMoving) {
      const next = positions.slice();
      const tick = () => {
        for (let i = 0; i < next.length; i += 97) next[i] += 0.01;
        const at = performance.now();
        scene.setPositions(next);
        updates.push(performance.now() - at);
        if (isRunning()) setTimeout(tick, 16);
      };
      tick();
    }
    while (isRunning()) await new Promise((r) => setTimeout(r, 50));
    return summary(setupMs, linkCount);
  }
  // 3d-force-graph with the same positions fixed (fx/fy/fz) and its engine idle after one tick.
  const data = {
    nodes: Array.from({ length: nodes }, (_, i) => ({ id: i, fx: positions[3 * i], fy: positions[3 * i + 1], fz: positions[3 * i + 2] })),
    links: Array.from({ length: linkCount }, (_, k) => ({ source: graph.links[2 * k], target: graph.links[2 * k + 1] })),
  };
  const fg = new ForceGraph3D(stage, { controlType: 'orbit' }).width(1280).height(720).backgroundColor('#0b1220').cooldownTicks(1).graphData(data);
  const setupMs = performance.now() - started;
  let angle = 0;
  durations.length = 0;
  const turn = () => {
    angle += 0.01;
    fg.cameraPosition({ x: radius * 3 * Math.sin(angle), z: radius * 3 * Math.cos(angle) });
    if (isRunning()) setTimeout(turn, 16);
  };
  turn();
  while (isRunning()) await new Promise((r) => setTimeout(r, 50));
  return summary(setupMs, linkCount);
}

run().then(
  (result) => ((window as unknown as { __result: unknown }).__result = result),
  (error: unknown) => ((window as unknown as { __result: unknown }).__result = { error: String(error) }),
);
