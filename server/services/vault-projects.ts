import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { SMS_TYPES } from '../../core/constants.ts';
import type { DeploymentConfig } from '../../core/config.ts';
import type { Paged } from '../../core/api-types.ts';
import type { ErrorKey } from '../../core/errors.ts';
import { parseFileIdentity } from '../../core/file-identity.ts';
import {
  checkProjectDescription,
  checkProjectName,
  checkVaultFileName,
  type VaultAction,
  type VaultAuthorizationDto,
  type VaultFileDto,
  type VaultLogDto,
  type VaultProjectDto,
} from '../../core/vault.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import { forbidden, type MemberContext } from '../plugins/enterprises.ts';
import type { CertificateLocale } from '../locale.ts';
import { chargeRegistration } from './credits.ts';
import type { CodeService } from './sms.ts';
import { canWriteProject, seesAllVault, visibleProject, writeVaultLog, type VaultViewer } from './vault.ts';
import { readProofPdf } from './proof-pdf.ts';
import type { ObjectDriver } from '../storage/drivers.ts';
import { registrationOf } from './registered-file.ts';
import { proofStatusColumn } from '../proofs/proof-status-sql.ts';

/**
 * The trade-secret vault's unlocking, projects, files and log: the routes check that the
 * caller is a member with the vault open; these functions decide, read and write.
 */

/** A member whose vault is open for this login session and company. */
export type VaultContext = MemberContext & { viewer: VaultViewer; sessionId: string };
type Registrar = FastifyInstance['registerEntry'];
type PageWindow = { page: number; size: number; offset: number };

function rule(key: ErrorKey | null, field: string): void {
  if (key) fail(key, field);
}

function displayName(u: { real_name: string; name: string }): string {
  return u.real_name || u.name;
}

// ---- unlocking -------------------------------------------------------------------------

/** Whether the vault is open now for this login session and company. */
export async function isVaultOpen(db: Db, sessionId: string, enterpriseId: number): Promise<boolean> {
  const open = await db.selectFrom('vault_sessions').select('expires_at').where('session_id', '=', sessionId).where('enterprise_id', '=', enterpriseId).where('expires_at', '>', Date.now()).executeTakeFirst();
  return Boolean(open);
}

export async function vaultAuthorization(db: Db, config: DeploymentConfig, sessionId: string, enterpriseId: number): Promise<VaultAuthorizationDto> {
  const row = await db.selectFrom('vault_sessions').select(['unlocked_at', 'expires_at']).where('session_id', '=', sessionId).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
  const isUnlocked = Boolean(row && Number(row.expires_at) > Date.now());
  return {
    is_unlocked: isUnlocked,
    unlocked_at: isUnlocked && row ? Number(row.unlocked_at) : null,
    expires_at: isUnlocked && row ? Number(row.expires_at) : null,
    session_seconds: config.vaultSessionSeconds,
  };
}

/** Opens the vault for vaultSessionSeconds with the type-18 code sent to the member's own phone. */
export async function unlockVault(db: Db, codes: CodeService, config: DeploymentConfig, m: MemberContext & { sessionId: string }, code: string): Promise<VaultAuthorizationDto> {
  const now = Date.now();
  const outcome = await db.transaction().execute(async (trx) => {
    const error = await codes.consume(trx, m.user.phonenumber, SMS_TYPES.vaultUnlock, code);
    if (error) return { error };
    const values = { user_id: m.user.id, enterprise_id: m.employee.enterprise_id, unlocked_at: now, expires_at: now + config.vaultSessionSeconds * 1000 };
    await trx
      .insertInto('vault_sessions')
      .values({ session_id: m.sessionId, ...values })
      .onConflict((oc) => oc.column('session_id').doUpdateSet(values))
      .execute();
    await writeVaultLog(trx, { enterpriseId: m.employee.enterprise_id, projectId: null, userId: m.user.id, action: 'vault_unlocked' });
    return { ok: true };
  });
  if ('error' in outcome) throw outcome.error;
  return vaultAuthorization(db, config, m.sessionId, m.employee.enterprise_id);
}

/** Locks the vault now; the next vault call needs a new code. */
export async function lockVault(db: Db, config: DeploymentConfig, m: MemberContext & { sessionId: string }): Promise<VaultAuthorizationDto> {
  const removed = await db.deleteFrom('vault_sessions').where('session_id', '=', m.sessionId).where('expires_at', '>', Date.now()).executeTakeFirst();
  if (Number(removed.numDeletedRows) > 0) {
    await writeVaultLog(db, { enterpriseId: m.employee.enterprise_id, projectId: null, userId: m.user.id, action: 'vault_locked' });
  }
  await db.deleteFrom('vault_sessions').where('session_id', '=', m.sessionId).execute();
  return vaultAuthorization(db, config, m.sessionId, m.employee.enterprise_id);
}

