import path from 'node:path';

export type Env = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  storageUrl: string | undefined;
  /** Where stored files go (STORAGE_URL): local files by default, or S3-compatible storage. */
  storage: StorageEnv;
  /** STORAGE_KEY: the 32-byte master key that seals stored files; unset → DATA_DIR/storage.key (created on first use). */
  storageKey: Buffer | undefined;
  smsProvider: 'outbox';
  configFile: string | undefined;
  logLevel: string;
  cookieSecure: boolean;
  trustProxy: boolean;
  appDir: string;
  /** Multiplies the per-address rate limits (codes sent, logins); per-phone rules are unchanged. */
  addressLimitFactor: number;
};

export type StorageEnv =
  | { kind: 'local'; dir: string }
  | { kind: 's3'; bucket: string; prefix: string; endpoint: string; region: string; accessKeyId: string; secretAccessKey: string; isPathStyle: boolean };

/** STORAGE_URL unset → DATA_DIR/blobs/objects; file:///dir → that folder; s3://bucket[/prefix] with S3_ENDPOINT and keys. */
function readStorage(source: NodeJS.ProcessEnv, dataDir: string, problems: string[]): StorageEnv {
  const url = source.STORAGE_URL || undefined;
  if (!url) return { kind: 'local', dir: path.join(dataDir, 'blobs', 'objects') };
  if (url.startsWith('file://')) {
    const dir = url.slice('file://'.length);
    if (!path.isAbsolute(dir)) problems.push('STORAGE_URL file:// needs an absolute folder, e.g. file:///srv/provena/objects');
    return { kind: 'local', dir };
  }
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) {
    problems.push('STORAGE_URL must be s3://bucket or s3://bucket/prefix (bucket: 3–63 lowercase letters, digits, dots, hyphens)');
    return { kind: 'local', dir: '' };
  }
  const endpoint = source.S3_ENDPOINT ?? '';
  if (!/^https?:\/\/[^/]+/.test(endpoint)) problems.push('S3_ENDPOINT must be the http(s):// address of the S3-compatible server when STORAGE_URL is s3://');
  const accessKeyId = source.S3_ACCESS_KEY_ID ?? '';
  const secretAccessKey = source.S3_SECRET_ACCESS_KEY ?? '';
  if (!accessKeyId || !secretAccessKey) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when STORAGE_URL is s3://');
  const pathStyle = source.S3_FORCE_PATH_STYLE ?? 'true';
  if (!['true', 'false', '1', '0'].includes(pathStyle)) problems.push('S3_FORCE_PATH_STYLE must be true or false');
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket: m[1]!,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: source.S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    isPathStyle: pathStyle === 'true' || pathStyle === '1',
  };
}

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
  const dataDir = path.resolve(source.DATA_DIR ?? './data');
  const storage = storageUrl && !/^(s3|file):\/\//.test(storageUrl) ? ({ kind: 'local', dir: '' } as const) : readStorage(source, dataDir, problems);
  const storageKeyText = source.STORAGE_KEY || undefined;
  if (storageKeyText && !/^[0-9a-fA-F]{64}$/.test(storageKeyText)) problems.push('STORAGE_KEY must be 64 hex digits (32 bytes), e.g. from `openssl rand -hex 32`');
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
    dataDir,
    databaseUrl,
    storageUrl,
    storage,
    storageKey: storageKeyText ? Buffer.from(storageKeyText, 'hex') : undefined,
    smsProvider: 'outbox',
    configFile: source.PROVENA_CONFIG || undefined,
    logLevel,
    cookieSecure: isOn(source.COOKIE_SECURE),
    trustProxy: isOn(source.TRUST_PROXY),
    appDir: path.resolve(source.APP_DIR ?? 'dist/app'),
    addressLimitFactor,
  };
}
