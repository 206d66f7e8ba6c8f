import { useEffect, useState, type ReactNode } from 'react';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBan,
  IconCertificate,
  IconClockX,
  IconDownload,
  IconEdit,
  IconEye,
  IconFilePlus,
  IconFileExport,
  IconFolderPlus,
  IconLink,
  IconLock,
  IconLockOpen,
  IconMailForward,
  IconShieldCheck,
  IconSnowflake,
  IconUserCheck,
  IconUserPlus,
  IconUserQuestion,
  IconUserShield,
  IconUserX,
  IconBuildingPlus,
  IconCoins,
  IconCoinOff,
  IconFileCertificate,
  IconPigMoney,
  type IconProps,
} from '@tabler/icons-react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { ComponentType } from 'react';
import type { AssetEventDto, CreditEventDto, DisclosureFeedEventDto, HomeEventDto, HomeScope, LedgerEventDto, MemberEventDto, VaultEventDto } from '../../../core/home.ts';
import { relativeTime } from './relative-time.ts';

/** §3 role numbers, as the feed names a role given. */
export const ROLE_NAMES: Record<number, MessageDescriptor> = {
  0: msg`Member`,
  1: msg`Super administrator`,
  2: msg`Administrator`,
  3: msg`Confidentiality officer`,
  4: msg`Enterprise member`,
};

type Look = { icon: ComponentType<IconProps>; color: string };

function lookOf(e: HomeEventDto): Look {
  switch (e.source) {
    case 'vault':
      return { icon: e.kind === 'project_created' ? IconFolderPlus : e.kind === 'project_updated' ? IconEdit : e.kind === 'file_registered' ? IconFilePlus : e.kind === 'proof_downloaded' ? IconDownload : IconLock, color: 'indigo' };
    case 'member':
      return {
        created: { icon: IconBuildingPlus, color: 'teal' },
        applied: { icon: IconUserQuestion, color: 'yellow' },
        approved: { icon: IconUserCheck, color: 'teal' },
        rejected: { icon: IconUserX, color: 'gray' },
        joined: { icon: IconUserCheck, color: 'teal' },
        added: { icon: IconUserPlus, color: 'teal' },
        invited: { icon: IconMailForward, color: 'cyan' },
        frozen: { icon: IconSnowflake, color: 'gray' },
        unfrozen: { icon: IconLockOpen, color: 'teal' },
        role_changed: { icon: IconUserShield, color: 'grape' },
      }[e.kind];
    case 'disclosure':
      return {
        sent: { icon: IconFileExport, color: 'orange' },
        identity_verified: { icon: IconShieldCheck, color: 'orange' },
        agreement_accepted: { icon: IconEye, color: 'orange' },
        downloaded: { icon: IconDownload, color: 'green' },
        expired: { icon: IconClockX, color: 'gray' },
        revoked: { icon: IconBan, color: 'red' },
      }[e.kind];
    case 'ledger':
      return { icon: IconCertificate, color: 'blue' };
    case 'asset':
      return { icon: IconFileCertificate, color: 'blue' };
    case 'credit':
      return { icon: e.kind === 'top_up' ? IconPigMoney : e.kind === 'allocate' ? IconCoins : IconCoinOff, color: 'yellow' };
  }
}

/** Where an event leads (the thing it is about). */
export function eventHref(e: HomeEventDto, scope: HomeScope): string {
  switch (e.source) {
    case 'vault':
      return e.project_id === null ? '/dashboard/vault' : `/dashboard/vault/project/${e.project_id}${e.dip_id ? `?dip_id=${encodeURIComponent(e.dip_id)}` : ''}`;
    case 'member':
      if (scope !== 'enterprise') return '/dashboard/company';
      return e.kind === 'applied' ? '/dashboard/company/applications' : e.kind === 'invited' ? '/dashboard/company/invitations' : '/dashboard/company/members';
    case 'disclosure':
      return `/dashboard/disclosures/detail/${encodeURIComponent(e.disclosure_id)}`;
    case 'ledger':
      return `/explorer/entries/${encodeURIComponent(e.dip_id)}`;
    case 'asset':
      return `/dashboard/asset/detail/${encodeURIComponent(e.dip_id)}`;
    case 'credit':
      return '/dashboard/credit/history';
  }
}

