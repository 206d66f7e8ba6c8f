import { Menu } from '@mantine/core';
import { IconBuilding as CompanyIcon, IconCheck as CurrentIcon, IconLock as LockedIcon, IconPlus as AddIcon } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useConfig } from '@/config/config-atom.ts';
import { switchDisplayCompany } from '@/features/enterprise/enterprise-api.ts';
import { useCompany } from '@/features/enterprise/use-company.ts';

/**
 * §2 avatar menu: "my company", or with multiCompany a submenu of companies (locked ones
 * disabled, the current one ticked) plus join/create. §4 switching: switch, reload, go to company.
 */
export function CompanyMenu({ user }: { user: UserDto }) {
  const { t } = useLingui();
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
  if (!config.multiCompany || !company || company.companies.length === 0) {
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
        {company.companies.map((c) => {
          const isCurrent = c.enterprise_id === company.enterprise_id;
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
