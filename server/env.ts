import path from 'node:path';
import { readKeysEnv, type KeysEnv } from './keys/keyring.ts';
import { readLlmEnv, type LlmEnv } from './gpt/config.ts';

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
  /** How text messages leave (SMS_PROVIDER and its settings). */
  sms: SmsEnv;
  /** Where platform private keys live: KEY_ENCRYPTION_KEY(_FILE), KEY_BACKEND (local|pkcs11), PKCS11_*, ROOT_KEY_PASSPHRASE(_FILE). */
  keys: KeysEnv;
  /** The public origin every absolute URL is built from (PUBLIC_URL; default http://localhost:8080). */
  publicUrl: string;
  /** Whether PUBLIC_URL was set: a server reachable from outside without it warns at boot. */
  isPublicUrlSet: boolean;
  isProduction: boolean;
  configFile: string | undefined;
  logLevel: string;
  cookieSecure: boolean;
  trustProxy: boolean;
  appDir: string;
  /** Multiplies the per-address rate limits (codes sent, logins); per-phone rules are unchanged. */
  addressLimitFactor: number;
  /** BIGSCREEN_FRAME_ANCESTORS: origins allowed to frame /bigscreen (every other page may be framed by none). */
  bigscreenFrameAncestors: string[];
  /**
   * The operations listener (OPS_PORT, OPS_HOST, default 127.0.0.1): /healthz, /readyz and
   * /metrics (Prometheus) on a port of their own, never on the public one; off when OPS_PORT is unset.
   */
  ops: { port: number; host: string } | null;
  /** SERVE_SOURCE_MAPS: serve the built app's .map files (off: they are built, not served). */
  serveSourceMaps: boolean;
  /** The chat assistant's model and limits (LLM_*, GPT_*; server/gpt/config.ts). */
  llm: LlmEnv;
  /**
   * PROVENA_ROLE: `all` (default, the embedded single process: API, sealer, jobs, timers),
   * `serve` (a stateless API replica: no sealer, no jobs, no timers) or `work` (jobs, the
   * sealer when elected leader, anchoring, timers; no public listener). serve and work share
   * the queue and the sealer lock through PostgreSQL, so they need DATABASE_URL.
   */
  role: Role;
  /**
   * UPLOAD_STAGING: where unfinished uploads live. `local` (the embedded default): a staging
   * folder DATA_DIR/uploads. `shared` (the default for PROVENA_ROLE=serve and work): state in the
   * database, sealed chunks in the object store, so any replica continues any upload.
   */
  uploadStaging: 'local' | 'shared';
};

export const ROLES = ['all', 'serve', 'work'] as const;
export type Role = (typeof ROLES)[number];

export const SMS_PROVIDERS = ['outbox', 'webhook', 'aliyun', 'tencent'] as const;

export type SmsEnv = {
  provider: (typeof SMS_PROVIDERS)[number];
  webhookUrl?: string;
  webhookSecret?: string;
  /** The carrier's API origin (SMS_ENDPOINT; defaults to the carrier's public one). */
  endpoint?: string;
  keyId?: string;
  keySecret?: string;
  signName?: string;
  sdkAppId?: string;
  region?: string;
  /** Carrier template ids: 'code' (one parameter, the code) and 'disclosure' (enterprise, name, link). */
  templates: Record<string, string>;
  /** Waits between delivery attempts (SMS_RETRY_DELAYS_MS, comma-separated; default 500,2000). */
  retryDelaysMs: number[];
};

const CARRIER_ENDPOINTS = { aliyun: 'https://dysmsapi.aliyuncs.com/', tencent: 'https://sms.tencentcloudapi.com/' } as const;

