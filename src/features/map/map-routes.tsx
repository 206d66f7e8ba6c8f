import { lazy, Suspense, type ComponentType } from 'react';
import { PageLoader } from '@/components/page-loader.tsx';
import { ensureAllCatalogs } from '@/i18n/i18n.ts';

/**
 * The map area's pages, loaded on demand: three.js, uPlot and the layout worker stay out
 * of the main bundle until someone opens the map, the bigscreen or a score.
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  // The map's texts are in its own catalog, loaded with the page.
  const Page = lazy(async () => ({ default: (await Promise.all([load(), ensureAllCatalogs()]))[0] }));
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<PageLoader />}>
        <Page {...props} />
      </Suspense>
    );
  };
}

export const AssetsRoute = lazyPage(() => import('./assets-page.tsx').then((m) => m.AssetsPage));
export const ActivateRoute = lazyPage(() => import('./activate-page.tsx').then((m) => m.ActivatePage));
export const ScoreRoute = lazyPage(() => import('./score-page.tsx').then((m) => m.ScorePage));
export const BigscreenRoute = lazyPage(() => import('./bigscreen-page.tsx').then((m) => m.BigscreenPage));
