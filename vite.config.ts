import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

export default defineConfig({
  plugins: [react(), lingui({ macroTransform: true })],
  resolve: {
    alias: { '@/': `${root}src/` },
  },
  // WebAssembly is fetched by URL (`?url`) and compiled while streaming, choosing the SIMD or
  // scalar build at run time (workers/hash/wasm-loader.ts): no ESM-integrated .wasm imports.
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist/app',
    target: 'es2023',
    // The server reads it to link the public pages' stylesheet into their server-rendered HTML.
    manifest: true,
    // Maps without a sourceMappingURL comment: written for whoever debugs a deployment, served
    // only when it asks (SERVE_SOURCE_MAPS=true), never pointed at by the bundles.
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 2000,
    // Two entries: the app (index.html) and the server-rendered public pages (public.html,
    // src/public-main.tsx), which hydrate without the dashboard's router, screens and stores.
    rollupOptions: {
      input: { index: `${root}index.html`, public: `${root}public.html` },
    },
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
