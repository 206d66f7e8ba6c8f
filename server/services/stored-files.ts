import type { Db } from '../db/database.ts';
import type { MemberContext } from '../plugins/enterprises.ts';
import { EMPLOYEE_STATUS, canSeeEnterpriseData } from '../../core/enterprise.ts';
import type { StoredFileDto } from '../../core/disclosure.ts';

/**
 * A file is "registered in the enterprise" when a ledger entry of the enterprise's name
 * names it and was made by the caller, or, for roles that see all enterprise data (§6),
 * by any confirmed member of the enterprise.
 */
export async function isRegisteredInEnterprise(db: Db, ctx: MemberContext, identity: string): Promise<boolean> {
  let q = db
    .selectFrom('ledger_entries')
    .select('ledger_entries.id')
    .where('ledger_entries.file_hash', '=', identity)
    .where('ledger_entries.enterprise_name', '=', ctx.enterprise.name);
  if (canSeeEnterpriseData(ctx.employee.role)) {
    q = q
      .innerJoin('employees', 'employees.user_id', 'ledger_entries.registrant_user_id')
      .where('employees.enterprise_id', '=', ctx.enterprise.id)
      .where('employees.status', '=', EMPLOYEE_STATUS.confirmed);
  } else {
    q = q.where('ledger_entries.registrant_user_id', '=', ctx.user.id);
  }
  return Boolean(await q.limit(1).executeTakeFirst());
}

/** Files stored for the enterprise that the caller may disclose: registered (as above) and stored. */
export async function disclosableFiles(db: Db, ctx: MemberContext): Promise<StoredFileDto[]> {
  const rows = await db
    .selectFrom('stored_file_owners')
    .innerJoin('stored_files', 'stored_files.id', 'stored_file_owners.file_id')
    .select(['stored_files.id', 'stored_files.size', 'stored_file_owners.name', 'stored_file_owners.created_at'])
    .where('stored_file_owners.enterprise_id', '=', ctx.enterprise.id)
    .orderBy('stored_file_owners.created_at', 'desc')
    .limit(500)
    .execute();
  const out: StoredFileDto[] = [];
  for (const r of rows) {
    if (await isRegisteredInEnterprise(db, ctx, r.id)) out.push({ hash: r.id, name: r.name, size: Number(r.size), stored_at: Number(r.created_at) });
  }
  return out;
}

/** True when this user uploaded the file (files are only usable by their uploaders). */
export async function ownsFile(db: Db, userId: number, fileId: string): Promise<boolean> {
  const row = await db.selectFrom('file_owners').select('file_id').where('file_id', '=', fileId).where('user_id', '=', userId).executeTakeFirst();
  return Boolean(row);
}
