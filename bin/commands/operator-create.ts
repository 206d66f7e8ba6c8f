import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../server/db/database.ts';
import { upsertOperator } from '../../server/services/operators.ts';

/**
 * `provena operator-create --login <id> --password <pw> [--name <name>] [--reset-totp]`: the
 * first (or another) platform operator. The operator enrolls an authenticator app (TOTP)
 * at first console login and needs a code from it at every login after; --reset-totp
 * makes an existing operator enroll again (a lost phone) and voids the recovery codes.
 */
export const operatorCreateCommand = {
  async run(args: string[]): Promise<number> {
    let values: { login?: string; password?: string; name?: string; 'reset-totp'?: boolean };
    try {
      ({ values } = parseArgs({ args, options: { login: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, 'reset-totp': { type: 'boolean' } } }));
    } catch (error) {
      process.stderr.write(`provena operator-create: ${(error as Error).message}\n`);
      return 2;
    }
    const password = values.password ?? process.env.OPERATOR_PASSWORD;
    if (!values.login || !password) {
      process.stderr.write('provena operator-create: --login and --password (or OPERATOR_PASSWORD) are required\n');
      return 2;
    }
    if (password.length < 10) {
      process.stderr.write('provena operator-create: the password needs at least 10 characters\n');
      return 2;
    }
    const { db } = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: path.resolve(process.env.DATA_DIR ?? './data') });
    try {
      const resetTotp = values['reset-totp'] === true;
      const r = await upsertOperator(db, { loginId: values.login, password, name: values.name, resetTotp });
      const what = r.isNew ? 'created' : resetTotp ? 'updated (password and authenticator reset)' : 'updated (password reset)';
      const next = r.isNew || resetTotp ? '; at the next console login (/operator) scan the QR code with an authenticator app and keep the recovery codes' : '; console at /operator';
      process.stdout.write(`operator "${values.login}" ${what}${next}\n`);
      return 0;
    } finally {
      await db.destroy();
    }
  },
};
