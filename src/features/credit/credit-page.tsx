import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Stack, Tabs, Text, Title } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import { describeError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import type { CreditSummaryDto } from '../../../core/credits.ts';
import { fetchCreditSummary } from './credit-api.ts';
import { CreditOverview } from './credit-overview.tsx';
import { CreditHistory } from './credit-history.tsx';
import { CreditTopUp } from './credit-top-up.tsx';
import { MemberTopUp } from './member-top-up.tsx';

export const CREDIT_TABS = ['overview', 'history', 'top-up', 'members'] as const;
export type CreditTab = (typeof CREDIT_TABS)[number];

export function toCreditTab(active: string | undefined): CreditTab {
  return (CREDIT_TABS as readonly string[]).includes(active ?? '') ? (active as CreditTab) : 'overview';
}

/**
 * /dashboard/credit/:active? (§2 credit: usage history, top-up, member top-up). Everyone
 * sees their own available and consumed credits (§3) and their history; administrators
 * also order top-ups of the enterprise pool and allocate credits to members.
 */
export function CreditPage({ active }: { active: CreditTab }) {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [summary, setSummary] = useState<CreditSummaryDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  const reload = useCallback(() => setVersion((n) => n + 1), []);
  useEffect(() => {
    const controller = new AbortController();
    fetchCreditSummary(controller.signal)
      .then((s) => {
        setSummary(s);
        setError(null);
      })
      .catch((e: unknown) => {
        if ((e as Error)?.name !== 'AbortError') setError(describeError(e, i18n));
      });
    return () => controller.abort();
  }, [version, i18n]);

  if (error && !summary) {
    return (
      <Alert color="red" title={t`The credits could not be loaded`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{error}</Text>
          <Button size="xs" variant="light" onClick={reload}>
            <Trans>Try again</Trans>
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!summary) return <PageLoader />;
  const isAdmin = summary.is_admin;
  const tab = !isAdmin && (active === 'top-up' || active === 'members') ? 'overview' : active;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <Trans>Credits</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>Registrations are paid with credits from your own account. Administrators top up the company's pool and give members their credits.</Trans>
        </Text>
      </div>
      <Tabs value={tab} onChange={(value) => navigate(`/dashboard/credit/${value ?? 'overview'}`)} keepMounted={false}>
        <Tabs.List mb="md" style={{ flexWrap: 'wrap' }}>
          <Tabs.Tab value="overview" data-testid="credit-tab-overview">{t`Overview`}</Tabs.Tab>
          <Tabs.Tab value="history" data-testid="credit-tab-history">{t`Usage history`}</Tabs.Tab>
          {isAdmin && <Tabs.Tab value="top-up" data-testid="credit-tab-top-up">{t`Top up`}</Tabs.Tab>}
          {isAdmin && <Tabs.Tab value="members" data-testid="credit-tab-members">{t`Member top-up`}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="overview">
          <CreditOverview summary={summary} onGo={(next) => navigate(`/dashboard/credit/${next}`)} />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <CreditHistory summary={summary} version={version} />
        </Tabs.Panel>
        {isAdmin && (
          <Tabs.Panel value="top-up">
            <CreditTopUp onChange={reload} version={version} />
          </Tabs.Panel>
        )}
        {isAdmin && (
          <Tabs.Panel value="members">
            <MemberTopUp summary={summary} onChange={reload} version={version} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
