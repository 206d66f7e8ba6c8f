import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.ts';
import { EMPLOYEE_STATUS, canSeeEnterpriseData, isAdminRole } from '../../core/enterprise.ts';
import { ROLES } from '../../core/constants.ts';
import { localBlobStore, type BlobStore } from '../storage/blobs.ts';
import { localIdentityProvider, tesseractIdCardOcr, tesseractLicenceOcr, type IdCardOcr, type IdentityProvider, type LicenceOcr } from '../services/identity.ts';
import { findUserById, type UserRow } from '../services/users.ts';
import type { EmployeeRow, EnterpriseRow } from '../services/enterprises.ts';

/** What a member route may need: `member` any confirmed member, `viewer` §6 sees all enterprise data, `admin` manages members, `superAdmin` only role 1. */
export type MemberLevel = 'member' | 'viewer' | 'admin' | 'superAdmin';
export type MemberContext = { user: UserRow; employee: EmployeeRow; enterprise: EnterpriseRow };

declare module 'fastify' {
  interface FastifyInstance {
    blobs: BlobStore;
    identity: IdentityProvider;
    licenceOcr: LicenceOcr;
    idCardOcr: IdCardOcr;
    /** The logged-in user's row, or token_invalid. */
    requireUser(request: FastifyRequest): Promise<UserRow>;
    /** The caller's confirmed membership of the displayed company at `level`, or 403 forbidden. */
    requireMember(request: FastifyRequest, level: MemberLevel): Promise<MemberContext>;
  }
}

export function forbidden(): never {
  throw new ApiError('forbidden', undefined, 403);
}

function allows(level: MemberLevel, role: number): boolean {
  if (level === 'member') return true;
  if (level === 'viewer') return canSeeEnterpriseData(role);
  if (level === 'admin') return isAdminRole(role);
  return role === ROLES.superAdmin;
}

export default fp(async function enterprisesPlugin(app) {
  app.decorate('blobs', localBlobStore(path.join(app.env.dataDir, 'blobs')));
  app.decorate('identity', localIdentityProvider);
  app.decorate('licenceOcr', tesseractLicenceOcr());
  app.decorate('idCardOcr', tesseractIdCardOcr());

  app.decorate('requireUser', async (request: FastifyRequest) => {
    const session = await app.requireSession(request);
    const user = await findUserById(app.db, session.user_id);
    if (!user) throw new ApiError('token_invalid');
    return user;
  });

  app.decorate('requireMember', async (request: FastifyRequest, level: MemberLevel) => {
    const user = await app.requireUser(request);
    const employees = await app.db
      .selectFrom('employees')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('status', '=', EMPLOYEE_STATUS.confirmed)
      .orderBy('id')
      .execute();
    const employee = employees.find((e) => e.enterprise_id === user.current_enterprise_id) ?? employees[0];
    if (!employee || !allows(level, employee.role)) forbidden();
    const enterprise = await app.db.selectFrom('enterprises').selectAll().where('id', '=', employee.enterprise_id).executeTakeFirstOrThrow();
    return { user, employee, enterprise };
  });
});
