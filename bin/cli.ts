import fs from 'node:fs';

/** One subcommand: `usage` follows "provena ", `help` (options, exit codes) is printed by `provena <name> --help`. */
export type Command = { summary: string; usage: string; help?: string; run(args: string[]): Promise<number> };

/**
 * The version of the installed package: package.json one folder above this file, which is the
 * repository's in a checkout (bin/cli.ts) and the CLI package's once packed (dist/provena.mjs).
 */
export function cliVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function helpText(commands: Record<string, Command>): string {
  const lines = Object.values(commands).map((c) => `  provena ${c.usage}\n      ${c.summary}`);
  return `provena ${cliVersion()}: register and verify digital property proofs

Usage:
${lines.join('\n')}
  provena --version | --help | <command> --help

provena verify exit codes: 0 valid and trusted, 1 a check failed (named), 2 usage or unreadable input,
3 every check passed but the signer is not trusted (pin it: provena trust add <platform URL>, --trust-root or PROVENA_TRUST_ROOTS).
`;
}

/** Dispatches argv to a command; `--help`, `--version` and `<command> --help` answer here, exit 0. */
export async function runCli(argv: string[], commands: Record<string, Command>): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    if (topic && commands[topic]) return runCli([topic, '--help'], commands);
    (name ? process.stdout : process.stderr).write(helpText(commands));
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`provena: unknown command "${name}"\n${helpText(commands)}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`usage: provena ${command.usage}\n${command.summary}\n${command.help ? `\n${command.help}` : ''}`);
    return 0;
  }
  return command.run(args);
}
