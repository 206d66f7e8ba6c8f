import type { ReactNode } from 'react';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingBank, IconCoins, IconFileCertificate, IconLock, IconReceipt, IconUsers, IconWallet } from '@tabler/icons-react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { CreditSummaryDto } from '../../../core/credits.ts';

function Figure({ icon, label, value, testId, hint }: { icon: ReactNode; label: ReactNode; value: number; testId: string; hint?: ReactNode }) {
  const { i18n } = useLingui();
  return (
    <Paper withBorder radius="md" p="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size="lg" radius="md">
          {icon}
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="xl" data-testid={testId} data-value={value} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {i18n.number(value)}
          </Text>
          {hint && (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </div>
      </Group>
    </Paper>
  );
}

/** §3 credit display: available and consumed credits; the pool and totals for those who see the enterprise's data; §9 prices. */
export function CreditOverview({ summary, onGo }: { summary: CreditSummaryDto; onGo: (tab: 'history' | 'top-up' | 'members') => void }) {
  const { t, i18n } = useLingui();
  const e = summary.enterprise;
  const assetPrice = i18n.number(summary.prices.asset);
  const vaultPrice = i18n.number(summary.prices.vault_file);
  const cheapest = Math.min(summary.prices.asset, summary.prices.vault_file);
  const isShort = summary.integral_required && summary.available < cheapest;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Figure icon={<IconWallet size={20} />} label={t`Available credits`} value={summary.available} testId="credit-available" />
        <Figure icon={<IconReceipt size={20} />} label={t`Consumed credits`} value={summary.consumed} testId="credit-consumed" />
      </SimpleGrid>
      {isShort && (
        <Alert color="orange" data-testid="credit-short">
          {summary.is_admin ? (
            <Trans>Your credits do not cover a registration. Top up the company's pool, then give yourself credits in Member top-up.</Trans>
          ) : (
            <Trans>Your credits do not cover a registration. Ask an administrator of your company to give you credits.</Trans>
          )}
        </Alert>
      )}

      {e && (
        <Stack gap="sm">
          <Title order={3} size="h4">
            <Trans>Company</Trans>
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Figure icon={<IconBuildingBank size={20} />} label={t`Pool balance`} value={e.pool_available} testId="credit-pool" hint={t`Not yet given to members`} />
            <Figure icon={<IconUsers size={20} />} label={t`Held by members`} value={e.members_available} testId="credit-members-available" />
            <Figure icon={<IconReceipt size={20} />} label={t`Consumed by the company`} value={e.consumed} testId="credit-enterprise-consumed" />
            <Figure icon={<IconCoins size={20} />} label={t`Topped up in total`} value={e.topped_up} testId="credit-topped-up" />
          </SimpleGrid>
          {e.pending_orders > 0 && (
            <Text size="sm" c="dimmed" data-testid="credit-pending-orders">
              <Plural value={e.pending_orders} one="# top-up order is awaiting confirmation by the platform." other="# top-up orders are awaiting confirmation by the platform." />
            </Text>
          )}
          {summary.is_admin && (
            <Group gap="sm">
              <Button variant="light" onClick={() => onGo('top-up')}>
                <Trans>Top up the pool</Trans>
              </Button>
              <Button variant="default" onClick={() => onGo('members')}>
                <Trans>Give credits to members</Trans>
              </Button>
            </Group>
          )}
        </Stack>
      )}

      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Title order={3} size="h4" mb="xs">
          <Trans>What registrations cost</Trans>
        </Title>
        {summary.integral_required ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Group gap="xs" wrap="nowrap">
              <IconFileCertificate size={18} />
              <Text size="sm" data-testid="price-asset">
                <Trans>Registering a digital asset: {assetPrice} credits</Trans>
              </Text>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <IconLock size={18} />
              <Text size="sm" data-testid="price-vault-file">
                <Trans>Registering a file in the vault: {vaultPrice} credits</Trans>
              </Text>
            </Group>
          </SimpleGrid>
        ) : (
          <Text size="sm" data-testid="price-free">
            <Trans>Registrations are free on this platform.</Trans>
          </Text>
        )}
        <Text size="xs" c="dimmed" mt="sm">
          <Trans>A registration is paid from the registering member's own credits. Without enough credits it is refused and nothing is charged.</Trans>
        </Text>
        <Button variant="subtle" size="compact-sm" mt="xs" px={0} onClick={() => onGo('history')}>
          <Trans>See the usage history</Trans>
        </Button>
      </Paper>
    </Stack>
  );
}