// ---- projects --------------------------------------------------------------------------

export async function projectOr404(db: Db, v: VaultContext, projectId: number) {
  const project = await visibleProject(db, v.employee.enterprise_id, v.viewer, projectId);
  if (!project) fail('not_found', 'project_id');
  return project;
}

function projectQuery(db: Db, v: VaultContext) {
  let q = db.selectFrom('vault_projects as p').innerJoin('users as u', 'u.id', 'p.owner_user_id').where('p.enterprise_id', '=', v.employee.enterprise_id);
  if (!seesAllVault(v.viewer)) q = q.where('p.owner_user_id', '=', v.user.id);
  return q;
}

type ProjectRow = { id: number; name: string; description: string; owner_user_id: number; created_at: number; updated_at: number; real_name: string; owner_login_name: string };

async function projectDtos(db: Db, v: VaultContext, rows: ProjectRow[]): Promise<VaultProjectDto[]> {
  const ids = rows.map((r) => r.id);
  const counts = ids.length
    ? await db.selectFrom('vault_files').select(['project_id', (eb) => eb.fn.countAll<number>().as('n')]).where('project_id', 'in', ids).groupBy('project_id').execute()
    : [];
  const countOf = new Map(counts.map((c) => [Number(c.project_id), Number(c.n)]));
  return rows.map((r) => ({
    project_id: Number(r.id),
    name: r.name,
    description: r.description,
    owner_user_id: Number(r.owner_user_id),
    owner_name: r.real_name || r.owner_login_name,
    file_count: countOf.get(Number(r.id)) ?? 0,
    is_editable: canWriteProject(v.viewer, { owner_user_id: Number(r.owner_user_id) }),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }));
}

const projectColumns = ['p.id', 'p.name', 'p.description', 'p.owner_user_id', 'p.created_at', 'p.updated_at', 'u.real_name', 'u.name as owner_login_name'] as const;

export async function projectDto(db: Db, v: VaultContext, projectId: number): Promise<VaultProjectDto | undefined> {
  const [dto] = await projectDtos(db, v, await projectQuery(db, v).select([...projectColumns]).where('p.id', '=', projectId).execute());
  return dto;
}

export async function projectPage(db: Db, v: VaultContext, w: PageWindow, rawKeyword: string | undefined): Promise<Paged<VaultProjectDto>> {
  let q = projectQuery(db, v);
  const keyword = rawKeyword?.trim();
  // The same LIKE with an explicit escape character reads alike in SQLite and PostgreSQL.
  if (keyword) q = q.where(sql<boolean>`lower(p.name) like lower(${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) escape '\\'`);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.select([...projectColumns]).orderBy('p.updated_at', 'desc').orderBy('p.id', 'desc').limit(w.size).offset(w.offset).execute();
  return { items: await projectDtos(db, v, rows), page: w.page, page_size: w.size, total: Number(total.n) };
}

export type ProjectInput = { name: string; description?: string };

function cleanProject(input: ProjectInput) {
  const name = input.name.trim();
  const description = (input.description ?? '').trim();
  rule(checkProjectName(name), 'name');
  rule(checkProjectDescription(description), 'description');
  return { name, description };
}

async function checkNameFree(db: Db, enterpriseId: number, name: string, exceptId?: number) {
  let q = db.selectFrom('vault_projects').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name);
  if (exceptId) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst()) fail('project_already_exist', 'name');
}

export async function createProject(db: Db, v: VaultContext, raw: ProjectInput) {
  const input = cleanProject(raw);
  const enterpriseId = v.employee.enterprise_id;
  await checkNameFree(db, enterpriseId, input.name);
  const now = Date.now();
  const id = await db
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto('vault_projects')
        .values({ enterprise_id: enterpriseId, owner_user_id: v.user.id, name: input.name, description: input.description, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeVaultLog(trx, { enterpriseId, projectId: Number(row.id), userId: v.user.id, action: 'project_created', detail: { name: input.name, description: input.description } });
      return Number(row.id);
    })
    .catch((error: unknown) => {
      // Two members creating the same name at once: the unique constraint decides.
      if (isUniqueViolation(error)) fail('project_already_exist', 'name');
      throw error;
    });
  return projectDto(db, v, id);
}

