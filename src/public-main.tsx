import { lazy, StrictMode, Suspense, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { I18nProvider } from '@lingui/react';
import { Provider as JotaiProvider, createStore, useAtomValue, useSetAtom } from 'jotai';
import { Router, type BaseLocationHook } from 'wouter';
import './features/front/public-styles.ts';
import './app/app.css';
import { i18n, initI18n } from './i18n/i18n.ts';
import { HTML_LANG } from './i18n/locales.ts';
import { readBootData } from './app/boot-data.ts';
import { configureApiClient, setSessionExpiredHandler } from './api/client.ts';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { deploymentConfigAtom } from './config/config-atom.ts';
import { fetchCurrentUser } from './features/auth/auth-api.ts';
import { currentUserAtom } from './features/auth/user-atom.ts';
import { publicFiguresAtom } from './features/front/figures-atom.ts';
import { isFrontPath, type FrontPath } from './features/front/front-meta.ts';
import { PublicPage } from './features/front/public-page.tsx';
import { PublicLayout } from './app/layouts/public-layout.tsx';

/**
 * The public pages' own entry, so that they load only what they draw: /, /government, /partners and
 * /insurance are server-rendered (server/front-render.ts) from public.html, and this entry
 * hydrates that HTML with the same components and providers as src/ssr/render.tsx. It does
 * not carry the dashboard's router, screens or stores: every link out of a public page
 * (login, dashboard, another public page) is a full page load, answered by the server with
 * this entry or the app's (index.html).
 */
const container = document.getElementById('root');
if (!container) throw new Error('public.html has no #root element');

const boot = readBootData();
const path = window.location.pathname;
const pagePath: FrontPath | null = isFrontPath(path) ? path : null;

/** Every navigation leaves the page: the server answers it with the right entry. */
const useFullLoadLocation: BaseLocationHook = () => [
  window.location.pathname,
  (to: string | URL, options?: { replace?: boolean }) => {
    const href = String(to);
    if (options?.replace) window.location.replace(href);
    else window.location.assign(href);
  },
];

const store = createStore();
store.set(currentUserAtom, null);
if (boot) {
  configureApiClient({
    bases: { api: boot.config.api.base, verify: boot.config.api.verifyBase, score: boot.config.api.scoreBase },
    containsBigint: boot.config.apiContainBigint,
  });
  store.set(deploymentConfigAtom, boot.config);
  if (boot.figures) store.set(publicFiguresAtom, boot.figures);
}

/** A signed-in visitor gets the avatar menu after the page is interactive (the server drew the visitor's view). */
function Session() {
  const setUser = useSetAtom(currentUserAtom);
  useEffect(() => {
    let isCurrent = true;
    fetchCurrentUser().then(
      (user) => isCurrent && setUser(user),
      () => isCurrent && setUser(null),
    );
    setSessionExpiredHandler(() => setUser(null));
    return () => {
      isCurrent = false;
      setSessionExpiredHandler(null);
    };
  }, [setUser]);
  return null;
}

/** The host of the logout confirmation (use-logout.tsx), for a signed-in visitor only. */
const ModalsProvider = lazy(async () => ({ default: (await import('@mantine/modals')).ModalsProvider }));
function SignedInModals() {
  const user = useAtomValue(currentUserAtom);
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProvider />
    </Suspense>
  );
}

if (!boot || !pagePath) {
  // Not a server-rendered public page (public.html asked for by name): its HTML, if any, stays as it is.
  console.warn('public.html is the server-rendered public pages\' entry; the app is at /');
} else {
  const serverLang = document.documentElement.lang;
  void initI18n()
    .catch((error: unknown) => console.error('Could not load the translations', error))
    .finally(() => {
      const tree = (
        <StrictMode>
          <I18nProvider i18n={i18n}>
            <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
              <JotaiProvider store={store}>
                <Router hook={useFullLoadLocation}>
                  <PublicLayout>
                    <PublicPage path={pagePath} config={boot.config} />
                  </PublicLayout>
                  <Session />
                  <SignedInModals />
                </Router>
              </JotaiProvider>
            </MantineProvider>
          </I18nProvider>
        </StrictMode>
      );
      // The server drew this language: take its HTML over. Another stored choice: draw anew.
      const isSameLanguage = HTML_LANG[i18n.locale as keyof typeof HTML_LANG] === serverLang;
      if (isSameLanguage) hydrateRoot(container, tree);
      else createRoot(container).render(tree);
    });
}
