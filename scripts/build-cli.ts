/**
 * Builds the packed CLI into cli/dist: bin/provena-standalone.ts and everything it imports
 * (core, pdf.js, pkijs) bundled by rolldown (Vite's bundler, already here) into ES modules
 * (provena.mjs and the chunks it loads when a command needs them: pdf.js for reading proofs),
 * plus the WebAssembly SHA-256 (`provena hash --engine wasm`). TypeScript under node_modules
 * is not type-stripped by Node, so the package ships JavaScript and has no dependencies.
 * Run by `npm pack` in cli/ (its prepack script), or: node scripts/build-cli.ts [--out <dir>]
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';

const root = path.resolve(import.meta.dirname, '..');
// `--out <dir>` builds elsewhere (the tests run the packed CLI from a folder of their own).
const outAt = process.argv.indexOf('--out');
const out = outAt >= 0 ? path.resolve(process.argv[outAt + 1]!) : path.join(root, 'cli', 'dist');
fs.rmSync(out, { recursive: true, force: true });
/**
 * pdf.js's Node build requires the native @napi-rs/canvas when it loads (for rendering, which
 * the CLI never does) and warns on every run when it is missing, as it is in a package without
 * dependencies. The bundle skips that require; DOMMatrix and Path2D come from bin/pdfjs-node-env.ts.
 * The text must be found exactly once, so that a pdf.js update that moves it fails the build.
 */
const NAPI_CANVAS = '\n      canvas = require("@napi-rs/canvas");\n';
const noNativeCanvas = {
  name: 'provena-no-native-canvas',
  transform(code: string, id: string) {
    if (!id.replaceAll('\\', '/').endsWith('pdfjs-dist/legacy/build/pdf.mjs')) return null;
    if (code.split(NAPI_CANVAS).length !== 2) throw new Error(`pdf.js changed: "${NAPI_CANVAS.trim()}" is not in ${id} exactly once`);
    return { code: code.replace(NAPI_CANVAS, '\n      canvas = null;\n'), map: null };
  },
};

await build({
  input: path.join(root, 'bin', 'provena-standalone.ts'),
  platform: 'node',
  plugins: [noNativeCanvas],
  logLevel: 'warn',
  // Chunks: pdf.js (about 2 MB) is parsed only by the commands that read a proof.
  output: { dir: out, entryFileNames: 'provena.mjs', chunkFileNames: 'chunks/[name]-[hash].mjs', format: 'esm', minify: true },
});
fs.chmodSync(path.join(out, 'provena.mjs'), 0o755);
fs.mkdirSync(path.join(out, 'build'), { recursive: true });
for (const f of ['sha256-simd.wasm', 'sha256-scalar.wasm']) fs.copyFileSync(path.join(root, 'wasm', 'build', f), path.join(out, 'build', f));
// The package's version is the platform's.
const pkgFile = path.join(root, 'cli', 'package.json');
const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { version: string };
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
if (pkg.version !== version) fs.writeFileSync(pkgFile, `${JSON.stringify({ ...pkg, version }, null, 2)}\n`);
const size = fs.statSync(path.join(out, 'provena.mjs')).size;
process.stdout.write(`${path.relative(root, out)}/provena.mjs ${(size / 1024).toFixed(0)} KiB\n`);
