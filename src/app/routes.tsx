import type { ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useAtom } from 'jotai';
import { Redirect } from 'wouter';
import type { UserDto } from '../../core/api-types.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { LoginPage, toLoginTab } from '@/features/auth/login-page.tsx';
import { SignupPage } from '@/features/auth/signup-page.tsx';
import { ResetPassPage } from '@/features/auth/reset-pass-page.tsx';
import { DefaultFrontRoute, GovernmentFrontRoute, InsuranceRoute, PartnersRoute } from './front-routes.tsx';
import { FRONT_META } from '@/features/front/front-meta.ts';
import { HomePage } from '@/features/home/home-page.tsx';
import { SettingPage, toSettingTab } from '@/features/setting/setting-page.tsx';
import { TermsPage } from '@/features/legal/terms-page.tsx';
import { PrivacyPage } from '@/features/legal/privacy-page.tsx';
import { VerifyPage } from '@/features/verify/verify-page.tsx';
import { ExplorerBlockPage, ExplorerEntryPage, ExplorerHomePage } from '@/features/explorer/explorer-pages.tsx';
import { RealAuthPage } from '@/features/enterprise/real-auth-page.tsx';
import { InvitedCompanyPage } from '@/features/enterprise/invited-company-page.tsx';
import { InReviewPage } from '@/features/enterprise/in-review-page.tsx';
import { AddCompanyPage } from '@/features/enterprise/add-company-page.tsx';
import { CompanyAuthProtocolPage } from '@/features/enterprise/company-auth-protocol-page.tsx';
import { CompanyPage, toCompanyTab } from '@/features/enterprise/company-page.tsx';
import { OperatorPage } from '@/features/enterprise/operator-page.tsx';
import { CertificateDetailPage } from '@/features/enterprise/certificate-detail-page.tsx';
import { LocalCertificatePage } from '@/features/enterprise/local-certificate-page.tsx';
import { VaultPage } from '@/features/vault/vault-page.tsx';
import { VaultUnlockPage } from '@/features/vault/vault-unlock-page.tsx';
import { VaultProjectPage } from '@/features/vault/vault-project-page.tsx';
import { VaultLogPage } from '@/features/vault/vault-log-page.tsx';
import { VAULT_LABELS } from '@/features/vault/vault-labels.ts';
import { AssetListPage } from '@/features/asset/asset-list-page.tsx';
import { AssetUploadPage } from '@/features/asset/asset-upload-page.tsx';
import { AssetDetailPage } from '@/features/asset/asset-detail-page.tsx';
import { ASSET_LABELS } from '@/features/asset/asset-labels.ts';
import { ReposPage } from '@/features/repos/repos-page.tsx';
import { ReposIntroPage } from '@/features/repos/repos-intro-page.tsx';
import { RepoDetailPage } from '@/features/repos/repo-detail-page.tsx';
import { CommitDetailPage } from '@/features/repos/commit-detail-page.tsx';
import { REPOS_LABELS } from '@/features/repos/repos-labels.ts';
import { ReposGlobalPage, toGlobalTab } from '@/features/repos/repos-global-page.tsx';
import { ApplicationListPage } from '@/features/application/application-list-page.tsx';
import { ApplicationDetailPage } from '@/features/application/application-detail-page.tsx';
import { ApplicationFilePage } from '@/features/application/application-file-page.tsx';
import { APPLICATION_LABELS, toApplicationTab } from '@/features/application/application-labels.ts';
import { DisclosuresPage } from '@/features/disclosure/disclosures-page.tsx';
import { DisclosureDetailPage } from '@/features/disclosure/disclosure-detail-page.tsx';
import { ReceiptPage } from '@/features/disclosure/receipt-page.tsx';
import { DISCLOSURE_LABELS } from '@/features/disclosure/disclosure-labels.ts';
import { CreditPage, toCreditTab } from '@/features/credit/credit-page.tsx';
import { OperatorCreditOrders } from '@/features/credit/operator-orders.tsx';
import { OperatorPartners } from '@/features/front/operator-partners.tsx';
import { CREDIT_LABELS } from '@/features/credit/credit-labels.ts';
import { ConversationListPage } from '@/features/gpt/conversation-list-page.tsx';
import { ChatPage } from '@/features/gpt/chat-page.tsx';
import { GPT_LABELS } from '@/features/gpt/gpt-labels.ts';
import { ActivateRoute, AssetsRoute, BigscreenRoute, ScoreRoute } from '@/features/map/map-routes.tsx';
import { MAP_TITLES } from '@/features/map/map-titles.ts';
import { EmptySearchPage } from '@/features/search/empty-search-page.tsx';
import { SEARCH_LABELS } from '@/features/search/search-labels.ts';
import { RequireUser, SkipIfLoggedIn, useDefaultPagePath } from './guards.tsx';
import { useCanSearch } from './use-can-search.ts';

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
  return <RequireUser>{(user) => <SettingPage user={user} active={toSettingTab(active)} onUserChange={setUser} />}</RequireUser>;
}

/** Identity and company screens: a logged-in user, the default page to go on to, and user updates. */
function WithUser({ render }: { render: (user: UserDto, defaultPath: string, setUser: (u: UserDto) => void) => ReactNode }) {
  const [, setUser] = useAtom(currentUserAtom);
  const defaultPath = useDefaultPagePath();
  return <RequireUser>{(user) => render(user, defaultPath, setUser)}</RequireUser>;
}

/** Parts of the operator console that other product areas contribute. */
const OPERATOR_SECTIONS = [
  { value: 'credit-orders', label: CREDIT_LABELS.operatorTab, render: () => <OperatorCreditOrders /> },
  { value: 'partners', label: msg`Partner applications`, render: () => <OperatorPartners /> },
];

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
        <LoginPage active={toLoginTab(active)} />
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
  { path: '/operator', title: msg`Operator console`, render: () => <OperatorPage sections={OPERATOR_SECTIONS} /> },
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
  { path: '/dashboard/company/:active?', title: msg`My company`, render: ({ active }) => <WithUser render={(user) => <CompanyPage user={user} active={toCompanyTab(active)} />} /> },
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
  { path: '/dashboard/credit/:active?', title: CREDIT_LABELS.page, render: ({ active }) => <RequireUser>{() => <CreditPage active={toCreditTab(active)} />}</RequireUser> },
  // Source-code (copyright) projects; §2 named routes project and commitDetail.
  { path: '/dashboard/repos', title: REPOS_LABELS.list, render: () => <RequireUser>{() => <ReposPage />}</RequireUser> },
  { path: '/dashboard/repos/intro', title: REPOS_LABELS.intro, render: () => <RequireUser>{() => <ReposIntroPage />}</RequireUser> },
  { path: '/dashboard/repos/global/:active?', title: REPOS_LABELS.global, render: ({ active }) => <RequireUser>{() => <ReposGlobalPage active={toGlobalTab(active)} />}</RequireUser> },
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
