import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../server/db/database.ts';
import { keyringFromProcessEnv, readSecretFile } from '../../server/keys/keyring.ts';
import { attachKeyring, ROTATABLE_PURPOSES, rotatePlatformKey, type RotatablePurpose } from '../../server/keys/platform-keys.ts';

const USAGE = `Usage: provena keys rotate --purpose block|proof|tsa [--root-passphrase-file <file>]
       provena keys list

  rotate   a new key for the purpose, certified by the platform root CA; the keys it replaces
           are retired, not deleted: what they signed stays valid, and /api/v1/ledger/platform-keys
           keeps listing them. Needs the root CA key's passphrase (kept offline): ROOT_KEY_PASSPHRASE,
           --root-passphrase-file, or DATA_DIR/root-key.passphrase. Running servers pick up a rotated
           block key at their next block and a rotated proof or time-stamping key at their next certificate.
  list     every platform key, its purpose, and whether it is active or retired.

Opens the database named by DATABASE_URL (or DATA_DIR's embedded one) with the same key settings as the
server: KEY_ENCRYPTION_KEY or KEY_ENCRYPTION_KEY_FILE, KEY_BACKEND, PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN.
`;

/** `provena keys rotate|list`: platform key rotation for operators. */
export const keysCommand = {
  async run(args: string[]): Promise<number> {
    let parsed: { values: { purpose?: string; 'root-passphrase-file'?: string; help?: boolean }; positionals: string[] };
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: { purpose: { type: 'string' }, 'root-passphrase-file': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    } catch (error) {
      process.stderr.write(`provena keys: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const action = positionals[0];
    if (action !== 'rotate' && action !== 'list') {
      process.stderr.write(`provena keys: say rotate or list\n${USAGE}`);
      return 2;
    }
    if (action === 'rotate' && !ROTATABLE_PURPOSES.includes(values.purpose as RotatablePurpose)) {
      process.stderr.write(`provena keys rotate: --purpose must be one of ${ROTATABLE_PURPOSES.join(', ')}\n`);
      return 2;
    }
    if (values['root-passphrase-file']) process.env.ROOT_KEY_PASSPHRASE = readSecretFile(values['root-passphrase-file']);
    const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
    const { db } = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
    const keyring = keyringFromProcessEnv(dataDir, { warn: (o, m) => process.stderr.write(`${m ?? ''} ${JSON.stringify(o)}\n`) });
    attachKeyring(db, keyring);
    try {
      if (action === 'list') {
        const block = await db.selectFrom('ledger_keys').select(['key_id', 'created_at', 'retired_at']).orderBy('created_at').execute();
        const others = await db.selectFrom('platform_keys').select(['key_id', 'purpose', 'created_at', 'retired_at']).orderBy('created_at').execute();
        for (const k of [...block.map((b) => ({ ...b, purpose: 'block' })), ...others]) {
          const state = k.retired_at === null ? 'active' : `retired ${new Date(Number(k.retired_at)).toISOString()}`;
          process.stdout.write(`${k.purpose.padEnd(6)} ${k.key_id}  created ${new Date(Number(k.created_at)).toISOString()}  ${state}\n`);
        }
        return 0;
      }
      const result = await rotatePlatformKey(db, values.purpose as RotatablePurpose);
      process.stdout.write(`${result.purpose} key rotated: new key ${result.keyId}, certified by root ${result.rootFingerprint}; retired ${result.retired.length ? result.retired.join(', ') : 'none'}\n`);
      return 0;
    } catch (error) {
      process.stderr.write(`provena keys ${action}: ${(error as Error).message}\n`);
      return 1;
    } finally {
      keyring.close();
      await db.destroy();
    }
  },
};
