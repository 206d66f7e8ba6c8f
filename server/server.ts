import { readEnv } from './env.ts';
import { buildServer } from './build-app.ts';
import { startOpsServer } from './plugins/operations.ts';

/** Whether the server listens only on this machine (no one else can follow its links anyway). */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

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
  let ops: Awaited<ReturnType<typeof startOpsServer>> | null = null;
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
    // Not ready from here on (a load balancer stops sending), then drain: Fastify lets requests
    // in flight finish and refuses new ones before the database closes.
    ops?.close();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (env.role === 'work') {
    // A worker: jobs, and the sealer when it leads; nothing on the public port.
    await server.ready();
    server.log.info(`Provena worker running (jobs: ${server.jobs.backend}; leader: ${server.leadership.isLeader ? 'yes' : 'standby'})`);
    if (env.ops) {
      ops = await startOpsServer(server, env.ops);
      server.log.info(`operations (/healthz, /readyz, /metrics) at http://${env.ops.host}:${(ops.address() as { port: number }).port}`);
    }
    return;
  }
  await server.listen({ port: env.port, host: env.host });
  if (env.ops) {
    ops = await startOpsServer(server, env.ops);
    server.log.info(`operations (/healthz, /readyz, /metrics) at http://${env.ops.host}:${(ops.address() as { port: number }).port}`);
  }
  const shown = env.host === '0.0.0.0' || env.host === '::' ? 'localhost' : env.host;
  server.log.info(`Provena is running at http://${shown}:${server.server.address() && typeof server.server.address() === 'object' ? (server.server.address() as { port: number }).port : env.port}`);
  if (env.sms.provider === 'outbox') {
    server.log.info(`SMS codes (outbox): printed in this log and at GET /api/dev/sms-outbox?phone=<11 digits> from this machine only`);
  }
  if (!env.isPublicUrlSet && !isLoopbackHost(env.host)) {
    server.log.warn(
      `PUBLIC_URL is not set while listening on ${env.host}: SMS links, certificate QR codes and explorer links will point at ${env.publicUrl}. Set PUBLIC_URL to the address people reach this server at.`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
