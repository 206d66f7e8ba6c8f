import type { DeploymentConfig } from '../../core/config.ts';
import { APPLICATION_STATUS, EMPLOYEE_STATUS } from '../../core/enterprise.ts';
import type { Db } from '../db/database.ts';
import { fail } from '../errors.ts';
import { insertEnterprise } from './enterprises.ts';
import { writeOperatorAudit } from './operators.ts';

export type ReviewStatus = typeof APPLICATION_STATUS.approved | typeof APPLICATION_STATUS.rejected;

/**
 * An operator's decision on a pending channel-2 application, in one transaction: approved
 * creates the enterprise (refused when the applicant already belongs to one and the deployment
 * is single-company), rejected keeps the reason; either way the decision is audited.
 */
export async function reviewApplication(
  db: Db,
  config: DeploymentConfig,
  op: { id: number; login_id: string },
  applicationId: number,
  decision: { status: ReviewStatus; reason: string },
  ip: string,
): Promise<{ id: number; status: ReviewStatus; enterprise_id: number | null }> {
  const reason = decision.reason;
  return db.transaction().execute(async (trx) => {
    const application = await trx.selectFrom('enterprise_applications').selectAll().where('id', '=', applicationId).executeTakeFirst();
    if (!application) fail('not_found', 'id');
    if (application.status !== APPLICATION_STATUS.pending) fail('invalid_param', 'status');
    const now = Date.now();
    let enterpriseId: number | null = null;
    if (decision.status === APPLICATION_STATUS.approved) {
      const joined = await trx.selectFrom('employees').select('id').where('user_id', '=', application.user_id).where('status', '<>', EMPLOYEE_STATUS.rejected).executeTakeFirst();
      if (joined && !config.multiCompany) fail('enterprise_already_join', 'id');
      enterpriseId = await insertEnterprise(
        trx,
        application.user_id,
        { name: application.name, license: application.license_no, legal_person: application.legal_person, license_image_id: application.license_image_id },
        2,
        { apply_book_id: application.apply_book_id, organization_code_certificate_id: application.organization_code_certificate_id },
      );
    }
    await trx
      .updateTable('enterprise_applications')
      .set({ status: decision.status, reason, enterprise_id: enterpriseId, reviewed_by: op.id, reviewed_at: now, updated_at: now })
      .where('id', '=', application.id)
      .execute();
    await writeOperatorAudit(trx, {
      operatorId: op.id,
      loginId: op.login_id,
      action: decision.status === APPLICATION_STATUS.approved ? 'application_approved' : 'application_rejected',
      target: `application:${application.id}`,
      detail: { name: application.name, ...(enterpriseId ? { enterprise_id: enterpriseId } : {}), ...(reason ? { reason } : {}) },
      ip,
    });
    return { id: application.id, status: decision.status, enterprise_id: enterpriseId };
  });
}
