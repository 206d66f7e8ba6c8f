import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Anchor, Badge, Button, Grid, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import {
  IconCalendar,
  IconCoins,
  IconDeviceMobile,
  IconFileCertificate,
  IconFileExport,
  IconFiles,
  IconFolders,
  IconLock,
  IconShieldCheck,
  IconUserCircle,
  IconUsers,
  IconFileSearch,
  type IconProps,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import type { UserDto } from '../../../core/api-types.ts';
import type { HomeEventDto, HomeSummaryDto } from '../../../core/home.ts';
import { maskName, maskPhone } from '../../../core/masking.ts';
import { ActivityFeed, ROLE_NAMES } from './activity-feed.tsx';
import { fetchHomeActivity, fetchHomeSummary } from './home-api.ts';
import classes from './home.module.css';

function Tile({ icon, label, children }: { icon: ReactNode; label: ReactNode; children: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon variant="light" size="lg" radius="md" style={{ flexShrink: 0 }}>
        {icon}
      </ThemeIcon>
      <div style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text fw={600} size="sm" component="div">
          {children}
        </Text>
      </div>
    </Group>
  );
}

type CounterProps = { icon: ComponentType<IconProps>; label: string; value: number | null; note?: ReactNode; href?: string; testId: string };

/** One counter: a card that opens its screen. */
function Counter({ icon: Icon, label, value, note, href, testId }: CounterProps) {
  const { i18n } = useLingui();
  const body = (
    <Paper withBorder radius="md" p="md" className={href ? classes.counterLink : undefined} h="100%">
      <Group gap={8} wrap="nowrap" mb={6}>
        <Icon size={18} stroke={1.6} color="var(--mantine-color-brand-6)" style={{ flexShrink: 0 }} />
        <Text size="sm" c="dimmed" truncate>
          {label}
        </Text>
      </Group>
      <Text fz={28} fw={700} lh={1.1} data-testid={`${testId}-value`}>
        {value === null ? '—' : i18n.number(value)}
      </Text>
      {note && (
        <Text size="xs" c="dimmed" mt={4} component="div">
          {note}
        </Text>
      )}
    </Paper>
  );
  return href ? (
    // Named by what it shows (label and value): an aria-label that differs from the visible text fails WCAG 2.5.3.
    <UnstyledButton component={Link} href={href} data-testid={testId} className={classes.counterAnchor}>
      {body}
    </UnstyledButton>
  ) : (
    <div data-testid={testId}>{body}</div>
  );
}

function Counters({ summary }: { summary: HomeSummaryDto | null }) {
  const { t, i18n } = useLingui();
  if (!summary) {
    return (
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} height={104} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const c = summary.counters;
  const pending = c.pending_applications ?? 0;
  const consumed = i18n.number(c.credits.consumed);
  const pool = i18n.number(c.credits.pool ?? 0);
  const cards = [
    <Counter key="assets" icon={IconFileCertificate} label={t`Digital assets`} value={c.assets} href="/dashboard/asset" testId="counter-assets" />,
    <Counter key="projects" icon={IconFolders} label={t`Vault projects`} value={c.vault_projects} href="/dashboard/vault" testId="counter-projects" />,
    <Counter key="files" icon={IconFiles} label={t`Vault files`} value={c.vault_files} href="/dashboard/vault" testId="counter-vault-files" />,
    <Counter
      key="credits"
      icon={IconCoins}
      label={t`Credits available`}
      value={c.credits.available}
      href="/dashboard/credit"
      note={
        <>
          <div data-testid="counter-credits-consumed">{t`Consumed: ${consumed}`}</div>
          {c.credits.pool !== null && <div data-testid="counter-credits-pool">{t`Company pool: ${pool}`}</div>}
        </>
      }
      testId="counter-credits"
    />,
    <Counter key="disclosures" icon={IconFileExport} label={t`Disclosures`} value={c.disclosures} href="/dashboard/disclosures" testId="counter-disclosures" />,
    c.members !== null && (
      <Counter
        key="members"
        icon={IconUsers}
        label={t({ message: 'Members', context: 'count of company members' })}
        value={c.members}
        href="/dashboard/company/members"
        note={
          pending > 0 ? (
            <Badge color="yellow" variant="light" tt="none" size="sm" data-testid="pending-applications">
              {t`${pending} waiting for approval`}
            </Badge>
          ) : undefined
        }
        testId="counter-members"
      />
    ),
  ].filter(Boolean);
  // Up to four cards sit in one row on wider screens; more wrap into rows of three.
  return (
    <SimpleGrid cols={{ base: 2, sm: cards.length <= 4 ? cards.length : 3 }} spacing={{ base: 'sm', sm: 'md' }} data-testid="home-counters">
      {cards}
    </SimpleGrid>
  );
}

function QuickActions() {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} size="h4" mb="sm">
        <Trans>Quick actions</Trans>
      </Title>
      <Stack gap="xs">
        <Button component={Link} href="/dashboard/asset_upload" variant="filled" leftSection={<IconFileCertificate size={16} />} justify="flex-start" fullWidth data-testid="action-register-asset">
          <Trans>Register an asset</Trans>
        </Button>
        <Button component={Link} href="/dashboard/vault" variant="light" leftSection={<IconLock size={16} />} justify="flex-start" fullWidth data-testid="action-vault">
          <Trans>Open the vault</Trans>
        </Button>
        <Button component={Link} href="/dashboard/disclosures" variant="default" leftSection={<IconFileExport size={16} />} justify="flex-start" fullWidth>
          <Trans>Disclose a file</Trans>
        </Button>
        <Button component="a" href="/verify-file" target="_blank" rel="noopener noreferrer" variant="default" leftSection={<IconFileSearch size={16} />} justify="flex-start" fullWidth>
          <Trans>Verify a file</Trans>
        </Button>
      </Stack>
    </Paper>
  );
}

