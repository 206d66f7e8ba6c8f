import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/** Inputs of the browser build; the app is rebuilt when any is newer than dist/app/index.html. */
const INPUTS = ['src', 'core', 'workers', 'wasm', 'locales', 'public', 'index.html', 'public.html', 'vite.config.ts', 'lingui.config.ts', 'package-lock.json'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/**
 * Builds the app into `outDir` (APP_DIR, default dist/app) when a source is newer. Several
 * people (or agents) testing in one checkout give each their own APP_DIR, so that one
 * build never replaces the files another's running server is serving.
 */
export function buildIfStale(root = process.cwd(), outDir = process.env.APP_DIR ?? 'dist/app'): void {
  const output = path.join(path.resolve(root, outDir), 'index.html');
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const newest = Math.max(...INPUTS.map((p) => newestMtime(path.join(root, p))));
  if (built >= newest) {
    console.log(`app is up to date (${outDir})`);
    return;
  }
  console.log('building the app (vite build)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', path.resolve(root, outDir), '--emptyOutDir'], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // The server-rendering bundle of the public pages, beside the app: <outDir>-ssr/render.js.
  const ssrOut = `${path.resolve(root, outDir).replace(/[/\\]+$/, '')}-ssr`;
  const ssr = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', 'src/ssr/render.tsx', '--logLevel', 'warn', '--outDir', ssrOut, '--emptyOutDir'], { stdio: 'inherit', cwd: root });
  if (ssr.status !== 0) process.exit(ssr.status ?? 1);
  // The .br/.gz copies the server hands to browsers, as `npm run build` makes them.
  const packed = spawnSync(process.execPath, [path.join(root, 'scripts/compress-assets.ts'), path.resolve(root, outDir)], { stdio: 'inherit', cwd: root });
  if (packed.status !== 0) process.exit(packed.status ?? 1);
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfStale();
