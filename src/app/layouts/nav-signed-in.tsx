import { lazy, Suspense } from 'react';
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { maskName, maskPhone } from '../../../core/masking.ts';
import { useCanSearch } from '../use-can-search.ts';
import { useLogout } from '../use-logout.tsx';
import classes from './nav-bar.module.css';

/** The nav bar's parts for a signed-in visitor, loaded when one is (nav-bar.tsx). */
const NavSearch = lazy(async () => ({ default: (await import('@/features/search/nav-search.tsx')).NavSearch }));
const CompanyMenu = lazy(async () => ({ default: (await import('./company-menu.tsx')).CompanyMenu }));

export function userInitial(user: UserDto): string {
  const first = Array.from(user.name.trim())[0];
  return first ? first.toUpperCase() : user.phonenumber.slice(-2);
}

/** §2: the search box, for a member of a company whose status allows it. */
export function SearchSlot({ isCompact }: { isCompact: boolean }) {
  const canSearch = useCanSearch();
  if (!canSearch) return null;
  return (
    <div className={classes.search}>
      {/* Beside the links only from 1200 px in every language; below, an icon opens a full-width search. */}
      <Suspense fallback={null}>
        <NavSearch isCompact={isCompact} />
      </Suspense>
    </div>
  );
}

export function UserMenu({ user }: { user: UserDto }) {
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