function AccountPanel({ user }: { user: UserDto }) {
  const { t, i18n } = useLingui();
  const isVerified = user.card_no !== '';
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="account-panel">
      <Title order={2} size="h4" mb="sm">
        <Trans>Account security</Trans>
      </Title>
      <Stack gap="sm">
        <Tile icon={<IconDeviceMobile size={20} />} label={t`Phone number`}>
          {maskPhone(user.phonenumber)}
        </Tile>
        <Tile icon={<IconShieldCheck size={20} />} label={t`Real-name authentication`}>
          {isVerified ? (
            <Badge color="green" variant="light" tt="none">{t`Verified`}</Badge>
          ) : (
            <Badge color="gray" variant="light" tt="none">{t`Not verified`}</Badge>
          )}
        </Tile>
        <Tile icon={<IconCalendar size={20} />} label={t`Account created`}>
          {i18n.date(new Date(user.created_at), { dateStyle: 'long' })}
        </Tile>
      </Stack>
      <Text size="xs" c="dimmed" mt="md">
        <Trans>Keep your name and phone number up to date, and use a strong password that you do not use elsewhere.</Trans>
      </Text>
      <Group gap="xs" mt="sm">
        <Button component={Link} href="/dashboard/setting/info" variant="light" size="xs" leftSection={<IconUserCircle size={14} />}>
          <Trans>Edit profile</Trans>
        </Button>
        <Button component={Link} href="/dashboard/setting/pass" variant="default" size="xs" leftSection={<IconLock size={14} />}>
          <Trans>Change password</Trans>
        </Button>
      </Group>
      {!isVerified && (
        <Text size="xs" c="dimmed" mt="md">
          <Trans>
            Complete{' '}
            <Anchor component={Link} href="/real-auth" size="xs">
              real-name authentication
            </Anchor>{' '}
            to create or join a company. See the{' '}
            <Anchor component={Link} href="/privacy" size="xs">
              privacy policy
            </Anchor>{' '}
            for how identity data is handled.
          </Trans>
        </Text>
      )}
    </Paper>
  );
}

