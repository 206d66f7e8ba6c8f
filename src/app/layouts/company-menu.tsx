import { Button, Menu, NavLink, Stack, Text } from '@mantine/core';
import { IconBuilding as CompanyIcon, IconCheck as CurrentIcon, IconLock as LockedIcon, IconPlus as AddIcon } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useConfig } from '@/config/config-atom.ts';
import { switchDisplayCompany } from '@/features/enterprise/enterprise-api.ts';
import { useCompany } from '@/features/enterprise/use-company.ts';

/** The companies a user may show and switch to, and the §4 switch (switch, reload, go to company). */
function useCompanySwitch(user: UserDto) {
  const config = useConfig();
  const [, navigate] = useLocation();
  const { company } = useCompany(user.id);
  const onSwitch = async (enterpriseId: number) => {
    try {
      await switchDisplayCompany(enterpriseId);
      window.location.assign('/dashboard/company');
    } catch (error) {
      notifyError(error);
    }
  };
  const companies = config.multiCompany && company ? company.companies : [];
  return { company, companies, navigate, onSwitch };
}

/**
 * §2 avatar menu: "my company", or with multiCompany a submenu of companies (locked ones
 * disabled, the current one ticked) plus join/create. §4 switching: switch, reload, go to company.
 */
export function CompanyMenu({ user }: { user: UserDto }) {
  const { t } = useLingui();
  const { company, companies, navigate, onSwitch } = useCompanySwitch(user);
  if (companies.length === 0) {
    return (
      <Menu.Item leftSection={<CompanyIcon size={16} />} onClick={() => navigate(company?.name ? '/dashboard/company' : '/real-auth')}>
        <Trans>My company</Trans>
      </Menu.Item>
    );
  }
  return (
    <Menu.Sub>
      <Menu.Sub.Target>
        <Menu.Sub.Item leftSection={<CompanyIcon size={16} />} data-testid="company-submenu">
          <Trans>My company</Trans>
        </Menu.Sub.Item>
      </Menu.Sub.Target>
      <Menu.Sub.Dropdown>
        {companies.map((c) => {
          const isCurrent = c.enterprise_id === company?.enterprise_id;
          return (
            <Menu.Item
              key={c.enterprise_id}
              disabled={c.locked}
              leftSection={c.locked ? <LockedIcon size={14} aria-label={t`Frozen`} /> : isCurrent ? <CurrentIcon size={14} aria-label={t`Current`} /> : <span style={{ width: 14 }} />}
              onClick={() => (isCurrent ? navigate('/dashboard/company') : void onSwitch(c.enterprise_id))}
            >
              {c.enterprise_name}
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        <Menu.Item leftSection={<AddIcon size={14} />} onClick={() => navigate('/invited-company')}>
          <Trans>Join or create a company</Trans>
        </Menu.Item>
      </Menu.Sub.Dropdown>
    </Menu.Sub>
  );
}

/**
 * The same choices in the mobile drawer, where the avatar menu is hidden (below about 1000 px):
 * "my company", each company (locked ones disabled, the current one ticked) and join/create.
 */
export function CompanyDrawerSection({ user, onNavigate }: { user: UserDto; onNavigate: () => void }) {
  const { t } = useLingui();
  const { company, companies, navigate, onSwitch } = useCompanySwitch(user);
  const go = (path: string) => {
    onNavigate();
    navigate(path);
  };
  if (companies.length === 0) {
    return (
      <Button variant="light" leftSection={<CompanyIcon size={16} />} onClick={() => go(company?.name ? '/dashboard/company' : '/real-auth')} data-testid="drawer-company">
        <Trans>My company</Trans>
      </Button>
    );
  }
  return (
    <Stack gap={2} data-testid="drawer-companies">
      <Text size="sm" fw={600} c="dimmed" px="xs">
        <Trans>My company</Trans>
      </Text>
      {companies.map((c) => {
        const isCurrent = c.enterprise_id === company?.enterprise_id;
        return (
          <NavLink
            key={c.enterprise_id}
            label={c.enterprise_name}
            disabled={c.locked}
            active={isCurrent}
            aria-current={isCurrent ? 'true' : undefined}
            leftSection={c.locked ? <LockedIcon size={14} aria-label={t`Frozen`} /> : isCurrent ? <CurrentIcon size={14} aria-label={t`Current`} /> : <span style={{ width: 14 }} />}
            onClick={() => (isCurrent ? go('/dashboard/company') : void onSwitch(c.enterprise_id))}
          />
        );
      })}
      <NavLink label={t`Join or create a company`} leftSection={<AddIcon size={14} />} onClick={() => go('/invited-company')} />
    </Stack>
  );
}
