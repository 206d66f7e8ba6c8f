import type { ReactNode } from 'react';
import { Anchor, Badge, Breadcrumbs, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { notifyError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { lockVault } from './vault-api.ts';
import type { VaultGate } from './use-vault-gate.ts';

/** The vault belongs to a company: a user without a confirmed membership is told how to get one. */
export function NoCompany() {
  return (
    <Paper withBorder radius="md" p="xl" maw={560} data-testid="vault-no-company">
      <Stack gap="sm">
        <Title order={1} size="h3">
          <Trans>The vault belongs to your company</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>Join or create a company (and wait for the administrator's approval) to keep trade secrets in its vault.</Trans>
        </Text>
        <Group>
          <Button component={Link} href="/invited-company">
            <Trans>Join or create a company</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

type Props = {
  gate: VaultGate;
  title: ReactNode;
  /** Breadcrumb trail above the title (the vault home first). */
  trail?: Array<{ label: ReactNode; href?: string }>;
  actions?: ReactNode;
  children: ReactNode;
};

/** The frame of every unlocked vault screen: trail, title, until when the vault is open, and lock now. */
export function VaultShell({ gate, title, trail, actions, children }: Props) {
  const { t, i18n } = useLingui();
  const auth = gate.authorization;
  if (gate.hasNoCompany) return <NoCompany />;
  if (!auth) return <PageLoader />;
  const until = auth.expires_at ? i18n.date(new Date(auth.expires_at), { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '';
  const onLock = async () => {
    try {
      await lockVault();
      gate.toUnlock('locked');
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
          {trail && trail.length > 0 && (
            <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap' } }}>
              {trail.map((item, i) =>
                item.href ? (
                  <Anchor key={i} component={Link} href={item.href} size="sm">
                    {item.label}
                  </Anchor>
                ) : (
                  <Text key={i} size="sm" c="dimmed" truncate maw={260}>
                    {item.label}
                  </Text>
                ),
              )}
            </Breadcrumbs>
          )}
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
        </Stack>
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" color="teal" size="lg" tt="none" leftSection={<IconLockOpen size={14} />} data-testid="vault-open-until">
            {t`Unlocked until ${until}`}
          </Badge>
          <Button variant="default" size="xs" leftSection={<IconLock size={14} />} onClick={onLock} data-testid="vault-lock">
            <Trans>Lock now</Trans>
          </Button>
          {actions}
        </Group>
      </Group>
      {children}
    </Stack>
  );
}
