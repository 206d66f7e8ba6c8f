import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Redirect, useLocation, useSearch } from 'wouter';
import type { UserDto } from '../../core/api-types.ts';
import { useConfig } from '@/config/config-atom.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { loginPathFrom, safeReturnPath } from './safe-redirect.ts';

/** Where a logged-in visitor goes by default (§2 defaultPage). */
export function useDefaultPagePath(): string {
  return `/dashboard/${useConfig().defaultPage}`;
}

/**
 * §4 after login. Enterprises (real-name auth, joined and invited companies) are a
 * later issue; until then the visitor returns to where they came from, else to the
 * default page.
 */
export function useAfterLoginPath(): string {
  const search = useSearch();
  const fallback = useDefaultPagePath();
  return safeReturnPath(new URLSearchParams(search).get('from')) ?? fallback;
}

/** Dashboard guard: not logged in → login, remembering the way back. */
export function RequireUser({ children }: { children: (user: UserDto) => ReactNode }) {
  const user = useAtomValue(currentUserAtom);
  const [location] = useLocation();
  const search = useSearch();
  if (user === undefined) return <PageLoader />;
  if (user === null) return <Redirect to={loginPathFrom(search ? `${location}?${search}` : location)} replace />;
  return children(user);
}

/** Login and register are skipped for logged-in visitors (§6). */
export function SkipIfLoggedIn({ children }: { children: ReactNode }) {
  const user = useAtomValue(currentUserAtom);
  const target = useAfterLoginPath();
  if (user === undefined) return <PageLoader />;
  if (user) return <Redirect to={target} replace />;
  return children;
}
