import type { CompanyDto, UserDto } from '../../../core/api-types.ts';
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
