/**
 * External applications: keys and their sealed secrets, signed-request checks,
 * the registration of files (a feature service: the owner's unfrozen membership and credits
 * are checked, the price charged, the ledger entry and the file row written in one
 * transaction), per-minute counts, and the DTOs the screens read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import { insertRows } from '../db/bulk-insert.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import { PROOF_STATUS_REGISTERED, type RegisterInput, type InTransaction, type InTransactionMany, type Registration } from '../ledger/ledger.ts';
import { ApiError, fail } from '../errors.ts';
import { chargeRegistration, chargeRegistrations } from './credits.ts';
import { registrationPrice } from '../../core/credits.ts';
import { canSeeEnterpriseData } from '../../core/enterprise.ts';
import { isProofStatusGenerated } from '../../core/vault.ts';
import { parseFileIdentity } from '../../core/file-identity.ts';
import { proofStatusColumn } from '../proofs/proof-status-sql.ts';
import {
  ACTIVE_KEYS_MAX,
  FILE_NAME_MAX,
  HEADER,
  KEY_ID_PATTERN,
  METADATA_MAX_BYTES,
  NONCE_PATTERN,
  SIGNATURE_WINDOW_SECONDS,
  signRequest,
  signaturesEqual,
  type ApplicationDto,
  type ApplicationFileDto,
  type ApplicationKeyDto,
  type ApplicationState,
} from '../../core/applications.ts';

export type ApplicationRow = Database['applications'] extends infer T ? { [K in keyof T]: T[K] extends import('kysely').Generated<infer U> ? U : T[K] } : never;

export const LEDGER_KIND_APPLICATION = 'application';

export function newKeyId(): string {
  return `ak_${randomBytes(12).toString('hex')}`;
}
export function newSecret(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

/** Opened secrets by key id: HMAC checks need the secret, and opening it per request costs an AES-GCM decryption. */
const secretCache = new WeakMap<Keyring, Map<string, string>>();

export async function createKey(db: Kysely<Database>, keyring: Keyring, applicationId: number, now = Date.now()): Promise<{ key_id: string; secret: string }> {
  const keyId = newKeyId();
  const secret = newSecret();
  const sealed = await keyring.sealSecret(`application-key:${keyId}`, new TextEncoder().encode(secret));
  await db.insertInto('application_keys').values({ key_id: keyId, application_id: applicationId, sealed_secret: sealed, created_at: now, revoked_at: null, last_used_at: null }).execute();
  return { key_id: keyId, secret };
}

export async function openKeySecret(keyring: Keyring, keyId: string, sealed: string): Promise<string> {
  let cache = secretCache.get(keyring);
  if (!cache) secretCache.set(keyring, (cache = new Map()));
  const hit = cache.get(keyId);
  if (hit) return hit;
  const secret = new TextDecoder().decode(await keyring.openSecret(`application-key:${keyId}`, sealed));
  if (cache.size > 50_000) cache.clear();
  cache.set(keyId, secret);
  return secret;
}

export function activeKeyCount(keys: Array<{ revoked_at: number | null }>): number {
  return keys.filter((k) => k.revoked_at === null).length;
}
export { ACTIVE_KEYS_MAX };

/** Adds to this minute's counts of an application (one upsert). */
export async function bumpStats(
  db: Kysely<Database>,
  applicationId: number,
  now: number,
  delta: Partial<Record<'registrations' | 'bytes' | 'heartbeats' | 'refusals' | 'signature_failures', number>>,
): Promise<void> {
  const minute = Math.floor(now / 60_000) * 60_000;
  const v = { registrations: 0, bytes: 0, heartbeats: 0, refusals: 0, signature_failures: 0, ...delta };
  await db
    .insertInto('application_stats')
    .values({ application_id: applicationId, minute, ...v })
    .onConflict((oc) =>
      oc.columns(['application_id', 'minute']).doUpdateSet({
        registrations: sql`application_stats.registrations + excluded.registrations`,
        bytes: sql`application_stats.bytes + excluded.bytes`,
        heartbeats: sql`application_stats.heartbeats + excluded.heartbeats`,
        refusals: sql`application_stats.refusals + excluded.refusals`,
        signature_failures: sql`application_stats.signature_failures + excluded.signature_failures`,
      }),
    )
    .execute();
}

