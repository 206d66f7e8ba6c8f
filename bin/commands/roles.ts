/**
 * `provena serve` and `provena work`: the same server in one of its two roles.
 * serve: a stateless API replica (no sealer, no jobs, no timers; any number behind a load
 * balancer). work: jobs, and the sealer, anchoring and schedules when it holds the leader lock.
 * Both need DATABASE_URL (PostgreSQL); `npm start` stays the embedded single process (role all).
 */
function roleCommand(role: 'serve' | 'work') {
  return {
    async run(): Promise<number> {
      process.env.PROVENA_ROLE = role;
      await import('../../server/server.ts');
      // The server keeps the process alive and exits on SIGTERM/SIGINT itself.
      return new Promise<number>(() => undefined);
    },
  };
}

export const serveCommand = roleCommand('serve');
export const workCommand = roleCommand('work');
