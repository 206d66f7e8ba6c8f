import { runLedgerVerify } from '../../server/ledger/verify-run.ts';

/** `provena ledger-verify`: the operator's full re-check of the ledger (same as npm run ledger:verify). */
export const ledgerVerifyCommand = {
  async run(): Promise<number> {
    return runLedgerVerify(process.env, { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) });
  },
};
