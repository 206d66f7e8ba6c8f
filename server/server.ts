import { readEnv } from './env.ts';
import { buildServer } from './build-app.ts';

/** Boots the app: reads the environment, listens, and shuts down cleanly on SIGINT/SIGTERM. */
async function main() {
  let env;
  try {
    env = readEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  const server = await buildServer(env);
  let isClosing = false;
  const shutdown = async (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    server.log.info(`${signal} received, closing`);
    const timer = setTimeout(() => {
      server.log.error('forced exit after 10 s');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await server.listen({ port: env.port, host: env.host });
  const shown = env.host === '0.0.0.0' || env.host === '::' ? 'localhost' : env.host;
  server.log.info(`Provena is running at http://${shown}:${server.server.address() && typeof server.server.address() === 'object' ? (server.server.address() as { port: number }).port : env.port}`);
  server.log.info(`SMS codes (outbox): printed in this log and at GET /api/dev/sms-outbox?phone=<11 digits>`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