/** A refused signed request: 401 with the §8 token_invalid key, naming the header at fault. */
export class SignatureError extends ApiError {
  constructor(header: string) {
    super('token_invalid', header, 401);
  }
}

export type SignedCaller = { application: ApplicationRow; keyId: string };

/**
 * Checks a signed open-API request (scheme in core/applications.ts): the key is known and
 * not revoked, its application not deleted, the timestamp within ±300 s, the HMAC over
 * method, path, timestamp, nonce and the body's SHA-256 right, and the nonce new for this
 * key (stored until the window has passed, so a replay inside the window is refused and one
 * after it fails on the timestamp). A failure with a known key counts against its application.
 */
export async function authenticate(db: Db, keyring: Keyring, req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; rawBody: string }, now = Date.now()): Promise<SignedCaller> {
  const header = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v.trim() : '';
  };
  const keyId = header(HEADER.key);
  const timestamp = header(HEADER.timestamp);
  const nonce = header(HEADER.nonce);
  const signature = header(HEADER.signature);
  if (!KEY_ID_PATTERN.test(keyId)) throw new SignatureError(HEADER.key);
  // The key and its application in one read (the application row is the caller's).
  const key = await db
    .selectFrom('application_keys as k')
    .innerJoin('applications as a', 'a.id', 'k.application_id')
    .selectAll('a')
    .select(['k.key_id', 'k.sealed_secret', 'k.revoked_at', 'k.application_id'])
    .where('k.key_id', '=', keyId)
    .where('a.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!key) throw new SignatureError(HEADER.key);
  const applicationId = Number(key.application_id);
  const refuse = async (name: string): Promise<never> => {
    await bumpStats(db, applicationId, now, { signature_failures: 1 });
    throw new SignatureError(name);
  };
  if (key.revoked_at !== null) await refuse(HEADER.key);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - now / 1000) > SIGNATURE_WINDOW_SECONDS) await refuse(HEADER.timestamp);
  if (!NONCE_PATTERN.test(nonce)) await refuse(HEADER.nonce);
  const secret = await openKeySecret(keyring, keyId, key.sealed_secret);
  const expected = signRequest(secret, { method: req.method, path: req.url, timestamp, nonce, body: req.rawBody });
  if (!signaturesEqual(expected, signature)) await refuse(HEADER.signature);
  try {
    await db.insertInto('application_nonces').values({ key_id: keyId, nonce, expires_at: now + 2 * SIGNATURE_WINDOW_SECONDS * 1000 }).execute();
  } catch (error) {
    if (isUniqueViolation(error)) await refuse(HEADER.nonce);
    throw error;
  }
  const { key_id: _keyId, sealed_secret: _sealed, revoked_at: _revoked, application_id: _applicationId, ...application } = key;
  await Promise.all([
    db.updateTable('applications').set({ last_seen_at: now }).where('id', '=', applicationId).execute(),
    db.updateTable('application_keys').set({ last_used_at: now }).where('key_id', '=', keyId).execute(),
  ]);
  return { application: { ...(application as ApplicationRow), last_seen_at: now }, keyId };
}

export async function purgeNonces(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db.deleteFrom('application_nonces').where('expires_at', '<', now).execute();
  await db.deleteFrom('application_idempotency').where('created_at', '<', now - 24 * 60 * 60 * 1000).execute();
}

export type FileInput = { identity: { sha256: string; extension: string }; name: string; size: number; metadata: string | null };

type Checked<T> = { ok: true; value: T } | { ok: false; message: import('../../core/errors.ts').ErrorKey; field_name: string };

/** One file of a registration request, each rule answering on its field. */
export function checkFileInput(raw: unknown): Checked<FileInput> {
  const r = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  if (typeof r.file_hash !== 'string' || !r.file_hash.trim()) return { ok: false, message: 'required', field_name: 'file_hash' };
  const identity = parseFileIdentity(r.file_hash.trim().toLowerCase());
  if (!identity) return { ok: false, message: 'invalid_param', field_name: 'file_hash' };
  const name = typeof r.name === 'string' ? r.name.trim() : '';
  if (!name) return { ok: false, message: 'required', field_name: 'name' };
  if (name.length > FILE_NAME_MAX) return { ok: false, message: 'invalid_param', field_name: 'name' };
  if (typeof r.size !== 'number' || !Number.isSafeInteger(r.size) || r.size < 0) return { ok: false, message: 'invalid_param', field_name: 'size' };
  let metadata: string | null = null;
  if (r.metadata !== undefined && r.metadata !== null) {
    if (typeof r.metadata !== 'object' || Array.isArray(r.metadata)) return { ok: false, message: 'invalid_param', field_name: 'metadata' };
    metadata = JSON.stringify(r.metadata);
    if (new TextEncoder().encode(metadata).length > METADATA_MAX_BYTES) return { ok: false, message: 'invalid_param', field_name: 'metadata' };
  }
  return { ok: true, value: { identity, name, size: r.size, metadata } };
}

