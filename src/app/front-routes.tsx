import { lazy, Suspense } from 'react';
import { useAtomValue } from 'jotai';
import { Redirect } from 'wouter';
import { PageLoader } from '@/components/page-loader.tsx';
import { useConfig } from '@/config/config-atom.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { NotFoundPage } from '@/features/not-found/not-found-page.tsx';

/**
 * The public face's routes. The pages are one chunk of their own, loaded on
 * demand; main.tsx loads it before the first render when the visitor lands on one of them,
 * so the server-rendered page is replaced by the same page, never by a loader.
 */
const loadChunk = () => import('@/features/front/front-chunk.ts');
let loaded: Awaited<ReturnType<typeof loadChunk>> | null = null;
export async function preloadFrontChunk(): Promise<void> {
  loaded = await loadChunk();
}

const Default = lazy(async () => ({ default: (await loadChunk()).DefaultFrontPage }));
const Government = lazy(async () => ({ default: (await loadChunk()).GovernmentFrontPage }));
const Partners = lazy(async () => ({ default: (await loadChunk()).PartnersPage }));
const Insurance = lazy(async () => ({ default: (await loadChunk()).InsurancePage }));

function Page({ name, props }: { name: 'default' | 'government' | 'partners' | 'insurance'; props: Record<string, unknown> }) {
  // Already loaded (the visitor landed here): render at once, no Suspense round.
  if (loaded) {
    const Component = { default: loaded.DefaultFrontPage, government: loaded.GovernmentFrontPage, partners: loaded.PartnersPage, insurance: loaded.InsurancePage }[name] as (p: Record<string, unknown>) => React.ReactNode;
    return <Component {...props} />;
  }
  const Lazy = { default: Default, government: Government, partners: Partners, insurance: Insurance }[name] as unknown as (p: Record<string, unknown>) => React.ReactNode;
  return (
    <Suspense fallback={<PageLoader />}>
      <Lazy {...props} />
    </Suspense>
  );
}

/** §2 entry guard: with no front page, go to login (password tab). */
function useFrontGuard(): { isLoggedIn: boolean; defaultPath: string } | null {
  const config = useConfig();
  const user = useAtomValue(currentUserAtom);
  if (!config.frontPageAvailable) return null;
  return { isLoggedIn: Boolean(user), defaultPath: `/dashboard/${config.defaultPage}` };
}

export function DefaultFrontRoute() {
  const guard = useFrontGuard();
  if (!guard) return <Redirect to="/user/login" replace />;
  return <Page name="default" props={guard} />;
}

export function GovernmentFrontRoute() {
  const guard = useFrontGuard();
  const config = useConfig();
  if (!guard) return <Redirect to="/user/login" replace />;
  return <Page name="government" props={{ ...guard, hasPartners: Boolean(config.cooperation) }} />;
}

/** §2 partners: only where the deployment names a cooperation company. */
export function PartnersRoute() {
  const config = useConfig();
  if (!config.cooperation) return <NotFoundPage />;
  return <Page name="partners" props={{ companyName: config.cooperation.name }} />;
}

export function InsuranceRoute() {
  const guard = useFrontGuard();
  const config = useConfig();
  if (!guard) return <Redirect to="/user/login" replace />;
  return <Page name="insurance" props={{ hasPartnerForm: Boolean(config.cooperation), email: config.contactEmail }} />;
}
