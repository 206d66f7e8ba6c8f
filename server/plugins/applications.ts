import fp from 'fastify-plugin';
import { keyringOf } from '../keys/platform-keys.ts';
import { ApplicationMonitor, readMonitorSettings } from '../services/application-monitor.ts';
import { readWebhookAllowPrivate } from '../services/webhook-post.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one scheduler of application states and alarms. */
    applicationMonitor: ApplicationMonitor;
  }
}

/** Decorates the app with the application monitor and runs it while the app runs (one timer for every application). */
export default fp(async function applicationsPlugin(app) {
  const monitor = new ApplicationMonitor({ db: app.db, keyring: keyringOf(app.db), sms: app.sms, log: app.log, settings: readMonitorSettings(), allowPrivateWebhooks: readWebhookAllowPrivate() });
  app.decorate('applicationMonitor', monitor);
  // One scheduler in the deployment: alarms and state changes run on the leader only.
  app.leadership.onGained(async () => monitor.start());
  app.leadership.onLost(async () => monitor.stop());
  app.addHook('onClose', async () => monitor.stop());
});
