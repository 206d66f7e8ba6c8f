import type { ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { useConfig } from '@/config/config-atom.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { dashboardGatePath } from './after-login.ts';
import { useCompany } from './use-company.ts';

/** Dashboard guard, after the login guard: §4 routing for users without a usable company (see dashboardGatePath). */
export function RequireCompany({ user, children }: { user: UserDto; children: ReactNode }) {
  const config = useConfig();
  const [location] = useLocation();
  const { company } = useCompany(user.id);
  if (company === undefined) return <PageLoader />;
  const target = dashboardGatePath(user, company, { needAuth: config.needRealPersonAndCompanyAuth, location });
  if (target) return <Redirect to={target} replace />;
  return children;
}