type Registrar = (input: RegisterInput, inTransaction?: InTransaction) => Promise<Registration>;

/** The application_files row of one registered file: what was sent, what the ledger gave, what it cost. */
function fileRow(application: ApplicationRow, enterpriseId: number, input: FileInput, registration: { dna: string; file_hash: string; registered_at: number }, credits: number) {
  return {
    application_id: application.id,
    enterprise_id: enterpriseId,
    name: input.name,
    file_hash: registration.file_hash,
    digest: input.identity.sha256,
    size: input.size,
    metadata: input.metadata,
    dna: registration.dna,
    credits,
    created_at: registration.registered_at,
  };
}

/**
 * Registers one file for an application. A content the application registered before
 * answers that entry (`duplicate`, nothing charged). Otherwise the ledger entry, the charge
 * of credits.applicationFile to the application's owner (whose confirmed, unfrozen
 * membership is read again inside the transaction) and the file row commit together; the
 * enterprise name in the record is the enterprise row's.
 */
export async function registerApplicationFile(
  db: Db,
  registerEntry: Registrar,
  config: DeploymentConfig,
  application: ApplicationRow,
  input: FileInput,
  locale: 'zh' | 'en' | 'ja' = 'zh',
): Promise<{ fileId: number; duplicate: boolean }> {
  const existing = async () => db.selectFrom('application_files').select('id').where('application_id', '=', application.id).where('digest', '=', input.identity.sha256).executeTakeFirst();
  const before = await existing();
  if (before) return { fileId: Number(before.id), duplicate: true };
  const enterprise = await db.selectFrom('enterprises').select(['id', 'name']).where('id', '=', application.enterprise_id).executeTakeFirstOrThrow();
  let fileId = 0;
  try {
    await registerEntry(
      { fileHash: `0x${input.identity.sha256}${input.identity.extension}`, enterpriseName: enterprise.name, registrantUserId: application.owner_user_id, kind: LEDGER_KIND_APPLICATION, locale },
      async (trx, registration) => {
        const { charged } = await chargeRegistration(trx, config, { enterpriseId: enterprise.id, userId: application.owner_user_id, kind: 'application_file', dna: registration.dna, name: input.name });
        const row = await trx
          .insertInto('application_files')
          .values(fileRow(application, enterprise.id, input, registration, charged))
          .returning('id')
          .executeTakeFirstOrThrow();
        fileId = Number(row.id);
      },
    );
  } catch (error) {
    if (!(error instanceof ApiError) && isUniqueViolation(error)) {
      const raced = await existing();
      if (raced) return { fileId: Number(raced.id), duplicate: true };
    }
    throw error;
  }
  return { fileId, duplicate: false };
}

const FILE_ROW_COLUMNS = ['application_id', 'enterprise_id', 'name', 'file_hash', 'digest', 'size', 'metadata', 'dna', 'credits', 'created_at'] as const;

type RegistrarMany = (inputs: RegisterInput[], inTransaction?: InTransactionMany) => Promise<Registration[]>;

/** The owner can pay for only the first `affordable` files of a batch (read inside its transaction). */
class Shortfall extends Error {
  readonly affordable: number;
  constructor(affordable: number) {
    super('not enough credits for the whole batch');
    this.affordable = affordable;
  }
}

/** `file`: the answer of a file this call registered, as fileDtos would read it right after the commit (no block yet). */
export type FileOutcome = { ok: true; fileId: number; duplicate: boolean; file?: ApplicationFileDto } | { ok: false; error: ApiError };

