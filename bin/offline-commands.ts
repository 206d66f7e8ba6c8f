import type { Command } from './cli.ts';
import { agentCommand } from './commands/agent.ts';
import { hashCommand } from './commands/hash.ts';
import { repoCommand, verifyCommitCommand } from './commands/repo.ts';
import { trustCommand } from './commands/trust.ts';
import { verifyCommand } from './commands/verify.ts';

/**
 * The commands that need no Provena server installation (no database, no native modules):
 * what the packed CLI (`cli/`, `npm pack`) carries, for people and CI pipelines.
 */
export const OFFLINE_COMMANDS: Record<string, Command> = {
  hash: hashCommand,
  verify: verifyCommand,
  trust: trustCommand,
  repo: repoCommand,
  'verify-commit': verifyCommitCommand,
  agent: agentCommand,
};
