#!/usr/bin/env node
/**
 * The packed CLI's entry (cli/, built by scripts/build-cli.ts): the offline commands only.
 * pdf.js and its worker module are loaded only by the commands that read a proof
 * (server/proofs/extract.ts hands pdf.js the worker module through its `globalThis.pdfjsWorker`
 * hook), in chunks of their own: `repo push` and `hash` do not parse them.
 */
import './pdfjs-node-env.ts';
import { runCli, type Command } from './cli.ts';
import { OFFLINE_COMMANDS } from './offline-commands.ts';

/** Server commands answer where they live instead of "unknown command". */
const serverOnly = (usage: string): Command => ({
  summary: 'runs on a Provena server installation (npm run provena -- …), not in this CLI',
  usage,
  run: async () => {
    process.stderr.write(`provena ${usage.split(' ')[0]}: this command runs on a Provena server installation, next to its database: npm run provena -- ${usage}\n`);
    return 2;
  },
});

process.exitCode = await runCli(process.argv.slice(2), {
  ...OFFLINE_COMMANDS,
  'ledger-verify': serverOnly('ledger-verify'),
  'operator-create': serverOnly('operator-create --login <id> --password <pw>'),
  keys: serverOnly('keys rotate --purpose block|proof|tsa | list'),
});
