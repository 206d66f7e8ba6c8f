import { lazy, type ComponentType, type ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useAtom } from 'jotai';
import { Redirect } from 'wouter';
import type { UserDto } from '../../core/api-types.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { DefaultFrontRoute, GovernmentFrontRoute, InsuranceRoute, PartnersRoute } from './front-routes.tsx';
import { FRONT_META } from '@/features/front/front-meta.ts';
import { VAULT_LABELS } from '@/features/vault/vault-labels.ts';
import { ASSET_LABELS } from '@/features/asset/asset-labels.ts';
import { REPOS_LABELS } from '@/features/repos/repos-labels.ts';
import { APPLICATION_LABELS, toApplicationTab } from '@/features/application/application-labels.ts';
import { DISCLOSURE_LABELS } from '@/features/disclosure/disclosure-labels.ts';
import { CREDIT_LABELS } from '@/features/credit/credit-labels.ts';
import { GPT_LABELS } from '@/features/gpt/gpt-labels.ts';
import { ActivateRoute, AssetsRoute, BigscreenRoute, ScoreRoute } from '@/features/map/map-routes.tsx';
import { MAP_TITLES } from '@/features/map/map-titles.ts';
import { SEARCH_LABELS } from '@/features/search/search-labels.ts';
import { RequireUser, SkipIfLoggedIn, useDefaultPagePath } from './guards.tsx';
import { useCanSearch } from './use-can-search.ts';
import { ensureAllCatalogs } from '@/i18n/i18n.ts';

/**
 * Every screen is its own chunk, loaded when its route is first drawn (app.tsx wraps each
 * route in Suspense): the login page does not carry the dashboard, the charts, the
 * markdown renderer or the upload client. Only labels and titles (a few bytes) are static.
 */
function page<M, P>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>, catalogs: 'core' | 'all' = 'all'): ComponentType<P> {
  return lazy(async () => {
    const [module] = await Promise.all([load(), catalogs === 'all' ? ensureAllCatalogs() : null]);
    return { default: pick(module) };
  }) as unknown as ComponentType<P>;
}
type Active = { active: string | undefined };

