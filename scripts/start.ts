import { buildIfStale } from './build-if-stale.ts';

/** `npm start`: build what is stale, then boot the server in this process. */
buildIfStale();
await import('../server/server.ts');
