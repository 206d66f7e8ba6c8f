import { lazy, Suspense } from 'react';
import { Avatar, Button, Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { maskName, maskPhone } from '../../../core/masking.ts';
import { LocaleSwitch } from '../locale-switch.tsx';
import { useLogout } from '../use-logout.tsx';
import { LinkItem, type NavLink } from './nav-link.tsx';
import { userInitial } from './nav-signed-in.tsx';
import classes from './nav-bar.module.css';

const CompanyDrawerSection = lazy(async () => ({ default: (await import('./company-menu.tsx')).CompanyDrawerSection }));

/** The nav bar's drawer (narrow widths, and always in the xian version), loaded the first time it opens. */
export function NavDrawer({ opened, onClose, links, user }: { opened: boolean; onClose: () => void; links: NavLink[]; user: UserDto | null }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const onLogout = useLogout();
  const drawer = { close: onClose };
  const drawerLinks = links;
  const isDrawerOpen = opened;
  return (
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
  );
}
