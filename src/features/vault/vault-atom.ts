import { atom } from 'jotai';
import type { VaultAuthorizationDto } from '../../../core/vault.ts';

/** The vault's unlock state for this login session: undefined until asked. */
export const vaultAuthorizationAtom = atom<VaultAuthorizationDto | undefined>(undefined);
