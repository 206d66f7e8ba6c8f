import path from 'node:path';
import fp from 'fastify-plugin';
import { SharedStagingStore } from './shared-staging.ts';
import { createFileStore, driverFor, loadMasterKey, type FileStore } from './file-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Large stored files (tus uploads, sealed objects on the STORAGE_URL driver). */
    fileStore: FileStore;
  }
}

/** Decorates the app with the file store; expired uploads, receiver sessions and links are swept hourly. */
export default fp(async function storagePlugin(app) {
  const driver = driverFor(app.env.storage);
  const master = loadMasterKey(app.env.dataDir, app.env.storageKey);
  const store = createFileStore({
    driver,
    master,
    stagingDir: path.join(app.env.dataDir, 'uploads'),
    // Replicas keep unfinished uploads where every one of them sees them (database + object store).
    tus: app.env.uploadStaging === 'shared' ? new SharedStagingStore({ db: app.db, driver, master }) : undefined,
  });
  app.decorate('fileStore', store);
  // Unfinished uploads past their expiry, and receiver sessions and download links that have lapsed.
  const sweep = () =>
    void (async () => {
      await store.tus.deleteExpired();
      const now = Date.now();
      await app.db.deleteFrom('disclosure_links').where('expires_at', '<', now).execute();
      await app.db.deleteFrom('disclosure_sessions').where('expires_at', '<', now).execute();
    })().catch((error: unknown) => app.log.warn({ err: error }, 'storage sweep failed'));
  // Cleanup runs on workers and the embedded process, never on an API replica.
  if (app.env.role !== 'serve') {
    const timer = setInterval(sweep, 60 * 60 * 1000);
    timer.unref();
    app.addHook('onReady', async () => sweep());
    app.addHook('onClose', async () => clearInterval(timer));
  }
});
