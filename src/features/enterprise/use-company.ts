import { useCallback, useEffect } from 'react';
import { useAtom } from 'jotai';
import type { CompanyDto } from '../../../core/api-types.ts';
import { companyAtom } from './company-atom.ts';
import { fetchCompany } from './enterprise-api.ts';

/** The Company state, loaded once per user (and again on `reload`). */
export function useCompany(userId: number | null | undefined): { company: CompanyDto | null | undefined; reload: () => Promise<CompanyDto | null>; setCompany: (c: CompanyDto) => void } {
  const [company, setCompany] = useAtom(companyAtom);
  const reload = useCallback(async () => {
    try {
      const next = await fetchCompany();
      setCompany(next);
      return next;
    } catch (error) {
      console.error('Could not load the company', error);
      setCompany(null);
      return null;
    }
  }, [setCompany]);
  useEffect(() => {
    if (!userId) {
      setCompany(undefined);
      return;
    }
    void reload();
  }, [userId, reload, setCompany]);
  return { company, reload, setCompany };
}
