/**
 * The login page loads at most 250 KB of compressed JavaScript. Bytes, not timings:
 * the app is built into a temporary folder and the login route's JavaScript (the entry, its
 * static imports, the login screen's chunk and the active language's catalogs) is read from
 * Vite's manifest and compressed as the server sends it (scripts/bundle-sizes.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { catalogKeys, entryKey, publicEntryKey, readManifest, sizesOf, staticClosure, type Manifest } from '../../scripts/bundle-sizes.ts';

const KiB = 1024;
const LOGIN_BUDGET = 250 * KiB;
/**
 * The public pages (their own entry, public.html) load at most 150 KB of compressed
 * JavaScript before they are interactive; they stood at 145 KiB gzip / 126 KiB brotli when the
 * entry was split from the app's.
 */
const FRONT_CEILING = 150 * KiB;
/** Libraries only some screens need: never loaded before the login or the front page draws. */
const HEAVY = /three|pdf|pkijs|uplot|ngraph|markdown|xlsx|isomorphic-git|tus|map\.module|chat-page|store-file/i;
const CORE_CATALOGS = [null, 'front', 'home'];

let dir = '';
let manifest: Manifest;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-bundle-budget-'));
  // A production build in its own process: vitest's NODE_ENV=test would give React's development build.
  const vite = spawnSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--outDir', dir, '--emptyOutDir', '--sourcemap', 'false', '--logLevel', 'error'], {
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
  });
  if (vite.status !== 0) throw new Error(`vite build failed: ${vite.stderr || vite.stdout}`);
  manifest = readManifest(dir);
}, 300_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function routeFiles(keys: string[], locale: string): string[] {
  return staticClosure(manifest, [entryKey(manifest), ...keys, ...catalogKeys(manifest, locale, CORE_CATALOGS)]);
}

describe('JavaScript budgets per route (built app)', () => {
  it('every screen is its own chunk: the login screen is not in the entry', () => {
    expect(manifest['src/features/auth/login-page.tsx']?.isDynamicEntry).toBe(true);
    expect(manifest['src/features/home/home-page.tsx']?.isDynamicEntry).toBe(true);
  });

  for (const locale of ['zh', 'en', 'ja']) {
    it(`the login page (${locale}) loads at most 250 KiB of compressed JavaScript, none of the heavy libraries`, () => {
      const files = routeFiles(['src/features/auth/login-page.tsx'], locale);
      const sizes = sizesOf(dir, files);
      expect(sizes.gzip, `login JS gzip ${(sizes.gzip / KiB).toFixed(1)} KiB in ${files.length} files`).toBeLessThanOrEqual(LOGIN_BUDGET);
      expect(sizes.brotli).toBeLessThanOrEqual(LOGIN_BUDGET);
      expect(files.filter((f) => HEAVY.test(f))).toEqual([]);
    });
  }

  for (const locale of ['zh', 'en', 'ja']) {
    it(`the public pages (${locale}) load at most 150 KiB of compressed JavaScript: their own entry, none of the app's router, screens or heavy libraries`, () => {
      const key = publicEntryKey(manifest);
      expect(key, 'public.html is an entry of the build').not.toBeNull();
      const files = staticClosure(manifest, [key!, ...catalogKeys(manifest, locale, CORE_CATALOGS)]);
      const sizes = sizesOf(dir, files);
      expect(sizes.gzip, `front JS gzip ${(sizes.gzip / KiB).toFixed(1)} KiB in ${files.length} files`).toBeLessThanOrEqual(FRONT_CEILING);
      expect(sizes.brotli, `front JS brotli ${(sizes.brotli / KiB).toFixed(1)} KiB`).toBeLessThanOrEqual(FRONT_CEILING);
      expect(files.filter((f) => HEAVY.test(f) || /dashboard-layout|home-page|login-page|front-chunk/.test(f))).toEqual([]);
      // Not the app's entry (its router and every route's lazy import) nor its modules.
      expect(files).not.toContain(manifest[entryKey(manifest)]!.file);
    });
  }

  it('only the active language is loaded, and only its core catalogs before the first screen', () => {
    const zh = catalogKeys(manifest, 'zh', CORE_CATALOGS);
    expect(zh.length).toBe(3);
    const files = routeFiles(['src/features/auth/login-page.tsx'], 'zh');
    for (const other of ['en', 'ja']) for (const key of catalogKeys(manifest, other, 'all')) expect(files).not.toContain(manifest[key]!.file);
  });

  it('the public entry carries the stylesheet of every Mantine component its chunks may draw (it loads them one by one, not styles.css)', () => {
    const key = publicEntryKey(manifest);
    const js = new Set<string>();
    const css = new Set<string>();
    const seen = new Set<string>();
    const visit = (k: string) => {
      const entry = manifest[k];
      if (!entry || seen.has(k)) return;
      seen.add(k);
      if (entry.file.endsWith('.js')) js.add(entry.file);
      for (const c of entry.css ?? []) css.add(c);
      for (const i of [...(entry.imports ?? []), ...(entry.dynamicImports ?? [])]) visit(i);
    };
    visit(key!);
    const used = new Set<string>();
    for (const f of js) for (const h of fs.readFileSync(path.join(dir, f), 'utf8').match(/\bm_[0-9a-f]{7,8}\b/g) ?? []) used.add(h);
    const mantineDir = path.resolve('node_modules/@mantine/core/styles');
    const styled = new Set<string>();
    for (const f of fs.readdirSync(mantineDir).filter((n) => n.endsWith('.css') && !n.endsWith('.layer.css')))
      for (const h of fs.readFileSync(path.join(mantineDir, f), 'utf8').match(/\bm_[0-9a-f]{7,8}\b/g) ?? []) styled.add(h);
    const shipped = [...css].map((c) => fs.readFileSync(path.join(dir, c), 'utf8')).join('\n');
    const missing = [...used].filter((h) => styled.has(h) && !shipped.includes(h));
    expect(missing, 'add their files to src/features/front/public-styles.ts').toEqual([]);
    expect(shipped.length, 'not the whole of @mantine/core/styles.css').toBeLessThan(150 * KiB);
  });
});
