/**
 * The public front page in headless Chromium with 4x CPU throttling (CDP
 * Emulation.setCPUThrottlingRate): largest contentful paint (PerformanceObserver
 * 'largest-contentful-paint'), total blocking time (long tasks after the first contentful
 * paint, less 50 ms each) and bytes transferred, for this build and, as the baseline, an older
 * revision (default a1bf510: the public pages served with the app's entry, before they had
 * their own) built into a temporary folder with its own server. Runs interleave
 * (baseline, this build, baseline, ...), medians are reported, and the load average of the
 * (shared) machine is recorded before and after every run. JavaScript is also reported
 * gzipped (zlib level 6) against the 150 KB goal; the server sends the brotli copies.
 *
 *   node bench/front-page.ts [--runs 5] [--port 8415] [--baseline-rev a1bf510]
 *
 * Needs a built app (npm run build, or scripts/build-if-stale.ts). Writes bench/front-page.json.
 */
import { execFileSync, execSync, spawn, type ChildProcess } from 'node:child_process';
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
const textOption = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const BASELINE_REV = textOption('baseline-rev', 'a1bf510');
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
// The baseline: the older revision's tree (git archive), this checkout's node_modules, built
// as `npm run build` builds (app, SSR bundle, precompressed copies) and served by its own server.
const baseRoot = path.join(tmp, 'baseline');
fs.mkdirSync(baseRoot);
execSync(`git archive ${BASELINE_REV} | tar -x -C ${JSON.stringify(baseRoot)}`, { cwd: root, stdio: 'inherit', shell: '/bin/bash' });
fs.symlinkSync(path.join(root, 'node_modules'), path.join(baseRoot, 'node_modules'));
const baselineCommit = execFileSync('git', ['rev-parse', BASELINE_REV], { cwd: root, encoding: 'utf8' }).trim();
console.error(`building the baseline ${baselineCommit} in ${baseRoot} ...`);
execSync('npx vite build --logLevel error && npx vite build --ssr src/ssr/render.tsx --outDir dist/app-ssr --emptyOutDir --logLevel error && node scripts/compress-assets.ts', {
  cwd: baseRoot,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
const baseDir = path.join(baseRoot, 'dist', 'app');
async function startServer(dir: string, port: number, cwd: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/server.ts'], {
    cwd,
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

type Run = { loadBefore: number; loadAfter: number; lcpMs: number; fcpMs: number; tbtMs: number; transferredBytes: number; jsBytes: number; jsGzipBytes: number; lcpElement: string };

async function measure(browser: Browser, url: string): Promise<Run> {
  const loadBefore = os.loadavg()[0] ?? 0;
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
  return { loadBefore, loadAfter: os.loadavg()[0] ?? 0, lcpMs: Math.round(result.lcp), fcpMs: Math.round(result.fcp), tbtMs: Math.round(result.tbt), transferredBytes: transferred, jsBytes, jsGzipBytes: gz, lcpElement: result.lcpEl };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const thisServer = await startServer(appDir, PORT, root);
// The baseline's build (its front end and SSR bundle) is served by today's server, which reads an
// older build's index.html when it has no public.html: the baseline revision's own server cannot
// run on today's node_modules (it imports aws4fetch, gone since the S3 driver moved to the AWS SDK).
const baseServer = await startServer(baseDir, PORT + 1, root);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const THIS = 'this build (public pages with their own entry)';
const BASE = `baseline ${BASELINE_REV} (public pages hydrated by the app's entry)`;
const out: Record<string, unknown> = {
  what: 'front page / (zh), 1440x900, headless Chromium, CPU throttled 4x (CDP), loopback, cache disabled; LCP by PerformanceObserver, TBT from long tasks after FCP; median of runs, the two builds interleaved; loadavg = 1-minute load average of the shared 2-core machine before/after each run',
  date: new Date().toISOString(),
  runs: RUNS,
  machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, Chromium ${browser.version()}`,
  baseline: baselineCommit,
  goals: { lcpMs: 1500, jsCompressedKB: 150 },
  loadavgAtStart: os.loadavg(),
};
try {
  const series: Record<string, Run[]> = { [THIS]: [], [BASE]: [] };
  await measure(browser, `http://127.0.0.1:${PORT}/?lang=zh`); // warm the servers (figures, render cache)
  await measure(browser, `http://127.0.0.1:${PORT + 1}/?lang=zh`);
  for (let i = 0; i < RUNS; i++) {
    series[BASE]!.push(await measure(browser, `http://127.0.0.1:${PORT + 1}/?lang=zh`));
    series[THIS]!.push(await measure(browser, `http://127.0.0.1:${PORT}/?lang=zh`));
  }
  for (const [name, runs] of Object.entries(series)) {
    const keys = ['lcpMs', 'fcpMs', 'tbtMs', 'transferredBytes', 'jsBytes', 'jsGzipBytes'] as const;
    out[name] = {
      ...Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])),
      lcpElement: runs.at(-1)?.lcpElement,
      all: runs.map((r) => ({ lcpMs: r.lcpMs, tbtMs: r.tbtMs, jsBytes: r.jsBytes, loadavg: [Math.round(r.loadBefore * 100) / 100, Math.round(r.loadAfter * 100) / 100] })),
    };
  }
  out.loadavgAtEnd = os.loadavg();
  fs.writeFileSync(path.join(root, 'bench', 'front-page.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log(JSON.stringify(out, null, 2));
} finally {
  await browser.close();
  thisServer.kill('SIGTERM');
  baseServer.kill('SIGTERM');
  setTimeout(() => fs.rmSync(tmp, { recursive: true, force: true }), 500);
}
