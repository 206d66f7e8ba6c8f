import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { canSeeEnterpriseData, isAdminRole } from '../../core/enterprise.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { normalizeDigest } from '../../core/ledger/package.ts';
import type { VaultAction } from '../../core/vault.ts';

/** Who is looking: §6 a plain member sees only their own projects and files; roles 1, 2, 3 see all. */
export type VaultViewer = { userId: number; role: number };

export function seesAllVault(viewer: VaultViewer): boolean {
  return canSeeEnterpriseData(viewer.role);
}

/** Editing a project and registering files into it: its owner, or an administrator (the officer only reads). */
export function canWriteProject(viewer: VaultViewer, project: { owner_user_id: number }): boolean {
  return project.owner_user_id === viewer.userId || isAdminRole(viewer.role);
}

/** A project the viewer may see, or undefined (never tells an invisible project from a missing one). */
export async function visibleProject(db: Kysely<Database>, enterpriseId: number, viewer: VaultViewer, projectId: number) {
  let q = db.selectFrom('vault_projects').selectAll().where('id', '=', projectId).where('enterprise_id', '=', enterpriseId);
  if (!seesAllVault(viewer)) q = q.where('owner_user_id', '=', viewer.userId);
  return q.executeTakeFirst();
}

export async function writeVaultLog(
  db: Kysely<Database>,
  entry: { enterpriseId: number; projectId: number | null; userId: number; action: VaultAction; detail?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('vault_logs')
    .values({ enterprise_id: entry.enterpriseId, project_id: entry.projectId, user_id: entry.userId, action: entry.action, detail: JSON.stringify(entry.detail ?? {}), created_at: Date.now() })
    .execute();
}

/**
 * The navbar search hook (§3 entity_type 2 = project): a vault file's DNA or file hash,
 * within the viewer's enterprise and §6 visibility, gives its DNA and project; else null.
 */
export async function findVaultByKeyword(db: Db, enterpriseId: number, viewer: VaultViewer, keyword: string): Promise<{ dip_id: string; project_id: number } | null> {
  const text = keyword.trim();
  let q = db
    .selectFrom('vault_files')
    .innerJoin('vault_projects', 'vault_projects.id', 'vault_files.project_id')
    .select(['vault_files.dna', 'vault_files.project_id'])
    .where('vault_files.enterprise_id', '=', enterpriseId);
  if (DNA_PATTERN.test(text)) q = q.where('vault_files.dna', '=', text);
  else {
    const digest = normalizeDigest(text);
    if (!digest) return null;
    q = q.where('vault_files.digest', '=', digest);
  }
  if (!seesAllVault(viewer)) q = q.where('vault_projects.owner_user_id', '=', viewer.userId);
  const row = await q.executeTakeFirst();
  return row ? { dip_id: row.dna, project_id: Number(row.project_id) } : null;
}
