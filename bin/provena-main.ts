/**
 * The `provena` command line, for people and CI pipelines (architecture: Command line).
 *   provena hash <files…>   print each file's §3 identity (node:crypto; --engine wasm: the browser's WebAssembly core)
 *   provena verify <original> <proof.pdf>   every proof check offline; exit codes in `provena --help`
 *   provena trust add <platform URL> | list | remove <fp>   the platform roots verify trusts
 *   provena ledger-verify   re-check the whole ledger in the database
 *   provena operator-create --login <id> --password <pw>   create a platform operator
 *   provena keys rotate --purpose block|proof|tsa | list   platform key rotation
 *   provena agent --app <id> --watch <dir> [--once]   register a folder's files for an external application
 *   provena repo push --project <id> [--url <platform>] [<dir>]   register a repository's new commits (CI)
 *   provena verify-commit <dir> <commit> <proof.pdf>   check a commit of a clone against its proof
 *   provena serve | work   the server as an API replica or a worker (PostgreSQL; docs/deploy.md)
 *   provena backup --out <file> | restore --in <file>   encrypted archive of database, objects and keys
 * Each command lives in bin/commands/. The offline ones (bin/offline-commands.ts) are also the
 * packed CLI (cli/, scripts/build-cli.ts); the server ones load the database modules only when run.
 */
import { runCli, type Command } from './cli.ts';
import { OFFLINE_COMMANDS } from './offline-commands.ts';
import { BACKUP_HELP, RESTORE_HELP } from './commands/backup-help.ts';

/** A server command, its module loaded only when it runs (verify must not load database drivers). */
function lazy(summary: string, usage: string, load: () => Promise<Pick<Command, 'run'>>): Command {
  return { summary, usage, run: async (args) => (await load()).run(args) };
}

export const COMMANDS: Record<string, Command> = {
  ...OFFLINE_COMMANDS,
  'ledger-verify': lazy('re-check the whole ledger in DATABASE_URL or DATA_DIR against its checkpoints (and chain anchors)', 'ledger-verify', async () => (await import('./commands/ledger-verify.ts')).ledgerVerifyCommand),
  'operator-create': lazy('create a platform operator (or reset its password) in DATABASE_URL or DATA_DIR', 'operator-create --login <id> --password <pw> [--name <name>] [--reset-totp]', async () => (await import('./commands/operator-create.ts')).operatorCreateCommand),
  serve: lazy('run the API alone (a stateless replica: no sealer, no jobs, no timers); needs DATABASE_URL (docs/deploy.md)', 'serve', async () => (await import('./commands/roles.ts')).serveCommand),
  work: lazy('run a worker (jobs; the sealer, anchoring and schedules while it holds the leader lock); needs DATABASE_URL (docs/deploy.md)', 'work', async () => (await import('./commands/roles.ts')).workCommand),
  backup: { ...lazy('write one encrypted archive of the database, the object store and the key material (docs/deploy.md)', 'backup --out <file> [--passphrase-file <file>] [--force] [--json]', async () => (await import('./commands/backup.ts')).backupCommand), help: BACKUP_HELP },
  restore: { ...lazy('restore an archive of provena backup into an empty DATA_DIR / DATABASE_URL / object store', 'restore --in <file> [--passphrase-file <file>] [--force] [--json]', async () => (await import('./commands/backup.ts')).restoreCommand), help: RESTORE_HELP },
  keys: lazy('rotate or list the platform keys (block signing, proof signing, time-stamping)', 'keys rotate --purpose block|proof|tsa | list', async () => (await import('./commands/keys.ts')).keysCommand),
};

process.exitCode = await runCli(process.argv.slice(2), COMMANDS);