/**
 * Registers a batch of files for an application, in order, with the same answers as
 * registerApplicationFile called once per file, but in ONE transaction of bulk statements
 * (the ledger's registerMany): the owner's confirmed, unfrozen membership is read once inside
 * it, the owner is charged credits.applicationFile per new file (one conditional debit, the
 * movements in bulk), and the ledger entries, proof rows and file rows are multi-row inserts.
 * A content registered before (or earlier in the same batch) answers its first entry, nothing
 * charged. When the owner can pay for only the first k new files, those k are registered and
 * the rest refused with §8 integrals_not_enough, as one-by-one registration would. Should the
 * bulk transaction fail otherwise (a concurrent request registered the same content first), it
 * wrote nothing and every file goes the one-by-one way, concurrently so that the ledger's group
 * commit still puts them in one transaction.
 */
export async function registerApplicationFiles(
  db: Db,
  registerEntries: RegistrarMany,
  registerEntry: Registrar,
  config: DeploymentConfig,
  application: ApplicationRow,
  inputs: FileInput[],
  locale: 'zh' | 'en' | 'ja' = 'zh',
): Promise<FileOutcome[]> {
  const outcomes = new Array<FileOutcome | undefined>(inputs.length);
  const digests = [...new Set(inputs.map((i) => i.identity.sha256))];
  const known = new Map<string, number>();
  for (let i = 0; i < digests.length; i += 500) {
    const rows = await db.selectFrom('application_files').select(['id', 'digest']).where('application_id', '=', application.id).where('digest', 'in', digests.slice(i, i + 500)).execute();
    for (const r of rows) known.set(r.digest, Number(r.id));
  }
  // The first occurrence of each new content is registered; later ones answer it.
  const fresh: number[] = [];
  const firstOf = new Map<string, number>();
  inputs.forEach((input, index) => {
    const id = known.get(input.identity.sha256);
    if (id !== undefined) outcomes[index] = { ok: true, fileId: id, duplicate: true };
    else if (firstOf.has(input.identity.sha256)) return;
    else {
      firstOf.set(input.identity.sha256, index);
      fresh.push(index);
    }
  });
  if (fresh.length) {
    const enterprise = await db.selectFrom('enterprises').select(['id', 'name']).where('id', '=', application.enterprise_id).executeTakeFirstOrThrow();
    const price = registrationPrice(config, 'application_file');
    let take = fresh;
    for (let attempt = 0; ; attempt++) {
      try {
        const files = await registerFresh(take);
        take.forEach((index, k) => (outcomes[index] = { ok: true, fileId: files[k]!.file_id, duplicate: false, file: files[k]! }));
        fresh.slice(take.length).forEach((index) => (outcomes[index] = { ok: false, error: new ApiError('integrals_not_enough') }));
        break;
      } catch (error) {
        if (error instanceof Shortfall && attempt < 3) {
          take = fresh.slice(0, error.affordable);
          if (take.length) continue;
          fresh.forEach((index) => (outcomes[index] = { ok: false, error: new ApiError('integrals_not_enough') }));
          break;
        }
        if (error instanceof ApiError) {
          // forbidden (the owner is no longer a confirmed member): every new file is refused with it.
          fresh.forEach((index) => (outcomes[index] = { ok: false, error: error as ApiError }));
          break;
        }
        if (error instanceof Shortfall || !isUniqueViolation(error)) throw error;
        // A concurrent request registered one of these contents first: one by one, concurrently.
        const settled = await Promise.allSettled(fresh.map((index) => registerApplicationFile(db, registerEntry, config, application, inputs[index]!, locale)));
        settled.forEach((r, k) => {
          const index = fresh[k]!;
          if (r.status === 'fulfilled') outcomes[index] = { ok: true, ...r.value };
          else if (r.reason instanceof ApiError) outcomes[index] = { ok: false, error: r.reason };
          else throw r.reason;
        });
        break;
      }
    }

    async function registerFresh(indexes: number[]): Promise<ApplicationFileDto[]> {
      const files: ApplicationFileDto[] = [];
      await registerEntries(
        indexes.map((index) => ({ fileHash: `0x${inputs[index]!.identity.sha256}${inputs[index]!.identity.extension}`, enterpriseName: enterprise.name, registrantUserId: application.owner_user_id, kind: LEDGER_KIND_APPLICATION, locale })),
        async (trx, registrations) => {
          // The owner's confirmed, unfrozen membership and balance, read once inside the
          // transaction by the charge; a balance short of the whole batch names how many it covers.
          const { chargedEach } = await chargeRegistrations(trx, config, {
            enterpriseId: enterprise.id,
            userId: application.owner_user_id,
            kind: 'application_file',
            items: registrations.map((r, k) => ({ dna: r.dna, name: inputs[indexes[k]!]!.name })),
            onShortfall: (balance) => {
              throw new Shortfall(Math.floor(balance / price));
            },
          });
          for (let i = 0; i < registrations.length; i += 200) {
            const rows = await insertRows(
              trx,
              'application_files',
              FILE_ROW_COLUMNS,
              registrations.slice(i, i + 200).map((registration, k) => fileRow(application, enterprise.id, inputs[indexes[i + k]!]!, registration, chargedEach)),
              ['id', 'dna'],
            );
            const byDna = new Map(rows.map((r) => [String(r.dna), Number(r.id)]));
            registrations.slice(i, i + 200).forEach((registration, k) => {
              const input = inputs[indexes[i + k]!]!;
              files.push({
                file_id: byDna.get(registration.dna)!,
                application_id: Number(application.id),
                dip_id: registration.dna,
                name: input.name,
                file_hash: registration.file_hash,
                size: input.size,
                metadata: input.metadata ? (JSON.parse(input.metadata) as Record<string, unknown>) : null,
                credits: chargedEach,
                proof_status: PROOF_STATUS_REGISTERED,
                is_generated: isProofStatusGenerated(PROOF_STATUS_REGISTERED),
                block_height: null,
                registered_at: registration.registered_at,
              });
            });
          }
        },
      );
      return files;
    }
  }
  // Later occurrences of a content new in this batch answer its first entry.
  inputs.forEach((input, index) => {
    if (outcomes[index]) return;
    const first = outcomes[firstOf.get(input.identity.sha256)!]!;
    outcomes[index] = first.ok ? { ok: true, fileId: first.fileId, duplicate: true } : first;
  });
  return outcomes as FileOutcome[];
}

