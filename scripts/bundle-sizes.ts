/**
 * What JavaScript a route of the built app loads, read from Vite's manifest (deterministic:
 * bytes, not timings): the entry with its static imports, plus the route's own chunks
 * (and theirs) and the active language's catalogs. Sizes raw, gzip (level 9) and brotli
 * (quality 11), as scripts/compress-assets.ts precompresses them and the server sends them.
 * Used by bench/bundles.ts and tests/server/bundle-budget.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export type ManifestEntry = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
export type Manifest = Record<string, ManifestEntry>;
export type Sizes = { files: number; raw: number; gzip: number; brotli: number };

export function readManifest(appDir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(appDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** The JavaScript files `keys` load before they run: each key's file and its static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry) throw new Error(`not in the build manifest: ${key}`);
    if (seen.has(key)) return;
    seen.add(key);
    if (entry.file.endsWith('.js')) files.add(entry.file);
    for (const i of entry.imports ?? []) visit(i);
  };
  for (const key of keys) visit(key);
  return [...files];
}

/** Manifest keys of the catalogs of one language that the app loads before its first render. */
export function catalogKeys(manifest: Manifest, locale: string, areas: (string | null)[] | 'all'): string[] {
  return Object.keys(manifest).filter((key) => {
    const m = /^locales\/(?:([\w-]+)\/)?([\w-]+)\.po$/.exec(key);
    if (!m || m[2] !== locale) return false;
    return areas === 'all' || areas.includes(m[1] ?? null);
  });
}

export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]?.isEntry && k.endsWith('index.html'));
  if (!key) throw new Error('no index.html entry in the build manifest');
  return key;
}

/** The public pages' own entry (public.html), or null in a build from before it. */
export function publicEntryKey(manifest: Manifest): string | null {
  return Object.keys(manifest).find((k) => manifest[k]?.isEntry && k.endsWith('public.html')) ?? null;
}

const cache = new Map<string, { raw: number; gzip: number; brotli: number }>();
export function sizesOf(appDir: string, files: string[]): Sizes {
  const total: Sizes = { files: files.length, raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const full = path.join(appDir, file);
    let s = cache.get(full);
    if (!s) {
      const bytes = fs.readFileSync(full);
      s = {
        raw: bytes.length,
        gzip: zlib.gzipSync(bytes, { level: 9 }).length,
        brotli: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length,
      };
      cache.set(full, s);
    }
    total.raw += s.raw;
    total.gzip += s.gzip;
    total.brotli += s.brotli;
  }
  return total;
}
