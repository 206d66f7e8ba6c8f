/**
 * npm run bench:render — main-thread CPU time per animation frame for a 50 000-node,
 * 100 000-link graph in headless Chromium: our GraphScene (src/features/map/graph-scene.ts:
 * one Points and one indexed LineSegments draw call) against 3d-force-graph (the library
 * the stack names, one mesh per node and per link) on the same nodes, links and positions,
 * side by side in one run. The camera turns every frame; "moving" adds new positions every
 * frame, as while the layout runs. WebGL here is software (SwiftShader): the GPU work lands
 * in Chromium's GPU process; both the page's own frame callback (main-thread CPU) and the
 * wall-clock time between frames (GPU work included) are reported.
 *
 * Every engine run is bounded by its cap (setup included): what it drew by then is
 * reported, and a run whose page gives no answer by its cap is recorded as such. The JSON
 * (bench/results/render.json) is written whatever happens, after each run.
 *
 * Flags: --nodes 50000  --frames 120  --cap-s 60  --baseline-cap-s 90  --no-baseline
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const nodes = Number(flag('nodes', '50000'));
const frames = Number(flag('frames', '120'));
const capMs = Number(flag('cap-s', '60')) * 1000;
const baselineCapMs = Number(flag('baseline-cap-s', '90')) * 1000;
const withBaseline = !process.argv.includes('--no-baseline');

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-render-bench-'));
await build({
  configFile: false,
  root: path.join(here, 'render'),
  logLevel: 'warn',
  resolve: { alias: { '@/': `${path.join(root, 'src')}/` } },
  build: { outDir, emptyOutDir: true, target: 'es2023' },
});

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const file = path.join(outDir, url.pathname === '/' ? 'index.html' : url.pathname);
  if (!file.startsWith(outDir) || !fs.existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

// Software WebGL: SwiftShader through ANGLE (never --disable-software-rasterizer).
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});

type Result = {
  engine: string;
  nodes: number;
  links?: number;
  frames?: number;
  meanMs?: number;
  p50Ms?: number;
  p95Ms?: number;
  wallMeanMs?: number;
  wallP95Ms?: number;
  fps?: number;
  setupMs?: number;
  positionsUpdateMs?: number | null;
  isCapped?: boolean;
  capS: number;
  moving?: boolean;
  error?: string;
};

/** One engine's run: the page stops itself at the cap; a page that cannot even answer by then (a setup longer than the cap) is closed and said so. */
async function measure(engine: string, moving: boolean, cap: number): Promise<Result> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`http://127.0.0.1:${port}/?engine=${engine}&nodes=${nodes}&frames=${frames}&moving=${moving ? 1 : 0}&capMs=${cap}`, { timeout: cap });
    await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result, undefined, { timeout: cap + 15_000, polling: 500 });
    const result = (await page.evaluate(() => (window as unknown as { __result: Result }).__result)) as Result;
    return { ...result, engine, nodes, capS: cap / 1000, moving };
  } catch (error) {
    return { engine, nodes, capS: cap / 1000, moving, error: `no result within the ${cap / 1000} s cap: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  } finally {
    await page.close().catch(() => undefined);
  }
}

const out = path.join(here, 'results', 'render.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
const results: Result[] = [];
const save = () => fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model }, webgl: 'SwiftShader (software)', viewport: '1280x720', nodes, frames, results }, null, 2) + '\n');
const say = (r: Result, label: string) =>
  console.log(
    r.error
      ? `${label}: ${r.error}`
      : `${label}: main thread ${r.meanMs!.toFixed(2)} ms/frame mean (p50 ${r.p50Ms!.toFixed(2)}, p95 ${r.p95Ms!.toFixed(2)}); wall clock ${r.wallMeanMs!.toFixed(1)} ms/frame (p95 ${r.wallP95Ms!.toFixed(1)}, ${r.fps!.toFixed(1)} fps) over ${r.frames} frames${r.isCapped ? ` (cut at the ${r.capS} s cap)` : ''}; setup ${r.setupMs!.toFixed(0)} ms${r.positionsUpdateMs == null ? '' : `, taking a positions frame ${r.positionsUpdateMs.toFixed(2)} ms`}`,
  );
try {
  for (const moving of [false, true]) {
    const ours = await measure('ours', moving, capMs);
    results.push(ours);
    save();
    say(ours, `ours${moving ? ' (new positions every frame)' : ''}`);
  }
  if (withBaseline) {
    const ref = await measure('3d-force-graph', false, baselineCapMs);
    results.push(ref);
    save();
    say(ref, '3d-force-graph');
  }
} finally {
  save();
  await browser.close();
  server.close();
  fs.rmSync(outDir, { recursive: true, force: true });
}
console.log(`results in ${path.relative(process.cwd(), out)}`);