const FILE_COLUMNS = ['f.id', 'f.application_id', 'f.dna', 'f.name', 'f.file_hash', 'f.size', 'f.metadata', 'f.credits', 'f.created_at', proofStatusColumn('pr'), 'e.block_height'] as const;

export function filesQuery(db: Kysely<Database>) {
  return db.selectFrom('application_files as f').leftJoin('proofs as pr', 'pr.dna', 'f.dna').innerJoin('ledger_entries as e', 'e.dna', 'f.dna').select([...FILE_COLUMNS]);
}

type FileRow = { id: number; application_id: number; dna: string; name: string; file_hash: string; size: number; metadata: string | null; credits: number; created_at: number; status: number; block_height: number | null };

export function fileDto(r: FileRow): ApplicationFileDto {
  return {
    file_id: Number(r.id),
    application_id: Number(r.application_id),
    dip_id: r.dna,
    name: r.name,
    file_hash: r.file_hash,
    size: Number(r.size),
    metadata: r.metadata ? (JSON.parse(r.metadata) as Record<string, unknown>) : null,
    credits: Number(r.credits),
    proof_status: Number(r.status),
    is_generated: isProofStatusGenerated(Number(r.status)),
    block_height: r.block_height === null ? null : Number(r.block_height),
    registered_at: Number(r.created_at),
  };
}

export async function fileDtos(db: Kysely<Database>, ids: number[]): Promise<Map<number, ApplicationFileDto>> {
  if (!ids.length) return new Map();
  const rows = (await filesQuery(db).where('f.id', 'in', ids).execute()) as FileRow[];
  return new Map(rows.map((r) => [Number(r.id), fileDto(r)]));
}

export type ApplicationViewer = { userId: number; role: number; enterpriseId: number };

/** §6-style visibility: roles 1–3 see every application of the enterprise; a member those they own. */
export function visibleApplications(db: Kysely<Database>, viewer: ApplicationViewer) {
  let q = db.selectFrom('applications as a').where('a.enterprise_id', '=', viewer.enterpriseId).where('a.deleted_at', 'is', null);
  if (!canSeeEnterpriseData(viewer.role)) q = q.where('a.owner_user_id', '=', viewer.userId);
  return q;
}

