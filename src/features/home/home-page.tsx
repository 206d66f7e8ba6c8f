import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendar, IconDeviceMobile, IconLock, IconShieldCheck, IconUserCircle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { UserDto } from '../../../core/api-types.ts';
import { maskName, maskPhone } from '../../../core/masking.ts';

function Tile({ icon, label, children }: { icon: ReactNode; label: ReactNode; children: ReactNode }) {
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
          <Text fw={600} component="div">
            {children}
          </Text>
        </div>
      </Group>
    </Paper>
  );
}

/** Dashboard home: an overview of the account. Counters and the activity feed come with later features. */
export function HomePage({ user }: { user: UserDto }) {
  const { t, i18n } = useLingui();
  const displayName = user.name ? maskName(user.name) : maskPhone(user.phonenumber);
  const isVerified = user.card_no !== '';
  return (
    <Stack gap="lg">
      <Paper radius="md" p={{ base: 'md', sm: 'xl' }} withBorder style={{ background: 'linear-gradient(120deg, var(--mantine-color-brand-0), var(--mantine-color-body))' }}>
        <Title order={1} size="h2">
          <Trans>Hello, {displayName}</Trans>
        </Title>
        <Text c="dimmed" mt={6}>
          <Trans>This is your account overview. Protect your digital assets with verifiable proof on the ledger.</Trans>
        </Text>
      </Paper>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        <Tile icon={<IconDeviceMobile size={20} />} label={t`Phone number`}>
          {maskPhone(user.phonenumber)}
        </Tile>
        <Tile icon={<IconCalendar size={20} />} label={t`Account created`}>
          {i18n.date(new Date(user.created_at), { dateStyle: 'long' })}
        </Tile>
        <Tile icon={<IconShieldCheck size={20} />} label={t`Real-name authentication`}>
          {isVerified ? (
            <Badge color="green" variant="light" tt="none">{t`Verified`}</Badge>
          ) : (
            <Badge color="gray" variant="light" tt="none">{t`Not verified`}</Badge>
          )}
        </Tile>
      </SimpleGrid>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Title order={2} size="h4" mb="xs">
          <Trans>Account security</Trans>
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          <Trans>Keep your name and phone number up to date, and use a strong password that you do not use elsewhere.</Trans>
        </Text>
        <Group gap="sm">
          <Button component={Link} href="/dashboard/setting/info" variant="light" leftSection={<IconUserCircle size={16} />}>
            <Trans>Edit profile</Trans>
          </Button>
          <Button component={Link} href="/dashboard/setting/pass" variant="default" leftSection={<IconLock size={16} />}>
            <Trans>Change password</Trans>
          </Button>
        </Group>
        {!isVerified && (
          <Text size="xs" c="dimmed" mt="md">
            <Trans>
              Real-name authentication will be available with enterprise accounts. See the{' '}
              <Anchor component={Link} href="/privacy" size="xs">
                privacy policy
              </Anchor>{' '}
              for how identity data is handled.
            </Trans>
          </Text>
        )}
      </Paper>
    </Stack>
  );
}
