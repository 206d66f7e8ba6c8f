import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../server/db/database.ts';
import { upsertOperator } from '../../server/services/operators.ts';

/** `provena operator-create --login <id> --password <pw> [--name <name>]`: the first (or another) platform operator. */
export const operatorCreateCommand = {
  summary: 'create a platform operator (or reset its password) in DATABASE_URL or DATA_DIR',
  usage: 'operator-create --login <id> --password <pw>',
  async run(args: string[]): Promise<number> {
    let values: { login?: string; password?: string; name?: string };
    try {
      ({ values } = parseArgs({ args, options: { login: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } }));
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
      const r = await upsertOperator(db, { loginId: values.login, password, name: values.name });
      process.stdout.write(`operator "${values.login}" ${r.isNew ? 'created' : 'updated (password reset)'}; console at /operator\n`);
      return 0;
    } finally {
      await db.destroy();
    }
  },
};