/** SMS_PROVIDER and what it needs; production refuses the outbox, which would keep codes on the server. */
function readSms(source: NodeJS.ProcessEnv, isProduction: boolean, problems: string[]): SmsEnv {
  const provider = (source.SMS_PROVIDER || 'outbox') as SmsEnv['provider'];
  const retryText = source.SMS_RETRY_DELAYS_MS ?? '500,2000';
  const retryDelaysMs = retryText === '' ? [] : retryText.split(',').map((x) => Number(x.trim()));
  if (retryDelaysMs.some((n) => !Number.isInteger(n) || n < 0 || n > 60_000) || retryDelaysMs.length > 5) {
    problems.push(`SMS_RETRY_DELAYS_MS must be up to 5 comma-separated waits in ms (0–60000), got "${retryText}"`);
  }
  const sms: SmsEnv = { provider, templates: {}, retryDelaysMs };
  if (!(SMS_PROVIDERS as readonly string[]).includes(provider)) {
    problems.push(`SMS_PROVIDER "${provider}" is not supported (supported: ${SMS_PROVIDERS.join(', ')})`);
    return sms;
  }
  if (provider === 'outbox') {
    if (isProduction) {
      problems.push(
        'NODE_ENV=production needs a real SMS_PROVIDER (webhook, aliyun or tencent): the outbox keeps login and reset codes on the server and is for a developer machine only',
      );
    }
    return sms;
  }
  const need = (name: string) => {
    const v = source[name];
    if (!v) problems.push(`${name} is required when SMS_PROVIDER=${provider}`);
    return v ?? '';
  };
  if (provider === 'webhook') {
    sms.webhookUrl = need('SMS_WEBHOOK_URL');
    if (sms.webhookUrl && !/^https?:\/\/[^/]+/.test(sms.webhookUrl)) problems.push('SMS_WEBHOOK_URL must be an http(s):// URL');
    sms.webhookSecret = need('SMS_WEBHOOK_SECRET');
    if (sms.webhookSecret && sms.webhookSecret.length < 16) problems.push('SMS_WEBHOOK_SECRET must be at least 16 characters');
    return sms;
  }
  sms.endpoint = source.SMS_ENDPOINT || CARRIER_ENDPOINTS[provider];
  if (!/^https?:\/\/[^/]+/.test(sms.endpoint)) problems.push('SMS_ENDPOINT must be an http(s):// URL');
  sms.keyId = need('SMS_ACCESS_KEY_ID');
  sms.keySecret = need('SMS_ACCESS_KEY_SECRET');
  sms.signName = need('SMS_SIGN_NAME');
  sms.templates = { code: need('SMS_TEMPLATE_CODE'), disclosure: need('SMS_TEMPLATE_DISCLOSURE') };
  if (provider === 'tencent') {
    sms.sdkAppId = need('SMS_SDK_APP_ID');
    sms.region = source.SMS_REGION || 'ap-guangzhou';
  }
  return sms;
}

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
  const role = (source.PROVENA_ROLE || 'all') as Role;
  if (!(ROLES as readonly string[]).includes(role)) problems.push(`PROVENA_ROLE must be one of ${ROLES.join(', ')}, got "${source.PROVENA_ROLE}"`);
  else if (role !== 'all' && !databaseUrl) problems.push(`provena ${role} shares the job queue and the sealer lock with the other processes through PostgreSQL: set DATABASE_URL (the embedded SQLite default runs everything in one process: npm start)`);
  const storageUrl = source.STORAGE_URL || undefined;
  if (storageUrl && !/^(s3|file):\/\//.test(storageUrl)) problems.push('STORAGE_URL must start with s3:// or file://');
  const dataDir = path.resolve(source.DATA_DIR ?? './data');
  const storage = storageUrl && !/^(s3|file):\/\//.test(storageUrl) ? ({ kind: 'local', dir: '' } as const) : readStorage(source, dataDir, problems);
  const storageKeyText = source.STORAGE_KEY || undefined;
  if (storageKeyText && !/^[0-9a-fA-F]{64}$/.test(storageKeyText)) problems.push('STORAGE_KEY must be 64 hex digits (32 bytes), e.g. from `openssl rand -hex 32`');
  const isProduction = source.NODE_ENV === 'production';
  const sms = readSms(source, isProduction, problems);
  const keys = readKeysEnv(source, problems);
  const publicUrl = (source.PUBLIC_URL || 'http://localhost:8080').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(publicUrl)) problems.push(`PUBLIC_URL must be an origin such as https://provena.example.com, got "${source.PUBLIC_URL}"`);
  const logLevel = source.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  for (const flag of ['COOKIE_SECURE', 'TRUST_PROXY']) {
    const v = source[flag];
    if (v !== undefined && v !== '' && !['true', 'false', '1', '0'].includes(v)) problems.push(`${flag} must be true or false`);
  }
  const factorText = source.ADDRESS_LIMIT_FACTOR ?? '1';
  const addressLimitFactor = Number(factorText);
  if (!Number.isInteger(addressLimitFactor) || addressLimitFactor < 1) problems.push(`ADDRESS_LIMIT_FACTOR must be a whole number ≥ 1, got "${factorText}"`);
  const bigscreenFrameAncestors = (source.BIGSCREEN_FRAME_ANCESTORS ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of bigscreenFrameAncestors) {
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) problems.push(`BIGSCREEN_FRAME_ANCESTORS must list origins like https://screen.example.com, got "${origin}"`);
  }
  const opsPortText = source.OPS_PORT;
  const opsPort = opsPortText === undefined || opsPortText === '' ? null : Number(opsPortText);
  if (opsPort !== null && (!Number.isInteger(opsPort) || opsPort < 0 || opsPort > 65535)) problems.push(`OPS_PORT must be an integer 0–65535, got "${opsPortText}"`);
  if (opsPort !== null && opsPort !== 0 && opsPort === port) problems.push('OPS_PORT must differ from PORT: operations stay off the public port');
  const llm = readLlmEnv(source, problems);
  const uploadStaging = (source.UPLOAD_STAGING || (role === 'all' ? 'local' : 'shared')) as Env['uploadStaging'];
  if (!['local', 'shared'].includes(uploadStaging)) problems.push(`UPLOAD_STAGING must be local or shared, got "${source.UPLOAD_STAGING}"`);
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
    sms,
    keys,
    publicUrl,
    isPublicUrlSet: Boolean(source.PUBLIC_URL),
    isProduction,
    configFile: source.PROVENA_CONFIG || undefined,
    logLevel,
    cookieSecure: isOn(source.COOKIE_SECURE),
    trustProxy: isOn(source.TRUST_PROXY),
    appDir: path.resolve(source.APP_DIR ?? 'dist/app'),
    addressLimitFactor,
    bigscreenFrameAncestors,
    role,
    ops: opsPort === null ? null : { port: opsPort, host: source.OPS_HOST || '127.0.0.1' },
    serveSourceMaps: isOn(source.SERVE_SOURCE_MAPS),
    llm,
    uploadStaging,
  };
}
