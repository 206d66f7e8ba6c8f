import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { HEADER, type ApplicationFileDto } from '../../core/applications.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import type { CertificateLocale } from '../locale.ts';
import { bumpStats, checkFileInput, fileDto, fileDtos, filesQuery, registerApplicationFile, registerApplicationFiles, type FileInput, type SignedCaller } from './applications.ts';

/**
 * What the signed open API does once the caller is authenticated (routes/open-api): register
 * one file or a batch (refusals count against the application's error rate), read its own
 * files, and keep the answers of Idempotency-Key requests.
 */

type Registrar = FastifyInstance['registerEntry'];
type BulkRegistrar = FastifyInstance['registerEntries'];

/** The stored answer for this Idempotency-Key, if any; the same key on another request is refused. */
export async function storedAnswer(db: Db, applicationId: number, key: string, fingerprint: string): Promise<{ status: number; response: string } | null> {
  const stored = await db.selectFrom('application_idempotency').selectAll().where('application_id', '=', applicationId).where('idem_key', '=', key).executeTakeFirst();
  if (!stored) return null;
  if (stored.request_hash !== fingerprint) fail('invalid_param', HEADER.idempotency);
  return { status: Number(stored.status), response: stored.response };
}

/** Keeps the first answer under its Idempotency-Key (a concurrent twin that stored first wins). */
export async function rememberAnswer(db: Db, applicationId: number, key: string, fingerprint: string, result: unknown): Promise<void> {
  try {
    await db.insertInto('application_idempotency').values({ application_id: applicationId, idem_key: key, request_hash: fingerprint, status: 200, response: JSON.stringify(result), created_at: Date.now() }).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** One file: its registration or the §8 refusal; refusals count against the application's error rate. */
export async function registerOneFile(db: Db, registerEntry: Registrar, config: DeploymentConfig, caller: SignedCaller, item: unknown, locale: CertificateLocale): Promise<{ fileId: number; duplicate: boolean; size: number }> {
  const checked = checkFileInput(item);
  if (!checked.ok) {
    await bumpStats(db, caller.application.id, Date.now(), { refusals: 1 });
    fail(checked.message, checked.field_name);
  }
  try {
    const r = await registerApplicationFile(db, registerEntry, config, caller.application, checked.value, locale);
    await bumpStats(db, caller.application.id, Date.now(), r.duplicate ? {} : { registrations: 1, bytes: checked.value.size });
    return { ...r, size: checked.value.size };
  } catch (error) {
    if (error instanceof ApiError) await bumpStats(db, caller.application.id, Date.now(), { refusals: 1 });
    throw error;
  }
}

/** A batch: each item answered at its index, the entry or the refusal on its field; one refused item never stops the others. */
export async function registerFileBatch(db: Db, registerEntries: BulkRegistrar, registerEntry: Registrar, config: DeploymentConfig, caller: SignedCaller, items: unknown[], locale: CertificateLocale, log: FastifyBaseLogger) {
  const outcomes: Array<{ index: number; fileId: number; duplicate: boolean; file?: ApplicationFileDto } | { index: number; message: string; field_name?: string }> = [];
  // Every item is checked first; the valid ones are registered together (one transaction
  // of bulk statements), each answered at its index; the minute's counts are one upsert.
  const valid: Array<{ index: number; input: FileInput }> = [];
  let refusals = 0;
  for (const [index, item] of items.entries()) {
    const checked = checkFileInput(item);
    if (checked.ok) valid.push({ index, input: checked.value });
    else {
      refusals += 1;
      outcomes[index] = { index, message: checked.message, field_name: checked.field_name };
    }
  }
  let registrations = 0;
  let bytes = 0;
  if (valid.length) {
    try {
      const results = await registerApplicationFiles(
        db,
        registerEntries,
        registerEntry,
        config,
        caller.application,
        valid.map((v) => v.input),
        locale,
      );
      results.forEach((r, k) => {
        const { index, input } = valid[k]!;
        if (r.ok) {
          outcomes[index] = { index, fileId: r.fileId, duplicate: r.duplicate, ...(r.file ? { file: r.file } : {}) };
          if (!r.duplicate) {
            registrations += 1;
            bytes += input.size;
          }
        } else {
          refusals += 1;
          outcomes[index] = { index, message: r.error.key, ...(r.error.field ? { field_name: r.error.field } : {}) };
        }
      });
    } catch (error) {
      log.error({ err: error }, 'application batch failed');
      for (const { index } of valid) outcomes[index] = { index, message: 'server error' };
    }
  }
  if (registrations || bytes || refusals) await bumpStats(db, caller.application.id, Date.now(), { registrations, bytes, refusals });
  // Files registered by this batch are answered from what was written; only earlier ones are read.
  const dtos = await fileDtos(db, outcomes.flatMap((o) => ('fileId' in o && !o.file ? [o.fileId] : [])));
  const results = outcomes.map((o) => ('fileId' in o ? { index: o.index, ok: true, file: { ...(o.file ?? dtos.get(o.fileId)), duplicate: o.duplicate } } : { index: o.index, ok: false, message: o.message, ...(o.field_name ? { field_name: o.field_name } : {}) }));
  const registered = results.filter((r) => r.ok).length;
  return { results, registered, refused: results.length - registered };
}

/** One of the caller's own files by its DNA; not_found otherwise. */
export async function ownFile(db: Db, caller: SignedCaller, dna: string): Promise<ApplicationFileDto> {
  if (!DNA_PATTERN.test(dna)) fail('not_found', 'dna');
  const row = await filesQuery(db).where('f.application_id', '=', caller.application.id).where('f.dna', '=', dna).executeTakeFirst();
  if (!row) fail('not_found', 'dna');
  return fileDto(row as Parameters<typeof fileDto>[0]);
}
