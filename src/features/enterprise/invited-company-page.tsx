import { Avatar, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconLock } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { INVITATION_STATUS } from '../../../core/enterprise.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useConfig } from '@/config/config-atom.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { EnterpriseCard } from './enterprise-card.tsx';
import { dealInvite, switchDisplayCompany } from './enterprise-api.ts';
import { useCompany } from './use-company.ts';
import classes from './enterprise.module.css';

/** §2 invited company: accept (2) or refuse (3, with a confirm); without an invitation, choose a company or join/create. */
export function InvitedCompanyPage({ user, defaultPath }: { user: UserDto; defaultPath: string }) {
  const { t } = useLingui();
  const config = useConfig();
  const [, navigate] = useLocation();
  const { company, setCompany } = useCompany(user.id);
  if (!company) return <PageLoader />;
  const invited = company.invited_company;

  const onAccept = async () => {
    if (!invited) return;
    try {
      setCompany(await dealInvite(invited.invitation_id, INVITATION_STATUS.accepted));
      navigate('/dashboard/company');
    } catch (error) {
      notifyError(error);
    }
  };
  const onRefuse = () => {
    if (!invited) return;
    modals.openConfirmModal({
      title: t`Refuse to join`,
      centered: true,
      children: <Text size="sm">{t`You cannot join this company unless an administrator invites you again.`}</Text>,
      labels: { confirm: t`Refuse`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          setCompany(await dealInvite(invited.invitation_id, INVITATION_STATUS.refused));
        } catch (error) {
          notifyError(error);
        }
      },
    });
  };
  const onChoose = async (enterpriseId: number) => {
    try {
      await switchDisplayCompany(enterpriseId);
      window.location.assign(defaultPath);
    } catch (error) {
      notifyError(error);
    }
  };

  if (invited) {
    const enterpriseName = invited.enterprise_name;
    const inviter = invited.inviter;
    return (
      <EnterpriseCard title={t`Company invitation`}>
        <Stack align="center" gap="md" ta="center" data-testid="invitation">
          <Avatar size={72} radius="xl" color="orange">
            {Array.from(enterpriseName)[0] ?? '?'}
          </Avatar>
          <Text fw={700} size="lg">
            {enterpriseName}
          </Text>
          <Text c="dimmed">
            <Trans>{inviter} invites you to join this company</Trans>
          </Text>
          <Group>
            <Button variant="default" onClick={onRefuse}>
              <Trans>Refuse to join</Trans>
            </Button>
            <Button onClick={() => void onAccept()}>
              <Trans>Join this company</Trans>
            </Button>
          </Group>
        </Stack>
      </EnterpriseCard>
    );
  }
  return (
    <EnterpriseCard title={t`Choose a company`} subtitle={t`Choose the company to work in, or join or create another.`}>
      <Stack gap="sm">
        {company.companies.map((c) => (
          <UnstyledButton key={c.enterprise_id} className={classes.choice} disabled={c.locked} onClick={() => void onChoose(c.enterprise_id)} style={c.locked ? { opacity: 0.5, cursor: 'not-allowed' } : undefined}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{c.enterprise_name}</Text>
              {c.locked ? <IconLock size={16} aria-label={t`Frozen`} /> : c.enterprise_id === company.enterprise_id ? <IconCheck size={16} aria-label={t`Current`} /> : null}
            </Group>
          </UnstyledButton>
        ))}
        {(config.multiCompany || company.companies.length === 0) && (
          <Group grow mt="sm">
            <Button variant="light" onClick={() => navigate('/real-auth')}>
              <Trans>Join a company</Trans>
            </Button>
            <Button variant="light" onClick={() => navigate('/add-company')}>
              <Trans>Create a company</Trans>
            </Button>
          </Group>
        )}
      </Stack>
    </EnterpriseCard>
  );
}
