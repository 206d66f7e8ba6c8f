import { useEffect } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { companyAtom } from '@/features/enterprise/company-atom.ts';
import { fetchCompany } from '@/features/enterprise/enterprise-api.ts';
import { isSearchHidden } from '../../core/search.ts';

/**
 * §2: the search box is for a logged-in member of a company, and hidden when the company
 * status is 3, 4, 6 or 7. The dashboard loads the company before it renders; a public page
 * (verification centre, explorer) loads it here when nothing has yet.
 */
export function useCanSearch(): boolean {
  const user = useAtomValue(currentUserAtom);
  const [company, setCompany] = useAtom(companyAtom);
  const userId = user?.id;
  const isUnknown = company === undefined;
  // Logged out (or the session ended): the company state belongs to nobody, and the next
  // person to log in in this tab must not see it, here or in the dashboard guard.
  const isLoggedOut = user === null;
  useEffect(() => {
    if (isLoggedOut && !isUnknown) setCompany(undefined);
  }, [isLoggedOut, isUnknown, setCompany]);
  useEffect(() => {
    if (!userId || !isUnknown) return;
    let isCurrent = true;
    fetchCompany().then(
      (next) => isCurrent && setCompany(next),
      () => isCurrent && setCompany(null),
    );
    return () => {
      isCurrent = false;
    };
  }, [userId, isUnknown, setCompany]);
  return Boolean(user && company?.enterprise_id && !isSearchHidden(company.status));
}
