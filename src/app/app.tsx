import { lazy, Suspense, useEffect } from 'react';
import { useSetAtom } from 'jotai';
import { Route, Switch, useLocation } from 'wouter';
import { setSessionExpiredHandler } from '@/api/client.ts';
import { fetchCurrentUser } from '@/features/auth/auth-api.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { NotFoundPage } from '@/features/not-found/not-found-page.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { RequireCompany } from '@/features/enterprise/dashboard-gate.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { PageTitle } from './page-title.tsx';
import { DASHBOARD_ROUTES, NOT_FOUND_TITLE, PUBLIC_ROUTES, STANDALONE_ROUTES, type AppRoute } from './routes.tsx';
import { RequireUser, useDefaultPagePath } from './guards.tsx';
import { ensureAllCatalogs } from '@/i18n/i18n.ts';

/** The dashboard's frame (sidebar labels come from every product area's catalog): loaded with the first dashboard screen. */
const DashboardLayout = lazy(async () => {
  const [module] = await Promise.all([import('./layouts/dashboard-layout.tsx'), ensureAllCatalogs()]);
  return { default: module.DashboardLayout };
});

/** Loads the current user once; a token_invalid answer on an authenticated call logs the visitor out. */
function useSession(): void {
  const setUser = useSetAtom(currentUserAtom);
  useEffect(() => {
    let isCurrent = true;
    fetchCurrentUser().then(
      (user) => isCurrent && setUser(user),
      (error: unknown) => {
        console.error('Could not load the current user', error);
        if (isCurrent) setUser(null);
      },
    );
    // The dashboard guard sees the user gone and sends the visitor to login, remembering the way back.
    setSessionExpiredHandler(() => setUser(null));
    return () => {
      isCurrent = false;
      setSessionExpiredHandler(null);
    };
  }, [setUser]);
}

/** §2: scroll resets to the top on navigation. */
function ScrollReset() {
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

function renderRoutes(routes: AppRoute[]) {
  return routes.map((route) => (
    <Route key={route.path} path={route.path}>
      {(params: Record<string, string | undefined>) => (
        <>
          <PageTitle title={route.title} noTitle={route.noTitle} />
          {/* Each screen is a chunk of its own (routes.tsx): the loader shows while it arrives. */}
          <Suspense fallback={<PageLoader />}>{route.render(params)}</Suspense>
        </>
      )}
    </Route>
  ));
}

function DashboardNotFound() {
  const home = useDefaultPagePath();
  return <RequireUser>{() => <NotFoundPage homePath={home} />}</RequireUser>;
}

export function App() {
  useSession();
  return (
    <>
      <ScrollReset />
      <Switch>
        {renderRoutes(STANDALONE_ROUTES)}
        <Route path={/^\/dashboard(?:\/.*)?$/}>
          <RequireUser>
            {(user) => (
              <RequireCompany user={user}>
                <Suspense fallback={<PageLoader />}>
                  <DashboardLayout>
                    <Switch>
                      {renderRoutes(DASHBOARD_ROUTES)}
                      <Route>
                        <PageTitle title={NOT_FOUND_TITLE} />
                        <DashboardNotFound />
                      </Route>
                    </Switch>
                  </DashboardLayout>
                </Suspense>
              </RequireCompany>
            )}
          </RequireUser>
        </Route>
        <Route>
          <PublicLayout>
            <Switch>
              {renderRoutes(PUBLIC_ROUTES)}
              <Route>
                <PageTitle title={NOT_FOUND_TITLE} />
                <NotFoundPage />
              </Route>
            </Switch>
          </PublicLayout>
        </Route>
      </Switch>
    </>
  );
}
