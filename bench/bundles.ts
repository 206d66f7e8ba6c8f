/**
 * The JavaScript each route loads and the front page's largest contentful paint, for a build
 * and (optionally, in the same run) a baseline build of another revision:
 *
 *   node bench/bundles.ts [--app dist/app] [--baseline DIR] [--runs 5] [--port 8610]
 *
 * Per route, from the build manifest (deterministic, scripts/bundle-sizes.ts): the entry's
 * static imports plus the route's chunks and the active language's catalogs, raw / gzip 9 /
 * brotli 11 (what scripts/compress-assets.ts precompresses and the server sends). In headless
 * Chromium (1440×900, CPU throttled 4×, loopback, cache disabled): the JavaScript bytes
 * actually transferred by `/` (server-rendered) and `/user/login`, and the front page's LCP and
 * total blocking time, medians of `runs`, the two builds interleaved. A DIR built from an older
 * revision is made with `git archive <rev> | tar -x -C DIR` then `npx vite build` and the SSR
 * build in DIR (see the commit that added this file). Writes bench/results/bundles.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import { catalogKeys, entryKey, publicEntryKey, readManifest, sizesOf, staticClosure, type Manifest, type Sizes } from '../scripts/bundle-sizes.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string | null): string | null => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const RUNS = Number(option('runs', '5'));
const PORT = Number(option('port', '8610'));
const root = process.cwd();
const appDir = path.resolve(option('app', 'dist/app') ?? 'dist/app');
const baselineDir = option('baseline', null);

/** Routes and what they load besides the entry (manifest keys); catalogs: which areas' catalogs load before the page draws. */
type RouteSpec = { route: string; keys: string[]; catalogs: (string | null)[] | 'all'; entry?: string };
function routesOf(manifest: Manifest): RouteSpec[] {
  const has = (k: string) => k in manifest;
  // Before the route split every catalog loaded at start and the login page was in the entry.
  const split = has('src/features/auth/login-page.tsx');
  const core: (string | null)[] | 'all' = split ? [null, 'front', 'home'] : 'all';
  return [
    // Since the public pages were split from the app, they have their own entry (public.html).
    publicEntryKey(manifest) ? { route: '/ (front page)', keys: [], catalogs: core, entry: publicEntryKey(manifest)! } : { route: '/ (front page)', keys: ['src/features/front/front-chunk.ts'], catalogs: core },
    { route: '/user/login', keys: split ? ['src/features/auth/login-page.tsx'] : [], catalogs: core },
    { route: '/dashboard/home (signed in)', keys: ['src/app/layouts/dashboard-layout.tsx', 'src/features/home/home-page.tsx'].filter(has), catalogs: 'all' },
  ];
}

