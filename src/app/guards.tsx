import { useEffect, useState, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Redirect, useLocation, useSearch } from 'wouter';
import type { UserDto } from '../../core/api-types.ts';
import { useConfig } from '@/config/config-atom.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { afterLoginTarget } from '@/features/enterprise/after-login.ts';
import { fetchCompany, switchDisplayCompany } from '@/features/enterprise/enterprise-api.ts';
import { loginPathFrom, safeReturnPath } from './safe-redirect.ts';

/** Where a logged-in visitor goes by default (§2 defaultPage). */
export function useDefaultPagePath(): string {
  return `/dashboard/${useConfig().defaultPage}`;
}

/** Where a logged-in visitor returns to: the route they came from, else the default page. */
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
  if (user) return <AfterLoginRedirect user={user} fallback={target} />;
  return children;
}

/** §4 after login: real-name auth, invitation, review state or company choice before the dashboard. */
function AfterLoginRedirect({ user, fallback }: { user: UserDto; fallback: string }) {
  const config = useConfig();
  const [path, setPath] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    (async () => {
      try {
        const company = await fetchCompany();
        const target = afterLoginTarget(user, company, { multiCompany: config.multiCompany, needAuth: config.needRealPersonAndCompanyAuth, fallback });
        if (target.switchTo) await switchDisplayCompany(target.switchTo);
        if (isCurrent) setPath(target.path);
      } catch (error) {
        console.error('Could not route after login', error);
        if (isCurrent) setPath(fallback);
      }
    })();
    return () => {
      isCurrent = false;
    };
  }, [user, fallback, config.multiCompany, config.needRealPersonAndCompanyAuth]);
  if (!path) return <PageLoader />;
  return <Redirect to={path} replace />;
}
