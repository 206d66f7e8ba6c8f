import { atom } from 'jotai';
import type { CompanyDto } from '../../../core/api-types.ts';

/** §3 Company client state of the logged-in user: undefined until loaded, null when it could not be loaded. */
export const companyAtom = atom<CompanyDto | null | undefined>(undefined);