const LoginPage = page(() => import('@/features/auth/login-page.tsx'), (m) => ({ active }: Active) => <m.LoginPage active={m.toLoginTab(active)} />, 'core');
const SignupPage = page(() => import('@/features/auth/signup-page.tsx'), (m) => m.SignupPage, 'core');
const ResetPassPage = page(() => import('@/features/auth/reset-pass-page.tsx'), (m) => m.ResetPassPage, 'core');
const HomePage = page(() => import('@/features/home/home-page.tsx'), (m) => m.HomePage);
const SettingPage = page(() => import('@/features/setting/setting-page.tsx'), (m) => ({ active, ...props }: Active & Omit<Parameters<typeof m.SettingPage>[0], 'active'>) => <m.SettingPage {...props} active={m.toSettingTab(active)} />);
const TermsPage = page(() => import('@/features/legal/terms-page.tsx'), (m) => m.TermsPage);
const PrivacyPage = page(() => import('@/features/legal/privacy-page.tsx'), (m) => m.PrivacyPage);
const VerifyPage = page(() => import('@/features/verify/verify-page.tsx'), (m) => m.VerifyPage);
const ExplorerHomePage = page(() => import('@/features/explorer/explorer-pages.tsx'), (m) => m.ExplorerHomePage);
const ExplorerBlockPage = page(() => import('@/features/explorer/explorer-pages.tsx'), (m) => m.ExplorerBlockPage);
const ExplorerEntryPage = page(() => import('@/features/explorer/explorer-pages.tsx'), (m) => m.ExplorerEntryPage);
const RealAuthPage = page(() => import('@/features/enterprise/real-auth-page.tsx'), (m) => m.RealAuthPage);
const InvitedCompanyPage = page(() => import('@/features/enterprise/invited-company-page.tsx'), (m) => m.InvitedCompanyPage);
const InReviewPage = page(() => import('@/features/enterprise/in-review-page.tsx'), (m) => m.InReviewPage);
const AddCompanyPage = page(() => import('@/features/enterprise/add-company-page.tsx'), (m) => m.AddCompanyPage);
const CompanyAuthProtocolPage = page(() => import('@/features/enterprise/company-auth-protocol-page.tsx'), (m) => m.CompanyAuthProtocolPage);
const CompanyPage = page(() => import('@/features/enterprise/company-page.tsx'), (m) => ({ active, user }: Active & { user: UserDto }) => <m.CompanyPage user={user} active={m.toCompanyTab(active)} />);
const OperatorPage = page(() => import('./operator-route.tsx'), (m) => m.OperatorRoute);
const CertificateDetailPage = page(() => import('@/features/enterprise/certificate-detail-page.tsx'), (m) => m.CertificateDetailPage);
const LocalCertificatePage = page(() => import('@/features/enterprise/local-certificate-page.tsx'), (m) => m.LocalCertificatePage);
const VaultPage = page(() => import('@/features/vault/vault-page.tsx'), (m) => m.VaultPage);
const VaultUnlockPage = page(() => import('@/features/vault/vault-unlock-page.tsx'), (m) => m.VaultUnlockPage);
const VaultProjectPage = page(() => import('@/features/vault/vault-project-page.tsx'), (m) => m.VaultProjectPage);
const VaultLogPage = page(() => import('@/features/vault/vault-log-page.tsx'), (m) => m.VaultLogPage);
const AssetListPage = page(() => import('@/features/asset/asset-list-page.tsx'), (m) => m.AssetListPage);
const AssetUploadPage = page(() => import('@/features/asset/asset-upload-page.tsx'), (m) => m.AssetUploadPage);
const AssetDetailPage = page(() => import('@/features/asset/asset-detail-page.tsx'), (m) => m.AssetDetailPage);
const ReposPage = page(() => import('@/features/repos/repos-page.tsx'), (m) => m.ReposPage);
const ReposIntroPage = page(() => import('@/features/repos/repos-intro-page.tsx'), (m) => m.ReposIntroPage);
const RepoDetailPage = page(() => import('@/features/repos/repo-detail-page.tsx'), (m) => m.RepoDetailPage);
const CommitDetailPage = page(() => import('@/features/repos/commit-detail-page.tsx'), (m) => m.CommitDetailPage);
const ReposGlobalPage = page(() => import('@/features/repos/repos-global-page.tsx'), (m) => ({ active }: Active) => <m.ReposGlobalPage active={m.toGlobalTab(active)} />);
const ApplicationListPage = page(() => import('@/features/application/application-list-page.tsx'), (m) => m.ApplicationListPage);
const ApplicationDetailPage = page(() => import('@/features/application/application-detail-page.tsx'), (m) => m.ApplicationDetailPage);
const ApplicationFilePage = page(() => import('@/features/application/application-file-page.tsx'), (m) => m.ApplicationFilePage);
const DisclosuresPage = page(() => import('@/features/disclosure/disclosures-page.tsx'), (m) => m.DisclosuresPage);
const DisclosureDetailPage = page(() => import('@/features/disclosure/disclosure-detail-page.tsx'), (m) => m.DisclosureDetailPage);
const ReceiptPage = page(() => import('@/features/disclosure/receipt-page.tsx'), (m) => m.ReceiptPage);
const CreditPage = page(() => import('@/features/credit/credit-page.tsx'), (m) => ({ active }: Active) => <m.CreditPage active={m.toCreditTab(active)} />);
const ConversationListPage = page(() => import('@/features/gpt/conversation-list-page.tsx'), (m) => m.ConversationListPage);
const ChatPage = page(() => import('@/features/gpt/chat-page.tsx'), (m) => m.ChatPage);
const EmptySearchPage = page(() => import('@/features/search/empty-search-page.tsx'), (m) => m.EmptySearchPage);

type Params = Record<string, string | undefined>;

export type AppRoute = {
  path: string;
  /** §2: the route title (plus the site title); none → the site title alone. */
  title?: MessageDescriptor;
  /** §2: keep the previous title. */
  noTitle?: boolean;
  render: (params: Params) => ReactNode;
};

function DashboardIndex() {
  return <Redirect to={useDefaultPagePath()} replace />;
}

/** §2 dashboard `empty`: the page a search without results leads to. */
function EmptySearch() {
  const canSearch = useCanSearch();
  return <EmptySearchPage canSearch={canSearch} homePath={useDefaultPagePath()} />;
}

function Setting({ active }: { active: string | undefined }) {
  const [, setUser] = useAtom(currentUserAtom);
  return <RequireUser>{(user) => <SettingPage user={user} active={active} onUserChange={setUser} />}</RequireUser>;
}

/** Identity and company screens: a logged-in user, the default page to go on to, and user updates. */
function WithUser({ render }: { render: (user: UserDto, defaultPath: string, setUser: (u: UserDto) => void) => ReactNode }) {
  const [, setUser] = useAtom(currentUserAtom);
  const defaultPath = useDefaultPagePath();
  return <RequireUser>{(user) => render(user, defaultPath, setUser)}</RequireUser>;
}

