import { atom } from 'jotai';
import type { UserDto } from '../../../core/api-types.ts';

/**
 * The logged-in user: undefined while the start-up probe runs, null when nobody is
 * logged in. The one account-wide atom; the app passes the user down to the screens
 * of other features rather than having them import this one.
 */
export const currentUserAtom = atom<UserDto | null | undefined>(undefined);
