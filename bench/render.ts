/**
 * npm run bench:render — main-thread CPU time per animation frame for a 50 000-node,
 * 100 000-link graph in headless Chromium: our GraphScene (src/features/map/graph-scene.ts:
 * one Points and one indexed LineSegments draw call) against 3d-force-graph (the library
 * the stack names, one mesh per node and per link) on the same nodes, links and positions,
 * side by side in one run. The camera turns every frame; "moving" adds new positions every
 * frame, as while the layout runs. WebGL here is software (SwiftShader): the GPU work lands
 * in Chromium's GPU process, and what is measured is the page's own frame callback.
 * JSON in bench/results/render.json.
 *
 * Flags: --nodes 50000  --frames 120  --baseline-cap-s 90  --no-baseline
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

type Result = { engine: string; nodes: number; links: number; frames: number; meanMs: number; p50Ms: number; p95Ms: number; setupMs: number; positionsUpdateMs: number | null; moving?: boolean; error?: string };

async function measure(engine: string, moving: boolean, capMs: number): Promise<Result> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://127.0.0.1:${port}/?engine=${engine}&nodes=${nodes}&frames=${frames}&moving=${moving ? 1 : 0}&capMs=${capMs}`);
  await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result, undefined, { timeout: capMs + 240_000, polling: 500 });
  const result = (await page.evaluate(() => (window as unknown as { __result: Result }).__result)) as Result;
  await page.close();
  return { ...result, moving };
}

const results: Result[] = [];
for (const moving of [false, true]) {
  const ours = await measure('ours', moving, 120_000);
  results.push(ours);
  console.log(`ours${moving ? ' (new positions every frame)' : ''}: ${ours.meanMs.toFixed(2)} ms/frame mean, p50 ${ours.p50Ms.toFixed(2)}, p95 ${ours.p95Ms.toFixed(2)} over ${ours.frames} frames (setup ${ours.setupMs.toFixed(0)} ms${ours.positionsUpdateMs === null ? '' : `, taking a positions frame ${ours.positionsUpdateMs.toFixed(2)} ms`})`);
}
if (withBaseline) {
  const ref = await measure('3d-force-graph', false, baselineCapMs);
  results.push(ref);
  console.log(`3d-force-graph: ${ref.meanMs.toFixed(2)} ms/frame mean, p50 ${ref.p50Ms.toFixed(2)}, p95 ${ref.p95Ms.toFixed(2)} over ${ref.frames} frames (setup ${ref.setupMs.toFixed(0)} ms)`);
}
await browser.close();
server.close();
fs.rmSync(outDir, { recursive: true, force: true });

const out = path.join(here, 'results', 'render.json');
fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model }, webgl: 'SwiftShader (software)', viewport: '1280x720', nodes, results }, null, 2) + '\n');
console.log(`results in ${path.relative(process.cwd(), out)}`);