/** Screens in the public layout (nav bar + footer). Standalone routes come with later issues. */
export const PUBLIC_ROUTES: AppRoute[] = [
  { path: '/', render: () => <DefaultFrontRoute /> },
  { path: '/government', title: FRONT_META['/government'].title ?? undefined, render: () => <GovernmentFrontRoute /> },
  { path: '/partners', title: FRONT_META['/partners'].title ?? undefined, render: () => <PartnersRoute /> },
  { path: '/insurance', title: FRONT_META['/insurance'].title ?? undefined, render: () => <InsuranceRoute /> },
  {
    path: '/user/:active?',
    title: msg`Log in`,
    render: ({ active }) => (
      <SkipIfLoggedIn>
        <LoginPage active={active} />
      </SkipIfLoggedIn>
    ),
  },
  {
    path: '/signup',
    title: msg`Register`,
    render: () => (
      <SkipIfLoggedIn>
        <SignupPage />
      </SkipIfLoggedIn>
    ),
  },
  { path: '/reset-pass', title: msg`Reset password`, render: () => <ResetPassPage /> },
  { path: '/terms', title: msg`User agreement`, render: () => <TermsPage /> },
  { path: '/privacy', title: msg`Privacy policy`, render: () => <PrivacyPage /> },
  { path: '/verify-file', title: msg`Verification centre`, render: () => <VerifyPage /> },
  { path: '/real-auth', title: msg`Real-name authentication`, render: () => <WithUser render={(user, home, setUser) => <RealAuthPage user={user} defaultPath={home} onUserChange={setUser} />} /> },
  { path: '/invited-company', title: msg`Company invitation`, render: () => <WithUser render={(user, home) => <InvitedCompanyPage user={user} defaultPath={home} />} /> },
  { path: '/in-review', title: msg`Join review`, render: () => <WithUser render={(user, home) => <InReviewPage user={user} defaultPath={home} />} /> },
  { path: '/add-company/:from?', title: msg`Create a company`, render: () => <WithUser render={(user, home) => <AddCompanyPage user={user} defaultPath={home} />} /> },
  {
    path: '/company-auth-protocol/:legalName/:company',
    title: msg`Enterprise authorisation agreement`,
    render: ({ legalName, company }) => <CompanyAuthProtocolPage legalName={legalName ?? ''} company={company ?? ''} />,
  },
  { path: '/operator', title: msg`Operator console`, render: () => <OperatorPage /> },
  { path: '/explorer', title: msg`Block explorer`, render: () => <ExplorerHomePage /> },
  { path: '/explorer/blocks/:height', title: msg`Block`, render: ({ height }) => <ExplorerBlockPage height={height ?? ''} /> },
  { path: '/explorer/entries/:dna', title: msg`Entry`, render: ({ dna }) => <ExplorerEntryPage dna={dna ?? ''} /> },
  { path: '/disclosures/:disclosureId', title: DISCLOSURE_LABELS.receipt, render: ({ disclosureId }) => <ReceiptPage key={disclosureId} disclosureId={disclosureId ?? ''} /> },
  { path: '/assets', title: MAP_TITLES.assets, render: () => <AssetsRoute /> },
  { path: '/assets-activate/:uuid', title: MAP_TITLES.activate, render: ({ uuid }) => <ActivateRoute key={uuid} uuid={uuid ?? ''} /> },
  { path: '/assets/:uuid', title: MAP_TITLES.score, render: ({ uuid }) => <ScoreRoute key={uuid} uuid={uuid ?? ''} /> },
];

