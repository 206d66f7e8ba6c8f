import { Alert, Button, Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconClock, IconX } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Redirect, useLocation } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { APPLICATION_STATUS, EMPLOYEE_STATUS } from '../../../core/enterprise.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { EnterpriseCard } from './enterprise-card.tsx';
import { useCompany } from './use-company.ts';

/** §2 join-review: confirmed → default page; 2 applied (clock); 3 rejected; a channel-2 application's review. */
export function InReviewPage({ user, defaultPath }: { user: UserDto; defaultPath: string }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const { company, reload } = useCompany(user.id);
  if (company === undefined) return <PageLoader />;
  if (company && company.member_confirmed_status === EMPLOYEE_STATUS.confirmed && company.name) return <Redirect to={defaultPath} replace />;
  const status = company?.member_confirmed_status ?? 0;
  const companyName = company?.name ?? '';
  const application = company?.application;
  return (
    <EnterpriseCard title={t`Join review`}>
      <Center>
        <Stack align="center" gap="md" maw={420} ta="center" data-testid="review-state" data-status={status}>
          {status === EMPLOYEE_STATUS.applied && (
            <>
              <ThemeIcon size={64} radius="xl" variant="light" color="orange">
                <IconClock size={36} />
              </ThemeIcon>
              <Text fw={600}>
                <Trans>You have applied to join {companyName}</Trans>
              </Text>
              <Text c="dimmed">
                <Trans>The administrator is reviewing, please wait.</Trans>
              </Text>
            </>
          )}
          {status === EMPLOYEE_STATUS.rejected && (
            <>
              <ThemeIcon size={64} radius="xl" variant="light" color="red">
                <IconX size={36} />
              </ThemeIcon>
              <Text fw={600}>
                <Trans>The administrator rejected your application to join {companyName}</Trans>
              </Text>
              <Text c="dimmed">
                <Trans>Please contact the administrator before trying to join again.</Trans>
              </Text>
            </>
          )}
          {!companyName && application && application.status === APPLICATION_STATUS.pending && (
            <Alert color="orange" icon={<IconClock size={18} />} title={application.name}>
              <Trans>Your enterprise application is being reviewed by the platform.</Trans>
            </Alert>
          )}
          {!companyName && application && application.status === APPLICATION_STATUS.rejected && (
            <Alert color="red" icon={<IconX size={18} />} title={application.name}>
              <Trans>The platform rejected your enterprise application: {application.reason}</Trans>
            </Alert>
          )}
          <Group>
            <Button variant="default" onClick={() => void reload()}>
              <Trans>Refresh</Trans>
            </Button>
            {(status === EMPLOYEE_STATUS.rejected || !companyName) && (
              <Button onClick={() => navigate(application?.status === APPLICATION_STATUS.rejected ? '/add-company' : '/real-auth')}>
                {application?.status === APPLICATION_STATUS.rejected ? <Trans>Recommit the application</Trans> : <Trans>Join or create a company</Trans>}
              </Button>
            )}
          </Group>
        </Stack>
      </Center>
    </EnterpriseCard>
  );
}