function VaultSentence({ e, actor, href }: { e: VaultEventDto; actor: string; href: string }) {
  const { t } = useLingui();
  const file = e.file_name;
  if (e.project_name === null) {
    // The vault is locked in this session: what happened, not what it is called.
    const someProject = (
      <Anchor component={Link} href={href} fw={500}>
        {t`a vault project`}
      </Anchor>
    );
    switch (e.kind) {
      case 'project_created':
        return <Trans>{actor} created {someProject}</Trans>;
      case 'project_updated':
        return <Trans>{actor} edited {someProject}</Trans>;
      case 'file_registered':
        return <Trans>{actor} registered a file in {someProject}</Trans>;
      default:
        return <Trans>{actor} downloaded a proof certificate in {someProject}</Trans>;
    }
  }
  const project = (
    <Anchor component={Link} href={href} fw={500}>
      {e.project_name}
    </Anchor>
  );
  switch (e.kind) {
    case 'project_created':
      return <Trans>{actor} created the vault project {project}</Trans>;
    case 'project_updated':
      return <Trans>{actor} edited the vault project {project}</Trans>;
    case 'file_registered':
      return (
        <Trans>
          {actor} registered <strong>{file}</strong> in the vault project {project}
        </Trans>
      );
    default:
      return (
        <Trans>
          {actor} downloaded the proof certificate of <strong>{file}</strong> in {project}
        </Trans>
      );
  }
}

function MemberSentence({ e, actor, href }: { e: MemberEventDto; actor: string; href: string }) {
  const { i18n } = useLingui();
  const member = (
    <Anchor component={Link} href={href} fw={500}>
      {e.member_name}
    </Anchor>
  );
  const role = e.role === null ? '' : i18n._(ROLE_NAMES[e.role] ?? ROLE_NAMES[0]!);
  const hasActor = e.actor_user_id !== null && e.actor_user_id !== e.member_user_id;
  switch (e.kind) {
    case 'created':
      return <Trans>{member} created the company</Trans>;
    case 'applied':
      return <Trans>{member} applied to join the company</Trans>;
    case 'approved':
      return hasActor ? <Trans>{actor} approved {member}’s application to join</Trans> : <Trans>{member}’s application to join was approved</Trans>;
    case 'rejected':
      return hasActor ? <Trans>{actor} declined {member}’s application to join</Trans> : <Trans>{member}’s application to join was declined</Trans>;
    case 'joined':
      return hasActor ? <Trans>{member} joined the company at {actor}’s invitation</Trans> : <Trans>{member} joined the company</Trans>;
    case 'added':
      return <Trans>{actor} added {member} as {role}</Trans>;
    case 'invited':
      return <Trans>{actor} invited {member} to join as {role}</Trans>;
    case 'frozen':
      return <Trans>{actor} froze {member}’s account</Trans>;
    case 'unfrozen':
      return <Trans>{actor} unfroze {member}’s account</Trans>;
    case 'role_changed':
      return <Trans>{actor} made {member} {role}</Trans>;
  }
}

function DisclosureSentence({ e, actor, href }: { e: DisclosureFeedEventDto; actor: string; href: string }) {
  const file = (
    <Anchor component={Link} href={href} fw={500}>
      {e.file_name}
    </Anchor>
  );
  const phone = e.receiver_phone;
  switch (e.kind) {
    case 'sent':
      return <Trans>{actor} disclosed {file} to {phone}</Trans>;
    case 'identity_verified':
      return <Trans>The receiver {phone} verified their phone for {file}</Trans>;
    case 'agreement_accepted':
      return <Trans>The receiver {phone} accepted the confidentiality agreement for {file}</Trans>;
    case 'downloaded':
      return <Trans>The receiver {phone} downloaded {file}</Trans>;
    case 'expired':
      return <Trans>The disclosure of {file} to {phone} expired</Trans>;
    case 'revoked':
      return <Trans>The disclosure of {file} to {phone} was revoked</Trans>;
  }
}

function LedgerSentence({ e, actor, href }: { e: LedgerEventDto; actor: string; href: string }) {
  const dna = (
    <Anchor component={Link} href={href} ff="monospace" fw={500}>
      {e.dip_id}
    </Anchor>
  );
  return <Trans>{actor} registered a file on the ledger, DNA {dna}</Trans>;
}

function AssetSentence({ e, actor, href }: { e: AssetEventDto; actor: string; href: string }) {
  const asset = (
    <Anchor component={Link} href={href} fw={500}>
      {e.asset_name}
    </Anchor>
  );
  return <Trans>{actor} registered the digital asset {asset}</Trans>;
}

function CreditSentence({ e, actor, href }: { e: CreditEventDto; actor: string; href: string }) {
  const { i18n } = useLingui();
  const amount = (
    <Anchor component={Link} href={href} fw={500}>
      {i18n.number(e.amount)}
    </Anchor>
  );
  const member = e.member_name;
  const order = e.reference ?? '';
  switch (e.kind) {
    case 'top_up':
      return <Trans>The company pool was topped up with {amount} credits (order {order})</Trans>;
    case 'allocate':
      return <Trans>{actor} gave {member} {amount} credits</Trans>;
    case 'reclaim':
      return <Trans>{actor} took {amount} credits back from {member}</Trans>;
  }
}

