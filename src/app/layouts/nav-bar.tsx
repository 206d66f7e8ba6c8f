import { lazy, Suspense, type MouseEvent } from 'react';
import { Burger, Button, Group } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { logoTarget } from '@/features/enterprise/after-login.ts';
import { companyAtom } from '@/features/enterprise/company-atom.ts';
import { LocaleSwitch } from '../locale-switch.tsx';
import { useFrontVariant } from './use-front-variant.ts';
import { useHasOpened } from '@/components/use-has-opened.ts';
import { LinkItem, type NavLink } from './nav-link.tsx';
import classes from './nav-bar.module.css';

// Only a signed-in visitor sees the search box, the avatar menu and the company menu, and the
// drawer draws nothing until it opens: their code (Mantine's menu and drawer, file
// fingerprinting, the enterprise calls, logout) loads then, not with every public page
// (the public pages load at most 150 KB of compressed JavaScript: tests/server/bundle-budget.test.ts).
const SearchSlot = lazy(async () => ({ default: (await import('./nav-signed-in.tsx')).SearchSlot }));
const UserMenu = lazy(async () => ({ default: (await import('./nav-signed-in.tsx')).UserMenu }));
const NavDrawer = lazy(async () => ({ default: (await import('./nav-drawer.tsx')).NavDrawer }));

function useNavLinks(): NavLink[] {
  const config = useConfig();
  const variant = useFrontVariant();
  const { t } = useLingui();
  // §2: the cooperation company's page where the deployment names one (corporationCompany), else
  // the partners page where a cooperation company recruits partners, else the verification centre.
  const cooperationHref = config.corporationCompany || (config.cooperation ? '/partners' : '/verify-file');
  return [
    { key: 'service', label: t`Service system`, href: config.serviceSystem, isExternal: false },
    { key: 'cooperation', label: t`Cooperation company`, href: cooperationHref, isExternal: Boolean(config.corporationCompany && /^https?:/.test(config.corporationCompany)) },
    {
      key: 'verify',
      label: config.fileVerifyCenterText || t`File verification centre`,
      href: '/verify-file',
      isExternal: true,
    },
    {
      key: 'chain',
      label: variant === 'default' ? t`Blockchain explorer` : t`Asset network`,
      href: config.chainBrowserUrl,
      isExternal: true,
    },
  ];
}

function Logo() {
  const config = useConfig();
  const variant = useFrontVariant();
  const user = useAtomValue(currentUserAtom);
  const company = useAtomValue(companyAtom);
  // As guards.tsx's useDefaultPagePath, without that module's dashboard calls on the public pages.
  const defaultPath = `/dashboard/${config.defaultPage}`;
  const { t } = useLingui();
  const siteName = config.webTitle;
  const content = (
    <>
      {/* Fetched after the first frame: building an SVG image document took 160 ms of main thread under 4x CPU throttling before the page could paint; its box is fixed (32 px), so nothing moves. */}
      <img src={`/${config.navbarLogoImageName}`} alt="" loading="lazy" decoding="async" />
      <span>{config.webTitle}</span>
    </>
  );
  // §2: home for the super administrator and administrators, the asset page otherwise;
  // visitors (and the xian variant without a user) reload the front page.
  const target = logoTarget({ isLoggedIn: Boolean(user?.phonenumber), role: company?.enterprise_id ? company.role : null, frontPageVersion: variant, defaultPath });
  if ('href' in target) {
    return (
      <Link href={target.href} className={classes.logo} aria-label={t`${siteName} home`} data-testid="navbar-logo">
        {content}
      </Link>
    );
  }
  // The xian variant reloads the page it is on (the government page); the default variant the front page.
  const reloadHref = variant === 'xian' ? (typeof window === 'undefined' ? '/government' : window.location.pathname) : '/';
  const onReload = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (variant === 'xian') window.location.reload();
    else window.location.assign('/');
  };
  return (
    <a href={reloadHref} onClick={onReload} className={classes.logo} aria-label={t`${siteName} home`}>
      {content}
    </a>
  );
}

/** §2: the xian version's drawer menu: home, partners, asset network, asset verification centre. */
function useXianDrawerLinks(): NavLink[] {
  const config = useConfig();
  const { t } = useLingui();
  return [
    { key: 'xian-home', label: t`Home`, href: '/government', isExternal: false },
    ...(config.cooperation ? [{ key: 'xian-partners', label: t`Partners`, href: '/partners', isExternal: false }] : []),
    { key: 'xian-network', label: t`Asset network`, href: config.chainBrowserUrl, isExternal: true },
    { key: 'xian-verify', label: t`Asset verification centre`, href: '/verify-file', isExternal: true },
  ];
}

export function NavBar() {
  const user = useAtomValue(currentUserAtom);
  const variant = useFrontVariant();
  const navLinks = useNavLinks();
  const xianLinks = useXianDrawerLinks();
  const drawerLinks = variant === 'xian' ? xianLinks : navLinks;
  const { t } = useLingui();
  const [isDrawerOpen, drawer] = useDisclosure(false);
  const hasDrawer = useHasOpened(isDrawerOpen);
  const isMiddleWidth = useMediaQuery('(max-width: 1199px)') ?? false;

  return (
    <header className={classes.header}>
      <div className={classes.inner}>
        <Group gap={isMiddleWidth ? 'md' : 'xl'} wrap="nowrap" miw={0}>
          <Logo />
          <nav className={`${classes.links} ${classes.desktopOnly}`} aria-label={t`Main`}>
            {navLinks.map((link) => (
              <LinkItem key={link.key} link={link} className={classes.link} />
            ))}
          </nav>
        </Group>
        {user && (
          <Suspense fallback={null}>
            <SearchSlot isCompact={isMiddleWidth} />
          </Suspense>
        )}
        <div className={classes.actions}>
          {/* An icon (named for screen readers): the four §2 links and the login button need the width in every language; the footer's switch names the language. */}
          <LocaleSwitch testId="nav-locale" isCompact />
          {user ? (
            <Suspense fallback={null}>
              <UserMenu user={user} />
            </Suspense>
          ) : (
            user === null && (
              <Button component={Link} href="/user/login" size="compact-md" px="md">
                <Trans>Log in / Register</Trans>
              </Button>
            )
          )}
        </div>
        <Burger
          className={`${classes.burger} ${variant === 'xian' ? classes.burgerAlways : ''}`}
          opened={isDrawerOpen}
          onClick={drawer.toggle}
          aria-label={t`Open navigation`}
          size="sm"
        />
      </div>
      {/* The drawer's code loads the first time it opens: it draws nothing before. */}
      {hasDrawer && (
        <Suspense fallback={null}>
          <NavDrawer opened={isDrawerOpen} onClose={drawer.close} links={drawerLinks} user={user ?? null} />
        </Suspense>
      )}
    </header>
  );
}
