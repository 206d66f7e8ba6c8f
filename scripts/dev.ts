import { spawn, type ChildProcess } from 'node:child_process';

/**
 * `npm run dev`: the API with restart on change (node --watch) on API_PORT (8080)
 * and Vite with hot reload on 5173, which proxies /api and /config.json to it.
 */
const apiPort = process.env.API_PORT ?? '8080';
const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch-path=server', '--watch-path=core', 'server/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, APP_DIR: 'dist/dev-no-app' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--host'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
];
console.log(`Provena dev: open http://localhost:5173 (API on :${apiPort}; SMS codes in the API log and at /api/dev/sms-outbox?phone=…)`);
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && code !== 0 && stop());
