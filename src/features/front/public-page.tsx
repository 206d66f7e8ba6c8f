import type { DeploymentConfig } from '../../../core/config.ts';
import type { FrontPath } from './front-meta.ts';
import { DefaultFrontPage } from './front-page.tsx';
import { GovernmentFrontPage } from './government-page.tsx';
import { PartnersPage } from './partners-page.tsx';
import { InsurancePage } from './insurance-page.tsx';

/**
 * The public page at a path, as the server renders it (src/ssr/render.tsx) and the browser
 * hydrates it (src/public-main.tsx): one mapping, so the two cannot draw different trees (a
 * hydration mismatch).
 */
export function PublicPage({ path, config }: { path: FrontPath; config: DeploymentConfig }) {
  const props = { isLoggedIn: false, defaultPath: `/dashboard/${config.defaultPage}` };
  switch (path) {
    case '/':
      return <DefaultFrontPage {...props} />;
    case '/government':
      return <GovernmentFrontPage {...props} hasPartners={Boolean(config.cooperation)} />;
    case '/partners':
      return <PartnersPage companyName={config.cooperation?.name ?? ''} />;
    case '/insurance':
      return <InsurancePage hasPartnerForm={Boolean(config.cooperation)} email={config.contactEmail} />;
  }
}
