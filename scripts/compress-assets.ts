/**
 * After `vite build`: writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside
 * each text asset of dist/app over 1 KiB, which @fastify/static serves as they are
 * (preCompressed) to a browser that accepts them: the strongest compression, paid once at
 * build time instead of on every request.
 *   node scripts/compress-assets.ts [dir]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'dist/app');
const TEXT = /\.(js|mjs|css|html|svg|json|wasm|txt|webmanifest)$/;
let files = 0;
let before = 0;
let after = 0;
function* walk(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.isFile()) yield full;
  }
}
for (const file of walk(root)) {
  if (!TEXT.test(file)) continue;
  const bytes = fs.readFileSync(file);
  if (bytes.length < 1024) continue;
  const br = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  files += 1;
  before += bytes.length;
  after += br.length;
}
process.stdout.write(`precompressed ${files} files in ${path.relative(process.cwd(), root) || '.'}: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB brotli\n`);
