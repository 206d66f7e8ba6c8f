import path from 'node:path';

export type Env = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  storageUrl: string | undefined;
  smsProvider: 'outbox';
  configFile: string | undefined;
  logLevel: string;
  cookieSecure: boolean;
  trustProxy: boolean;
  appDir: string;
  /** Multiplies the per-address rate limits (codes sent, logins); per-phone rules are unchanged. */
  addressLimitFactor: number;
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the environment once at boot; a bad value stops the process with a clear message. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const problems: string[] = [];
  const portText = source.PORT ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be an integer 0–65535, got "${portText}"`);
  const databaseUrl = source.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite database)');
  const storageUrl = source.STORAGE_URL || undefined;
  if (storageUrl && !/^(s3|file):\/\//.test(storageUrl)) problems.push('STORAGE_URL must start with s3:// or file://');
  const smsProvider = source.SMS_PROVIDER ?? 'outbox';
  if (smsProvider !== 'outbox') problems.push(`SMS_PROVIDER "${smsProvider}" is not supported (supported: outbox)`);
  const logLevel = source.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  for (const flag of ['COOKIE_SECURE', 'TRUST_PROXY']) {
    const v = source[flag];
    if (v !== undefined && v !== '' && !['true', 'false', '1', '0'].includes(v)) problems.push(`${flag} must be true or false`);
  }
  const factorText = source.ADDRESS_LIMIT_FACTOR ?? '1';
  const addressLimitFactor = Number(factorText);
  if (!Number.isInteger(addressLimitFactor) || addressLimitFactor < 1) problems.push(`ADDRESS_LIMIT_FACTOR must be a whole number ≥ 1, got "${factorText}"`);
  if (problems.length) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  const isOn = (v: string | undefined) => v === 'true' || v === '1';
  return {
    port,
    host: source.HOST ?? '0.0.0.0',
    dataDir: path.resolve(source.DATA_DIR ?? './data'),
    databaseUrl,
    storageUrl,
    smsProvider: 'outbox',
    configFile: source.PROVENA_CONFIG || undefined,
    logLevel,
    cookieSecure: isOn(source.COOKIE_SECURE),
    trustProxy: isOn(source.TRUST_PROXY),
    appDir: path.resolve(source.APP_DIR ?? 'dist/app'),
    addressLimitFactor,
  };
}