/** The feed, page by page (cursor), newest first. */
function useActivity(isEnabled: boolean) {
  const [items, setItems] = useState<HomeEventDto[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [isLoadingMore, setIsLoadingMore] = useState(false);
  useEffect(() => {
    if (!isEnabled) return;
    const controller = new AbortController();
    fetchHomeActivity({}, controller.signal).then(
      (page) => {
        setItems(page.items);
        setCursor(page.next_cursor);
      },
      (error: unknown) => {
        if ((error as Error)?.name === 'AbortError') return;
        setItems([]);
        notifyError(error);
      },
    );
    return () => controller.abort();
  }, [isEnabled]);
  const loadMore = useCallback(async () => {
    if (!cursor) return;
    setIsLoadingMore(true);
    try {
      const page = await fetchHomeActivity({ cursor });
      setItems((current) => [...(current ?? []), ...page.items.filter((e) => !current?.some((c) => c.event_id === e.event_id))]);
      setCursor(page.next_cursor);
    } catch (error) {
      notifyError(error);
    } finally {
      setIsLoadingMore(false);
    }
  }, [cursor]);
  return { items, hasMore: cursor !== null, isLoadingMore, loadMore };
}

/**
 * The default page (§2 home): a greeting, the counters of what the caller may see (§6), the
 * activity feed, quick actions and the account's security.
 */
export function HomePage({ user }: { user: UserDto }) {
  const { t, i18n } = useLingui();
  const displayName = user.name ? maskName(user.name) : maskPhone(user.phonenumber);
  const [summary, setSummary] = useState<HomeSummaryDto | null>(null);
  const [hasNoCompany, setHasNoCompany] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetchHomeSummary(controller.signal).then(setSummary, (error: unknown) => {
      if ((error as Error)?.name === 'AbortError') return;
      // Not a confirmed member of a company (allowed in when the deployment needs no company).
      if (isApiError(error) && error.status === 403) setHasNoCompany(true);
      else notifyError(error);
    });
    return () => controller.abort();
  }, []);
  const activity = useActivity(!hasNoCompany);
  const company = summary?.enterprise_name ?? '';
  return (
    <Stack gap="lg" data-testid="home-page">
      <Paper radius="md" p={{ base: 'md', sm: 'xl' }} withBorder className={classes.hero}>
        <Title order={1} size="h2">
          <Trans>Hello, {displayName}</Trans>
        </Title>
        {summary ? (
          <Group gap="xs" mt={6} wrap="wrap">
            <Badge variant="light" tt="none" data-testid="home-role">
              {i18n._(ROLE_NAMES[summary.role] ?? ROLE_NAMES[0]!)}
            </Badge>
            <Text c="dimmed" size="sm" data-testid="home-scope">
              {summary.scope === 'enterprise' ? t`Counters and activity cover all of ${company}.` : t`Counters and activity cover your own work at ${company}.`}
            </Text>
          </Group>
        ) : hasNoCompany ? (
          <Text c="dimmed" mt={6}>
            <Trans>
              You are not a member of a company yet.{' '}
              <Anchor component={Link} href="/invited-company">
                Join or create a company
              </Anchor>{' '}
              to register files and see your company’s activity here.
            </Trans>
          </Text>
        ) : (
          <Skeleton height={14} width="50%" mt={10} />
        )}
      </Paper>
      {hasNoCompany ? (
        <AccountPanel user={user} />
      ) : (
        <>
          <Counters summary={summary} />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <ActivityFeed
                items={activity.items}
                scope={summary?.scope ?? 'own'}
                isVaultOpen={summary?.is_vault_open ?? false}
                hasMore={activity.hasMore}
                isLoadingMore={activity.isLoadingMore}
                onLoadMore={() => void activity.loadMore()}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              {/* Beside the feed on wide screens; below it, the two panels share a row. */}
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 1 }} spacing="lg">
                <QuickActions />
                <AccountPanel user={user} />
              </SimpleGrid>
            </Grid.Col>
          </Grid>
        </>
      )}
    </Stack>
  );
}
