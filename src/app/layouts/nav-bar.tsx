import { lazy, Suspense, type MouseEvent, type ReactNode } from 'react';
import { Avatar, Burger, Button, Divider, Drawer, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconExternalLink, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { Link, useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { maskName, maskPhone } from '../../../core/masking.ts';
import { useConfig } from '@/config/config-atom.ts';
import { currentUserAtom } from '@/features/auth/user-atom.ts';
import { logoTarget } from '@/features/enterprise/after-login.ts';
import { companyAtom } from '@/features/enterprise/company-atom.ts';
import { useDefaultPagePath } from '../guards.tsx';
import { LocaleSwitch } from '../locale-switch.tsx';
import { useCanSearch } from '../use-can-search.ts';
import { useFrontVariant } from './use-front-variant.ts';
import { useLogout } from '../use-logout.tsx';
import classes from './nav-bar.module.css';

// Only a signed-in visitor sees the search box and the company menu: their code (file
// fingerprinting, the enterprise calls) is loaded then, not with every public page.
const NavSearch = lazy(async () => ({ default: (await import('@/features/search/nav-search.tsx')).NavSearch }));
const CompanyMenu = lazy(async () => ({ default: (await import('./company-menu.tsx')).CompanyMenu }));
const CompanyDrawerSection = lazy(async () => ({ default: (await import('./company-menu.tsx')).CompanyDrawerSection }));

type NavLink = { key: string; label: ReactNode; href: string; isExternal: boolean };

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

export function userInitial(user: UserDto): string {
  const first = Array.from(user.name.trim())[0];
  return first ? first.toUpperCase() : user.phonenumber.slice(-2);
}

function Logo() {
  const config = useConfig();
  const variant = useFrontVariant();
  const user = useAtomValue(currentUserAtom);
  const company = useAtomValue(companyAtom);
  const defaultPath = useDefaultPagePath();
  const { t } = useLingui();
  const siteName = config.webTitle;
  const content = (
    <>
      <img src={`/${config.navbarLogoImageName}`} alt="" />
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

function LinkItem({ link, className, onNavigate }: { link: NavLink; className: string; onNavigate?: () => void }) {
  if (link.isExternal) {
    return (
      <a href={link.href} target="_blank" rel="noopener noreferrer" className={className} onClick={onNavigate}>
        {link.label}
        <IconExternalLink size={14} aria-hidden />
      </a>
    );
  }
  return (
    <a href={link.href} className={className} onClick={onNavigate}>
      {link.label}
    </a>
  );
}

function UserMenu({ user }: { user: UserDto }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const onLogout = useLogout();
  return (
    <Menu position="bottom-end" shadow="md" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t`Account menu`} data-testid="user-menu">
          <Group gap={6} wrap="nowrap">
            <Avatar size={34} radius="xl" color="white" style={{ background: user.icon_color || undefined }}>
              {userInitial(user)}
            </Avatar>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {user.name ? maskName(user.name) : t`Not set`}
          </Text>
          <Text size="xs" c="dimmed">
            {maskPhone(user.phonenumber)}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item leftSection={<IconUserCircle size={16} />} onClick={() => navigate('/dashboard/setting/info')}>
          <Trans>Personal centre</Trans>
        </Menu.Item>
        <Suspense fallback={null}>
          <CompanyMenu user={user} />
        </Suspense>
        <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={onLogout}>
          <Trans>Log out</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
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
  const [, navigate] = useLocation();
  const onLogout = useLogout();
  const [isDrawerOpen, drawer] = useDisclosure(false);
  const isMiddleWidth = useMediaQuery('(max-width: 1199px)') ?? false;
  const canSearch = useCanSearch();

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
        {canSearch && (
          <div className={classes.search}>
            {/* Beside the links only from 1200 px in every language; below, an icon opens a full-width search. */}
            <Suspense fallback={null}>
              <NavSearch isCompact={isMiddleWidth} />
            </Suspense>
          </div>
        )}
        <div className={classes.actions}>
          {/* An icon (named for screen readers): the four §2 links and the login button need the width in every language; the footer's switch names the language. */}
          <LocaleSwitch testId="nav-locale" isCompact />
          {user ? (
            <UserMenu user={user} />
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
      <Drawer opened={isDrawerOpen} onClose={drawer.close} position="right" size="80%" title={t`Menu`}>
        <Stack gap={0}>
          {user && (
            <Group gap="sm" pb="md" wrap="nowrap">
              <Avatar radius="xl" color="white" style={{ background: user.icon_color || undefined }}>
                {userInitial(user)}
              </Avatar>
              <div style={{ minWidth: 0 }}>
                <Text fw={600} truncate>
                  {user.name ? maskName(user.name) : t`Not set`}
                </Text>
                <Text size="sm" c="dimmed">
                  {maskPhone(user.phonenumber)}
                </Text>
              </div>
            </Group>
          )}
          {drawerLinks.map((link) => (
            <LinkItem key={link.key} link={link} className={classes.drawerLink} onNavigate={drawer.close} />
          ))}
          <Divider my="md" />
          {user ? (
            <Stack gap="sm">
              <Button
                variant="light"
                leftSection={<IconUserCircle size={16} />}
                onClick={() => {
                  drawer.close();
                  navigate('/dashboard/setting/info');
                }}
              >
                <Trans>Personal centre</Trans>
              </Button>
              <Suspense fallback={null}>
                <CompanyDrawerSection user={user} onNavigate={drawer.close} />
              </Suspense>
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconLogout size={16} />}
                onClick={() => {
                  drawer.close();
                  onLogout();
                }}
              >
                <Trans>Log out</Trans>
              </Button>
            </Stack>
          ) : (
            <Button component={Link} href="/user/login" onClick={drawer.close}>
              <Trans>Log in / Register</Trans>
            </Button>
          )}
          <Group justify="center" mt="lg">
            <LocaleSwitch variant="default" />
          </Group>
        </Stack>
      </Drawer>
    </header>
  );
}
