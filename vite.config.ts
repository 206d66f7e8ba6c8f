import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import wasmPlugin from 'vite-plugin-wasm';

// vite-plugin-wasm ships CommonJS typings with a default export under `default`.
const wasm = ((wasmPlugin as unknown as { default?: typeof wasmPlugin }).default ?? wasmPlugin) as unknown as () => import('vite').PluginOption;

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

export default defineConfig({
  plugins: [react(), lingui({ macroTransform: true }), wasm()],
  resolve: {
    alias: { '@/': `${root}src/` },
  },
  worker: {
    format: 'es',
    plugins: () => [wasm()],
  },
  build: {
    outDir: 'dist/app',
    target: 'es2023',
    // The server reads it to link the public pages' stylesheet into their server-rendered HTML (issue 18).
    manifest: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    port: 5173,
    proxy: {
      // xfwd: the API sees who is really asking (Vite listens on every interface with
      // --host), so its loopback-only developer routes stay closed to the LAN.
      '/api': { target: apiTarget, xfwd: true },
      '/verify-api': apiTarget,
      '/score-api': apiTarget,
      '/config.json': apiTarget,
    },
  },
});