export async function updateProject(db: Db, v: VaultContext, projectId: number, raw: ProjectInput) {
  const project = await projectOr404(db, v, projectId);
  if (!canWriteProject(v.viewer, project)) forbidden();
  const input = cleanProject(raw);
  await checkNameFree(db, v.employee.enterprise_id, input.name, project.id);
  if (input.name !== project.name || input.description !== project.description) {
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('vault_projects').set({ name: input.name, description: input.description, updated_at: Date.now() }).where('id', '=', project.id).execute();
        await writeVaultLog(trx, {
          enterpriseId: v.employee.enterprise_id,
          projectId: project.id,
          userId: v.user.id,
          action: 'project_updated',
          detail: { name: input.name, description: input.description, previous_name: project.name, previous_description: project.description },
        });
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) fail('project_already_exist', 'name');
        throw error;
      });
  }
  return projectDto(db, v, project.id);
}

// ---- files -----------------------------------------------------------------------------

function fileQuery(db: Db) {
  return db
    .selectFrom('vault_files as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .innerJoin('ledger_entries as e', 'e.dna', 'f.dna')
    .leftJoin('proofs as pr', 'pr.dna', 'f.dna')
    .select([
      'f.id',
      'f.project_id',
      'f.name',
      'f.file_hash',
      'f.size',
      'f.dna',
      'f.user_id',
      'f.credits',
      'f.created_at',
      'u.real_name',
      'u.name as user_name',
      'e.block_height',
      'e.registered_at',
      proofStatusColumn('pr'),
      'pr.expires_at',
    ]);
}

type FileRow = Awaited<ReturnType<ReturnType<typeof fileQuery>['execute']>>[number];
function fileDto(r: FileRow): VaultFileDto {
  return {
    file_id: Number(r.id),
    project_id: Number(r.project_id),
    name: r.name,
    file_hash: r.file_hash,
    dip_id: r.dna,
    ...registrationOf(r),
    registered_at: Number(r.registered_at),
    expired_at: r.expires_at === null ? null : Number(r.expires_at),
  };
}

/**
 * A project's files, newest first. With `dip` and no explicit page, the page that holds that
 * file is answered.
 */
export async function filePage(db: Db, v: VaultContext, projectId: number, window: PageWindow, dip: string | undefined, isPageGiven: boolean): Promise<Paged<VaultFileDto>> {
  const project = await projectOr404(db, v, projectId);
  let { page, offset } = window;
  const { size } = window;
  if (dip && !isPageGiven) {
    const target = await db.selectFrom('vault_files').select('id').where('project_id', '=', project.id).where('dna', '=', dip).executeTakeFirst();
    if (target) {
      const newer = await db.selectFrom('vault_files').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', project.id).where('id', '>', target.id).executeTakeFirstOrThrow();
      page = Math.floor(Number(newer.n) / size) + 1;
      offset = (page - 1) * size;
    }
  }
  const total = await db.selectFrom('vault_files').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', project.id).executeTakeFirstOrThrow();
  const rows = await fileQuery(db).where('f.project_id', '=', project.id).orderBy('f.id', 'desc').limit(size).offset(offset).execute();
  return { items: rows.map(fileDto), page, page_size: size, total: Number(total.n) };
}

export type VaultFileInput = { name: string; file_hash: string; size?: number };

/**
 * Registers a file into a project: only its hash (§3 identity) arrives, hashed in the
 * browser. The ledger entry, the §9 credit charge and the vault row commit together or
 * not at all; a file already in the enterprise's vault is §8 hash_duplicate.
 */
export async function registerVaultFile(
  db: Db,
  registerEntry: Registrar,
  config: DeploymentConfig,
  v: VaultContext,
  projectId: number,
  input: VaultFileInput,
  locale: CertificateLocale,
): Promise<VaultFileDto> {
  const project = await projectOr404(db, v, projectId);
  if (!canWriteProject(v.viewer, project)) forbidden();
  const name = input.name.trim();
  const identity = parseFileIdentity(input.file_hash.trim().toLowerCase());
  if (!identity) fail(input.file_hash.trim() ? 'invalid_param' : 'required', 'file_hash');
  rule(checkVaultFileName(name), 'name');
  const enterpriseId = v.employee.enterprise_id;
  const duplicate = () => fail('hash_duplicate', 'file_hash');
  if (await db.selectFrom('vault_files').select('id').where('enterprise_id', '=', enterpriseId).where('digest', '=', identity.sha256).executeTakeFirst()) duplicate();
  let fileId = 0;
  try {
    await registerEntry(
      { fileHash: `0x${identity.sha256}${identity.extension}`, enterpriseName: v.enterprise.name, registrantUserId: v.user.id, kind: 'vault', locale },
      async (trx, registration) => {
        // §9 the registering member pays (credits.vaultFile); §8 integrals_not_enough rolls it all back.
        const { charged: cost } = await chargeRegistration(trx, config, { enterpriseId, userId: v.user.id, kind: 'vault_file', dna: registration.dna, name });
        const row = await trx
          .insertInto('vault_files')
          .values({
            project_id: project.id,
            enterprise_id: enterpriseId,
            user_id: v.user.id,
            name,
            file_hash: registration.file_hash,
            digest: identity.sha256,
            size: input.size ?? 0,
            dna: registration.dna,
            credits: cost,
            created_at: registration.registered_at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        fileId = Number(row.id);
        await trx.updateTable('vault_projects').set({ updated_at: registration.registered_at }).where('id', '=', project.id).execute();
        await writeVaultLog(trx, {
          enterpriseId,
          projectId: project.id,
          userId: v.user.id,
          action: 'file_registered',
          detail: { file_id: fileId, name, file_hash: registration.file_hash, dip_id: registration.dna, credits: cost },
        });
      },
    );
  } catch (error) {
    // Two registrations of one file racing: the unique (enterprise, digest) decides.
    if (!(error instanceof ApiError) && isUniqueViolation(error)) duplicate();
    throw error;
  }
  return fileDto(await fileQuery(db).where('f.id', '=', fileId).executeTakeFirstOrThrow());
}

/** The proof certificate PDF of a vault file, for whoever may see the file (logged). */
export async function vaultProof(db: Db, storage: ObjectDriver, v: VaultContext, fileId: number): Promise<{ dna: string; pdf: Buffer }> {
  const file = await db.selectFrom('vault_files').select(['id', 'project_id', 'dna', 'name']).where('id', '=', fileId).where('enterprise_id', '=', v.employee.enterprise_id).executeTakeFirst();
  if (!file || !(await visibleProject(db, v.employee.enterprise_id, v.viewer, file.project_id))) fail('not_found', 'file_id');
  const pdf = await readProofPdf(db, storage, file.dna);
  if (!pdf) fail('proof_record_not_found', 'file_id');
  await writeVaultLog(db, { enterpriseId: v.employee.enterprise_id, projectId: file.project_id, userId: v.user.id, action: 'proof_downloaded', detail: { file_id: file.id, name: file.name, dip_id: file.dna } });
  return { dna: file.dna, pdf };
}

// ---- log -------------------------------------------------------------------------------

/**
 * The vault log, newest first: one project's, or every vault action the caller may see
 * (§6: a plain member their own unlocks and their projects' actions).
 */
export async function vaultLogPage(db: Db, v: VaultContext, projectId: number | undefined, w: PageWindow): Promise<Paged<VaultLogDto>> {
  const enterpriseId = v.employee.enterprise_id;
  let q = db.selectFrom('vault_logs as l').leftJoin('vault_projects as p', 'p.id', 'l.project_id').innerJoin('users as u', 'u.id', 'l.user_id').where('l.enterprise_id', '=', enterpriseId);
  if (projectId) {
    await projectOr404(db, v, projectId);
    q = q.where('l.project_id', '=', projectId);
  } else if (!seesAllVault(v.viewer)) {
    const me = v.user.id;
    q = q.where((eb) => eb.or([eb('p.owner_user_id', '=', me), eb.and([eb('l.project_id', 'is', null), eb('l.user_id', '=', me)])]));
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select(['l.id', 'l.project_id', 'p.name as project_name', 'l.user_id', 'u.real_name', 'u.name as user_name', 'l.action', 'l.detail', 'l.created_at'])
    .orderBy('l.id', 'desc')
    .limit(w.size)
    .offset(w.offset)
    .execute();
  const items: VaultLogDto[] = rows.map((r) => ({
    log_id: Number(r.id),
    project_id: r.project_id === null ? null : Number(r.project_id),
    project_name: r.project_name ?? null,
    user_id: Number(r.user_id),
    user_name: displayName({ real_name: r.real_name, name: r.user_name }),
    action: r.action as VaultAction,
    detail: JSON.parse(r.detail) as Record<string, unknown>,
    created_at: Number(r.created_at),
  }));
  return { items, page: w.page, page_size: w.size, total: Number(total.n) };
}
