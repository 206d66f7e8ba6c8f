import type { CompanyDto, UserDto } from '../../../core/api-types.ts';
import { ROLES } from '../../../core/constants.ts';
import { EMPLOYEE_STATUS } from '../../../core/enterprise.ts';

/**
 * §4 after login: no card_no → real-name auth; an invitation → invited company; no
 * companies → real-name auth (join or create); an application under review → in-review;
 * several companies with multiCompany → choose on the invited-company screen; otherwise
 * the first company is displayed and the user goes on (to `fallback`).
 * Returns the path, and the company to switch to when one must be chosen first.
 */
export function afterLoginTarget(
  user: UserDto,
  company: CompanyDto,
  opts: { multiCompany: boolean; needAuth: boolean; fallback: string },
): { path: string; switchTo?: number } {
  if (!opts.needAuth) return { path: opts.fallback };
  if (!user.card_no) return { path: '/real-auth' };
  if (company.invited_company) return { path: '/invited-company' };
  const usable = company.companies.filter((c) => !c.locked);
  if (usable.length === 0) return { path: company.application ? '/in-review' : '/real-auth' };
  if (opts.multiCompany && usable.length > 1) return { path: '/invited-company' };
  if (company.member_confirmed_status !== EMPLOYEE_STATUS.confirmed) return { path: '/in-review' };
  const first = usable[0]!;
  return { path: opts.fallback, ...(company.enterprise_id !== first.enterprise_id ? { switchTo: first.enterprise_id } : {}) };
}

/**
 * §4 applied to a dashboard URL opened directly: a user who may not work in the dashboard yet is
 * sent where after-login would send them. Returns the path to go to, or null to let them in.
 * The personal centre stays open (account settings do not need a company).
 */
export function dashboardGatePath(
  user: UserDto,
  company: CompanyDto | null,
  opts: { needAuth: boolean; location: string },
): string | null {
  if (!opts.needAuth || company === null) return null;
  if (/^\/dashboard\/setting(\/|$)/.test(opts.location)) return null;
  if (!user.card_no) return '/real-auth';
  const usable = company.companies.filter((c) => !c.locked);
  if (usable.some((c) => c.member_confirmed_status === EMPLOYEE_STATUS.confirmed)) return null;
  if (company.invited_company) return '/invited-company';
  if (usable.length > 0 || company.application) return '/in-review';
  return '/real-auth';
}

/** §2 nav-bar logo: home for the super administrator and administrators, else the asset page; the xian variant and visitors reload. */
export function logoTarget(opts: {
  isLoggedIn: boolean;
  role: number | null;
  frontPageVersion: string;
  defaultPath: string;
}): { reload: true } | { href: string } {
  if (!opts.isLoggedIn) return { reload: true };
  if (opts.frontPageVersion === 'xian') return { href: opts.defaultPath };
  return { href: opts.role === ROLES.superAdmin || opts.role === ROLES.admin ? '/dashboard/home' : '/assets' };
}
