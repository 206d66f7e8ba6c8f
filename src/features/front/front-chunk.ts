/** The public pages as one lazily loaded chunk (see src/app/front-routes.tsx). */
export { DefaultFrontPage } from './front-page.tsx';
export { GovernmentFrontPage } from './government-page.tsx';
export { PartnersPage } from './partners-page.tsx';
export { InsurancePage } from './insurance-page.tsx';