const kib = (n: number) => Math.round((n / 1024) * 10) / 10;
function routeSizes(dir: string): Record<string, Sizes & { rawKiB: number; gzipKiB: number; brotliKiB: number }> {
  const manifest = readManifest(dir);
  const entry = entryKey(manifest);
  const out: Record<string, Sizes & { rawKiB: number; gzipKiB: number; brotliKiB: number }> = {};
  for (const spec of routesOf(manifest)) {
    const s = sizesOf(dir, staticClosure(manifest, [spec.entry ?? entry, ...spec.keys, ...catalogKeys(manifest, 'zh', spec.catalogs)]));
    out[spec.route] = { ...s, rawKiB: kib(s.raw), gzipKiB: kib(s.gzip), brotliKiB: kib(s.brotli) };
  }
  return out;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bundles-bench-'));
const configFile = path.join(tmp, 'provena.json');
fs.writeFileSync(configFile, JSON.stringify({ frontPageAvailable: true, cooperation: { name: '西安数字产权合作有限公司' } }));

/** The server of the build's own checkout when DIR is <checkout>/dist/app (the baseline serves its pages as it did), else this one. */
function serverRootOf(dir: string): string {
  const checkout = path.resolve(dir, '..', '..');
  return fs.existsSync(path.join(checkout, 'server', 'server.ts')) ? checkout : root;
}

async function startServer(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/server.ts'], {
    cwd: serverRootOf(dir),
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

type Run = { lcpMs: number; tbtMs: number; jsTransferredBytes: number; jsFiles: number };

async function measure(browser: Browser, url: string): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const types = new Map<string, string>();
  let js = 0;
  let files = 0;
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    if (types.get(e.requestId) === 'Script') {
      js += e.encodedDataLength;
      files += 1;
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number; __long: Array<{ start: number; duration: number }> };
    w.__lcp = 0;
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__long.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  // A server-rendered page starts the app only after its first paint (public/front-boot.js):
  // wait until no new resource has been fetched for 2 s, so the app's JavaScript is all counted.
  for (let last = -1, i = 0; i < 30; i++) {
    const count = await page.evaluate(() => performance.getEntriesByType('resource').length);
    if (count === last) break;
    last = count;
    await page.waitForTimeout(2000);
  }
  const result = await page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __long: Array<{ start: number; duration: number }> };
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const tbt = w.__long.filter((t) => t.start + t.duration > fcp).reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
    return { lcp: w.__lcp, tbt };
  });
  await context.close();
  return { lcpMs: Math.round(result.lcp), tbtMs: Math.round(result.tbt), jsTransferredBytes: js, jsFiles: files };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const builds: Array<{ name: string; dir: string; port: number }> = [{ name: 'this build', dir: appDir, port: PORT }];
if (baselineDir) builds.push({ name: 'baseline', dir: path.resolve(baselineDir), port: PORT + 1 });

const out: Record<string, unknown> = {
  what: 'JS per route (zh) from the build manifest: raw / gzip 9 / brotli 11; in headless Chromium 1440x900, CPU 4x, loopback, cache off: JS transferred (the server sends brotli) and front-page LCP/TBT, medians of runs, builds interleaved',
  date: new Date().toISOString(),
  runs: RUNS,
  goals: { frontPageJsCompressedKiB: 150, loginJsCompressedKiB: 250, frontPageLcpMs: 1500 },
};
const servers: ChildProcess[] = [];
let browser: Browser | null = null;
try {
  for (const b of builds) {
    out[b.name] = { dir: path.relative(root, b.dir) || '.', perRoute: routeSizes(b.dir) };
    servers.push(await startServer(b.dir, b.port));
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  out.machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, Chromium ${browser.version()}`;
  const series = new Map<string, { front: Run[]; login: Run[] }>(builds.map((b) => [b.name, { front: [], login: [] }]));
  for (const b of builds) await measure(browser, `http://127.0.0.1:${b.port}/?lang=zh`); // warm the render cache
  for (let i = 0; i < RUNS; i++) {
    for (const b of builds) {
      const s = series.get(b.name)!;
      s.front.push(await measure(browser, `http://127.0.0.1:${b.port}/?lang=zh`));
      s.login.push(await measure(browser, `http://127.0.0.1:${b.port}/user/login?lang=zh`));
    }
  }
  for (const b of builds) {
    const s = series.get(b.name)!;
    Object.assign(out[b.name] as object, {
      browser: {
        front: { lcpMs: median(s.front.map((r) => r.lcpMs)), tbtMs: median(s.front.map((r) => r.tbtMs)), jsTransferredKiB: kib(median(s.front.map((r) => r.jsTransferredBytes))), jsFiles: median(s.front.map((r) => r.jsFiles)), allLcpMs: s.front.map((r) => r.lcpMs) },
        login: { jsTransferredKiB: kib(median(s.login.map((r) => r.jsTransferredBytes))), jsFiles: median(s.login.map((r) => r.jsFiles)) },
      },
    });
  }
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'bundles.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log(JSON.stringify(out, null, 2));
} finally {
  await browser?.close();
  for (const s of servers) s.kill('SIGTERM');
  setTimeout(() => fs.rmSync(tmp, { recursive: true, force: true }), 500);
}
