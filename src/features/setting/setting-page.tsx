import { Stack, Tabs, Title } from '@mantine/core';
import { IconId, IconLock } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { ProfileTab, Section } from './profile-tab.tsx';

export type SettingTab = 'info' | 'pass';

export function toSettingTab(active: string | undefined): SettingTab {
  return active === 'pass' ? 'pass' : 'info';
}

type Props = { user: UserDto; active: SettingTab; onUserChange: (user: UserDto) => void };

/** §2 personal centre, route dashboard/setting/:active? (info or pass). */
export function SettingPage({ user, active, onUserChange }: Props) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const isReadOnly = !user.allowEditProfile;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        <Trans>Personal centre</Trans>
      </Title>
      <Tabs value={active} onChange={(value) => value && navigate(`/dashboard/setting/${value}`, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="info" leftSection={<IconId size={16} />}>
            <Trans>Basic information</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="pass" leftSection={<IconLock size={16} />}>
            <Trans>Change password</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="info">
          <ProfileTab user={user} isReadOnly={isReadOnly} onUserChange={onUserChange} />
        </Tabs.Panel>
        <Tabs.Panel value="pass">
          <Section title={t`Change password`}>
            <ChangePasswordForm isReadOnly={isReadOnly} />
          </Section>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