/** Screens in the dashboard layout; all need a logged-in user. */
export const DASHBOARD_ROUTES: AppRoute[] = [
  { path: '/dashboard', noTitle: true, render: () => <DashboardIndex /> },
  { path: '/dashboard/home', title: msg`Home`, render: () => <RequireUser>{(user) => <HomePage user={user} />}</RequireUser> },
  { path: '/dashboard/empty', title: SEARCH_LABELS.empty, render: () => <RequireUser>{() => <EmptySearch />}</RequireUser> },
  { path: '/dashboard/company/:active?', title: msg`My company`, render: ({ active }) => <WithUser render={(user) => <CompanyPage user={user} active={active} />} /> },
  { path: '/dashboard/company/certificate/detail', title: msg`Check a certificate or key file`, render: () => <RequireUser>{() => <LocalCertificatePage />}</RequireUser> },
  {
    path: '/dashboard/company/certificate/:certificateId/:serialNumber',
    title: msg`Certificate details`,
    render: ({ certificateId, serialNumber }) => (
      <RequireUser>{(user) => <CertificateDetailPage key={certificateId} user={user} certificateId={certificateId ?? ''} serialNumber={serialNumber ?? ''} />}</RequireUser>
    ),
  },
  { path: '/dashboard/setting/:active?', title: msg`Personal centre`, render: ({ active }) => <Setting active={active} /> },
  { path: '/dashboard/asset', title: ASSET_LABELS.list, render: () => <RequireUser>{() => <AssetListPage />}</RequireUser> },
  { path: '/dashboard/asset_upload', title: ASSET_LABELS.upload, render: () => <RequireUser>{() => <AssetUploadPage />}</RequireUser> },
  {
    path: '/dashboard/asset/detail/:asset_id',
    title: ASSET_LABELS.detail,
    render: ({ asset_id }) => <RequireUser>{() => <AssetDetailPage key={asset_id} dna={asset_id ?? ''} />}</RequireUser>,
  },
  { path: '/dashboard/application', title: APPLICATION_LABELS.list, render: () => <RequireUser>{() => <ApplicationListPage />}</RequireUser> },
  {
    // §2 named route applicationFileDetail (application_id, file_id); listed before applicationDetail so "file" is never read as an id.
    path: '/dashboard/application/detail/file/:application_id/:file_id',
    title: APPLICATION_LABELS.file,
    render: ({ application_id, file_id }) => <RequireUser>{() => <ApplicationFilePage key={`${application_id}/${file_id}`} applicationId={application_id ?? ''} fileId={file_id ?? ''} />}</RequireUser>,
  },
  {
    // §2 named route applicationDetail (application_id), tabs overview | data | monitoring | settings.
    path: '/dashboard/application/detail/:application_id/:active?',
    title: APPLICATION_LABELS.detail,
    render: ({ application_id, active }) => <RequireUser>{() => <ApplicationDetailPage key={application_id} applicationId={application_id ?? ''} tab={toApplicationTab(active)} />}</RequireUser>,
  },
  { path: '/dashboard/disclosures', title: DISCLOSURE_LABELS.list, render: () => <RequireUser>{() => <DisclosuresPage />}</RequireUser> },
  {
    path: '/dashboard/disclosures/detail/:disclosureId',
    title: DISCLOSURE_LABELS.detail,
    render: ({ disclosureId }) => <RequireUser>{() => <DisclosureDetailPage key={disclosureId} disclosureId={disclosureId ?? ''} />}</RequireUser>,
  },
  { path: '/dashboard/credit/:active?', title: CREDIT_LABELS.page, render: ({ active }) => <RequireUser>{() => <CreditPage active={active} />}</RequireUser> },
  // Source-code (copyright) projects; §2 named routes project and commitDetail.
  { path: '/dashboard/repos', title: REPOS_LABELS.list, render: () => <RequireUser>{() => <ReposPage />}</RequireUser> },
  { path: '/dashboard/repos/intro', title: REPOS_LABELS.intro, render: () => <RequireUser>{() => <ReposIntroPage />}</RequireUser> },
  { path: '/dashboard/repos/global/:active?', title: REPOS_LABELS.global, render: ({ active }) => <RequireUser>{() => <ReposGlobalPage active={active} />}</RequireUser> },
  { path: '/dashboard/repos/detail/:project_id', title: REPOS_LABELS.project, render: ({ project_id }) => <RequireUser>{() => <RepoDetailPage key={project_id} projectId={project_id ?? ''} />}</RequireUser> },
  {
    path: '/dashboard/repos/detail/:project_id/:commit_id',
    title: REPOS_LABELS.commit,
    render: ({ project_id, commit_id }) => <RequireUser>{() => <CommitDetailPage key={`${project_id}/${commit_id}`} projectId={project_id ?? ''} commitId={commit_id ?? ''} />}</RequireUser>,
  },
  { path: '/dashboard/vault', title: VAULT_LABELS.vault, render: () => <RequireUser>{() => <VaultPage />}</RequireUser> },
  { path: '/dashboard/vault/unlock', title: VAULT_LABELS.unlock, render: () => <RequireUser>{(user) => <VaultUnlockPage user={user} />}</RequireUser> },
  { path: '/dashboard/vault/project/:projectId', title: VAULT_LABELS.project, render: ({ projectId }) => <RequireUser>{() => <VaultProjectPage key={projectId} projectId={projectId ?? ''} />}</RequireUser> },
  { path: '/dashboard/vault/log/:projectId', title: VAULT_LABELS.log, render: ({ projectId }) => <RequireUser>{() => <VaultLogPage key={projectId} projectId={projectId ?? ''} />}</RequireUser> },
  { path: '/dashboard/gpt/list', title: GPT_LABELS.list, render: () => <RequireUser>{() => <ConversationListPage />}</RequireUser> },
  {
    // One route with and without the id: the screen that starts a conversation keeps streaming its first answer when the address gains the new id.
    path: '/dashboard/gpt/detail/:id?',
    title: GPT_LABELS.detail,
    render: ({ id }) => <RequireUser>{() => <ChatPage id={id && /^[1-9]\d{0,15}$/.test(id) ? Number(id) : null} />}</RequireUser>,
  },
];

/** §2 standalone routes: full-page screens without the nav bar and footer. */
export const STANDALONE_ROUTES: AppRoute[] = [{ path: '/bigscreen', title: MAP_TITLES.bigscreen, render: () => <BigscreenRoute /> }];

export const NOT_FOUND_TITLE = msg`Page not found`;