export async function applicationDtos(db: Kysely<Database>, rows: ApplicationRow[]): Promise<ApplicationDto[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => Number(r.id));
  const [keys, counts, owners, alarms] = await Promise.all([
    db.selectFrom('application_keys').select(['key_id', 'application_id', 'created_at', 'revoked_at', 'last_used_at']).where('application_id', 'in', ids).orderBy('created_at').execute(),
    db.selectFrom('application_files').select(['application_id', (eb) => eb.fn.countAll<number>().as('n')]).where('application_id', 'in', ids).groupBy('application_id').execute(),
    db.selectFrom('users').select(['id', 'real_name', 'name']).where('id', 'in', rows.map((r) => Number(r.owner_user_id))).execute(),
    db.selectFrom('application_alarms').select(['application_id', (eb) => eb.fn.countAll<number>().as('n')]).where('application_id', 'in', ids).where('acknowledged_at', 'is', null).groupBy('application_id').execute(),
  ]);
  const keysOf = new Map<number, ApplicationKeyDto[]>();
  for (const k of keys) {
    const list = keysOf.get(Number(k.application_id)) ?? [];
    list.push({ key_id: k.key_id, created_at: Number(k.created_at), revoked_at: k.revoked_at === null ? null : Number(k.revoked_at), last_used_at: k.last_used_at === null ? null : Number(k.last_used_at) });
    keysOf.set(Number(k.application_id), list);
  }
  const countOf = new Map(counts.map((c) => [Number(c.application_id), Number(c.n)]));
  const alarmsOf = new Map(alarms.map((c) => [Number(c.application_id), Number(c.n)]));
  const ownerOf = new Map(owners.map((u) => [Number(u.id), u.real_name || u.name]));
  return rows.map((r) => ({
    application_id: Number(r.id),
    name: r.name,
    description: r.description,
    interval_seconds: Number(r.interval_seconds),
    grace_seconds: Number(r.grace_seconds),
    alarm_phones: JSON.parse(r.alarm_phones) as string[],
    webhook_urls: JSON.parse(r.webhook_urls) as string[],
    is_paused: Boolean(Number(r.is_paused)),
    state: r.state as ApplicationState,
    state_reason: r.state_reason,
    state_since: r.state_since === null ? null : Number(r.state_since),
    last_seen_at: r.last_seen_at === null ? null : Number(r.last_seen_at),
    owner_user_id: Number(r.owner_user_id),
    owner_name: ownerOf.get(Number(r.owner_user_id)) ?? '',
    file_count: countOf.get(Number(r.id)) ?? 0,
    created_at: Number(r.created_at),
    keys: keysOf.get(Number(r.id)) ?? [],
    unacknowledged_alarms: alarmsOf.get(Number(r.id)) ?? 0,
  }));
}

/** An idempotent answer's fingerprint: the same key with another request is refused. */
export function requestFingerprint(method: string, url: string, rawBody: string): string {
  return createHash('sha256').update(`${method}\n${url.split('?')[0]}\n${rawBody}`).digest('hex');
}

/** The application file an application-file DNA or hash names, within the viewer's visibility (§3 search entity_type 4). */
export async function findApplicationFileByKeyword(db: Kysely<Database>, viewer: ApplicationViewer, keyword: string): Promise<{ dip_id: string; application_id: number; file_id: number } | null> {
  const text = keyword.trim();
  let q = db
    .selectFrom('application_files as f')
    .innerJoin('applications as a', 'a.id', 'f.application_id')
    .select(['f.dna', 'f.id', 'f.application_id'])
    .where('f.enterprise_id', '=', viewer.enterpriseId)
    .where('a.deleted_at', 'is', null);
  if (/^pv[a-z2-7]{20}$/.test(text)) q = q.where('f.dna', '=', text);
  else {
    const hex = /^(?:0x)?([0-9a-f]{64})/i.exec(text)?.[1]?.toLowerCase();
    if (!hex) return null;
    q = q.where('f.digest', '=', hex);
  }
  if (!canSeeEnterpriseData(viewer.role)) q = q.where('a.owner_user_id', '=', viewer.userId);
  const row = await q.orderBy('f.id').executeTakeFirst();
  return row ? { dip_id: row.dna, application_id: Number(row.application_id), file_id: Number(row.id) } : null;
}

export function failNotFound(): never {
  fail('not_found', 'application_id');
}
