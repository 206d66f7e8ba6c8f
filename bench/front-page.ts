/**
 * The public front page in headless Chromium with 4x CPU throttling: largest
 * contentful paint, total blocking time and bytes transferred, for the server-rendered page
 * (ours) and, as the baseline, the same build served without the SSR bundle (the app draws
 * the page itself). The server sends no Content-Encoding, so the JavaScript is also reported
 * gzipped (zlib level 6, what a compressing proxy would send), against the 150 KB goal.
 *
 *   node bench/front-page.ts [--runs 5] [--port 8415]
 *
 * Needs a built app (npm run build, or scripts/build-if-stale.ts). Writes bench/results/front-page.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const RUNS = option('runs', 5);
const PORT = option('port', 8415);
const root = process.cwd();
const appDir = path.join(root, 'dist', 'app');
if (!fs.existsSync(path.join(appDir, 'index.html')) || !fs.existsSync(path.join(`${appDir}-ssr`, 'render.js'))) {
  console.error('build the app first: node scripts/build-if-stale.ts');
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-front-bench-'));
const configFile = path.join(tmp, 'provena.json');
fs.writeFileSync(configFile, JSON.stringify({ frontPageAvailable: true, cooperation: { name: '西安数字产权合作有限公司' } }));
// The baseline: the same files in a folder with no "-ssr" sibling, so the server has no SSR bundle.
const plainDir = path.join(tmp, 'plain-app');
fs.cpSync(appDir, plainDir, { recursive: true });

async function startServer(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(tmp, `data-${port}`), APP_DIR: dir, PROVENA_CONFIG: configFile, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

type Run = { lcpMs: number; fcpMs: number; tbtMs: number; transferredBytes: number; jsBytes: number; jsGzipBytes: number; lcpElement: string };

async function measure(browser: Browser, url: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const types = new Map<string, string>();
  const urls = new Map<string, string>();
  let transferred = 0;
  let jsBytes = 0;
  const jsUrls: string[] = [];
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    urls.set(e.requestId, e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => {
    transferred += e.encodedDataLength;
    if (types.get(e.requestId) === 'Script') {
      jsBytes += e.encodedDataLength;
      jsUrls.push(urls.get(e.requestId) ?? '');
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number; __lcpEl: string; __long: Array<{ start: number; duration: number }> };
    w.__lcp = 0;
    w.__lcpEl = '';
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element }>) {
        w.__lcp = entry.startTime;
        w.__lcpEl = entry.element ? `${entry.element.tagName.toLowerCase()} ${(entry.element.textContent ?? '').slice(0, 40)}` : '';
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__long.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  const result = await page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __lcpEl: string; __long: Array<{ start: number; duration: number }> };
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    // Lighthouse's TBT: the part of each long task over 50 ms, after the first contentful paint.
    const tbt = w.__long.filter((t) => t.start + t.duration > fcp).reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
    return { lcp: w.__lcp, fcp, tbt, lcpEl: w.__lcpEl };
  });
  let gz = 0;
  for (const u of jsUrls) gz += gzipSync(Buffer.from(await (await fetch(u)).arrayBuffer()), { level: 6 }).length;
  await context.close();
  return { lcpMs: Math.round(result.lcp), fcpMs: Math.round(result.fcp), tbtMs: Math.round(result.tbt), transferredBytes: transferred, jsBytes, jsGzipBytes: gz, lcpElement: result.lcpEl };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const ssrServer = await startServer(appDir, PORT);
const plainServer = await startServer(plainDir, PORT + 1);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const out: Record<string, unknown> = {
  what: 'front page / (zh), 1440x900, headless Chromium, CPU throttled 4x, loopback, cache disabled; median of runs (runs interleaved)',
  date: new Date().toISOString(),
  runs: RUNS,
  machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, Chromium ${browser.version()}`,
};
try {
  const series: Record<'ssr' | 'spa', Run[]> = { ssr: [], spa: [] };
  await measure(browser, `http://127.0.0.1:${PORT}/?lang=zh`); // warm the server (figures, render cache)
  await measure(browser, `http://127.0.0.1:${PORT + 1}/?lang=zh`);
  for (let i = 0; i < RUNS; i++) {
    series.ssr.push(await measure(browser, `http://127.0.0.1:${PORT}/?lang=zh`));
    series.spa.push(await measure(browser, `http://127.0.0.1:${PORT + 1}/?lang=zh`));
  }
  for (const [name, runs] of Object.entries(series)) {
    const keys = ['lcpMs', 'fcpMs', 'tbtMs', 'transferredBytes', 'jsBytes', 'jsGzipBytes'] as const;
    out[name === 'ssr' ? 'server-rendered (ours)' : 'app-rendered (baseline: same build, no SSR bundle)'] = {
      ...Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])),
      lcpElement: runs.at(-1)?.lcpElement,
      all: runs.map((r) => ({ lcpMs: r.lcpMs, tbtMs: r.tbtMs })),
    };
  }
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'front-page.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log(JSON.stringify(out, null, 2));
} finally {
  await browser.close();
  ssrServer.kill('SIGTERM');
  plainServer.kill('SIGTERM');
  setTimeout(() => fs.rmSync(tmp, { recursive: true, force: true }), 500);
}
