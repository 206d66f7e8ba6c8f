import type { ReactNode } from 'react';
import { Anchor, Badge, Breadcrumbs, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { notifyError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { lockVault } from './vault-api.ts';
import type { VaultGate } from './use-vault-gate.ts';

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
