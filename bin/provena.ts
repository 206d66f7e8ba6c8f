#!/usr/bin/env node
/**
 * The `provena` command line, for people and CI pipelines (architecture: Command line).
 *   provena hash <files…>   print each file's §3 identity, hashed with the same WebAssembly core as the browser
 *   provena verify <original> <proof.pdf>   every proof check offline; exit codes in `provena --help`
 *   provena trust add <platform URL> | list | remove <fp>   the platform roots verify trusts
 *   provena ledger-verify   re-check the whole ledger in the database
 *   provena operator-create --login <id> --password <pw>   create a platform operator
 *   provena keys rotate --purpose block|proof|tsa | list   platform key rotation
 *   provena agent --app <id> --watch <dir> [--once]   register a folder's files for an external application
 * Each command lives in bin/commands/ and is listed in COMMANDS.
 */
import { hashCommand } from './commands/hash.ts';
import { verifyCommand } from './commands/verify.ts';
import { ledgerVerifyCommand } from './commands/ledger-verify.ts';
import { operatorCreateCommand } from './commands/operator-create.ts';
import { trustCommand } from './commands/trust.ts';
import { keysCommand } from './commands/keys.ts';
import { agentCommand } from './commands/agent.ts';

type Command = { summary: string; usage: string; run(args: string[]): Promise<number> };

const COMMANDS: Record<string, Command> = {
  hash: hashCommand,
  verify: verifyCommand,
  trust: trustCommand,
  'ledger-verify': ledgerVerifyCommand,
  'operator-create': operatorCreateCommand,
  keys: keysCommand,
  agent: agentCommand,
};

function help(): string {
  const lines = Object.values(COMMANDS).map((c) => `  provena ${c.usage.padEnd(34)} ${c.summary}`);
  return `Usage:\n${lines.join('\n')}\n\nprovena verify exit codes: 0 valid and trusted, 1 a check failed (named), 2 usage or unreadable input,\n3 every check passed but the signer is not trusted (pin it: provena trust add <platform URL>, --trust-root or PROVENA_TRUST_ROOTS).\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`provena: unknown command "${name}"\n${help()}`);
    return 2;
  }
  return command.run(args);
}

process.exitCode = await main(process.argv.slice(2));