function EventRow({ e, scope, now }: { e: HomeEventDto; scope: HomeScope; now: number }) {
  const { t, i18n } = useLingui();
  const look = lookOf(e);
  const Icon = look.icon;
  const href = eventHref(e, scope);
  const actor = e.is_mine ? t`You` : e.actor_name || t`Someone`;
  let sentence: ReactNode;
  if (e.source === 'vault') sentence = <VaultSentence e={e} actor={actor} href={href} />;
  else if (e.source === 'member') sentence = <MemberSentence e={e} actor={actor} href={href} />;
  else if (e.source === 'disclosure') sentence = <DisclosureSentence e={e} actor={actor} href={href} />;
  else if (e.source === 'asset') sentence = <AssetSentence e={e} actor={actor} href={href} />;
  else if (e.source === 'credit') sentence = <CreditSentence e={e} actor={actor} href={href} />;
  else sentence = <LedgerSentence e={e} actor={actor} href={href} />;
  const charged = (e.source === 'vault' || e.source === 'asset') && e.credits ? i18n.number(e.credits) : null;
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" py={10} data-testid="activity-item" data-source={e.source} data-kind={e.kind}>
      <ThemeIcon variant="light" color={look.color} radius="xl" size={34} style={{ flexShrink: 0 }}>
        <Icon size={18} stroke={1.6} />
      </ThemeIcon>
      <div style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {sentence}
        </Text>
        <Text size="xs" c="dimmed" mt={2} title={i18n.date(new Date(e.at), { dateStyle: 'long', timeStyle: 'medium' })}>
          <time dateTime={new Date(e.at).toISOString()}>{relativeTime(e.at, now, i18n.locale)}</time>
          {charged && <span data-testid="activity-charged"> · {t`${charged} credits charged`}</span>}
        </Text>
      </div>
    </Group>
  );
}

/** Re-renders every half minute so that "2 minutes ago" stays true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

type Props = {
  items: HomeEventDto[] | null;
  scope: HomeScope;
  isVaultOpen: boolean;
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
};

/** The activity feed: who did what, when (relative, the exact time on hover), with a link to the thing. */
export function ActivityFeed({ items, scope, isVaultOpen, hasMore, isLoadingMore, onLoadMore }: Props) {
  const now = useNow();
  const hasLockedVaultEvents = !isVaultOpen && Boolean(items?.some((e) => e.source === 'vault'));
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="activity-feed">
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          <Trans>Activity</Trans>
        </Title>
        <Text size="xs" c="dimmed">
          {scope === 'enterprise' ? <Trans>Everyone in your company</Trans> : <Trans>Your own activity</Trans>}
        </Text>
      </Group>
      {hasLockedVaultEvents && (
        <Group gap={6} wrap="nowrap" mb="xs" data-testid="vault-names-hidden">
          <IconLock size={14} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
          <Text size="xs" c="dimmed">
            <Trans>
              Names in the vault stay hidden until you{' '}
              <Anchor component={Link} href="/dashboard/vault/unlock" size="xs">
                unlock the vault
              </Anchor>
              .
            </Trans>
          </Text>
        </Group>
      )}
      {items === null ? (
        <Stack gap="md" py="xs">
          {[0, 1, 2].map((i) => (
            <Group key={i} gap="sm" wrap="nowrap">
              <Skeleton circle height={34} />
              <div style={{ flex: 1 }}>
                <Skeleton height={12} width="80%" mb={6} />
                <Skeleton height={10} width="30%" />
              </div>
            </Group>
          ))}
        </Stack>
      ) : items.length === 0 ? (
        <Stack gap={4} py="lg" align="center" ta="center" data-testid="activity-empty">
          <IconLink size={28} color="var(--mantine-color-gray-5)" />
          <Text size="sm" c="dimmed" maw={420}>
            <Trans>Nothing here yet. Register a digital asset, put a file in the vault or disclose one, and it shows up here.</Trans>
          </Text>
        </Stack>
      ) : (
        <Stack gap={0} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          {items.map((e) => (
            <div key={e.event_id} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
              <EventRow e={e} scope={scope} now={now} />
            </div>
          ))}
        </Stack>
      )}
      {hasMore && (
        <Group justify="center" mt="md">
          <Button variant="default" size="xs" loading={isLoadingMore} onClick={onLoadMore} data-testid="activity-more">
            <Trans>Show earlier activity</Trans>
          </Button>
        </Group>
      )}
    </Paper>
  );
}
