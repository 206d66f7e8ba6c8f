import path from 'node:path';
import fp from 'fastify-plugin';
import { createFileStore, driverFor, loadMasterKey, type FileStore } from './file-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Large stored files (tus uploads, sealed objects on the STORAGE_URL driver). */
    fileStore: FileStore;
  }
}

/** Decorates the app with the file store; unfinished uploads older than the expiry are swept hourly. */
export default fp(async function storagePlugin(app) {
  const store = createFileStore({
    driver: driverFor(app.env.storage),
    master: loadMasterKey(app.env.dataDir, app.env.storageKey),
    stagingDir: path.join(app.env.dataDir, 'uploads'),
  });
  app.decorate('fileStore', store);
  const sweep = () => void store.tus.deleteExpired().catch((error: unknown) => app.log.warn({ err: error }, 'upload sweep failed'));
  const timer = setInterval(sweep, 60 * 60 * 1000);
  timer.unref();
  app.addHook('onReady', async () => sweep());
  app.addHook('onClose', async () => clearInterval(timer));
});
