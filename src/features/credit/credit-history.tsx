import { useMemo, useState } from 'react';
import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconHistory } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { EmptyState, ListPager, TableCard } from '@/components/paged-list.tsx';
import { CREDIT_KINDS, type CreditKind, type CreditMemberDto, type CreditMovementDto, type CreditSummaryDto } from '../../../core/credits.ts';
import { fetchCreditMembers, fetchMovements, type MovementQuery } from './credit-api.ts';
import { KIND_LABELS } from './credit-labels.ts';
import { SignedAmount, formatTime, movementDetail } from './credit-format.tsx';

/** Until the members are loaded (and for those who see only their own account). */
const NO_MEMBERS: CreditMemberDto[] = [];

const KIND_COLORS: Record<CreditKind, string> = { top_up: 'blue', allocate: 'teal', reclaim: 'grape', asset_registration: 'orange', vault_file_registration: 'orange', commit_registration: 'orange', application_file_registration: 'orange' };

/** 'YYYY-MM-DD' of a date input → local midnight in ms (and the next midnight for an end date). */
function dayStart(value: string, plusDays = 0): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).getTime();
}

function KindBadge({ kind }: { kind: CreditKind }) {
  const { i18n } = useLingui();
  return (
    <Badge color={KIND_COLORS[kind] ?? 'gray'} variant="light" tt="none" data-testid="movement-kind" data-kind={kind} style={{ flexShrink: 0 }}>
      {i18n._(KIND_LABELS[kind])}
    </Badge>
  );
}

/**
 * The usage history: every movement of the caller's account (§6 a member sees only their
 * own), or of the whole company for the officer and administrators, newest first, filtered
 * by kind, date range and, for those who see the company, member or pool.
 */
export function CreditHistory({ summary, version }: { summary: CreditSummaryDto; version: number }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const seesCompany = summary.enterprise !== null;
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [account, setAccount] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const isRangeWrong = Boolean(from && to && from > to);

  const members = useLoaded(seesCompany ? (signal) => fetchCreditMembers({ page: 1, page_size: 100 }, signal) : null, [seesCompany, version]).data?.items ?? NO_MEMBERS;
  const { data } = useLoaded(
    isRangeWrong
      ? null
      : (signal) => {
          const query: MovementQuery = { page, page_size: config.tablePageSize, kind: kind ? [kind as CreditKind] : undefined, from: dayStart(from), to: dayStart(to, 1) };
          if (account === 'pool') query.account = 'pool';
          else if (account) query.user_id = Number(account);
          return fetchMovements(query, signal);
        },
    [page, kind, from, to, account, isRangeWrong, config.tablePageSize, version],
  );

  const kindOptions = useMemo(() => CREDIT_KINDS.map((k) => ({ value: k, label: i18n._(KIND_LABELS[k]) })), [i18n]);
  const accountOptions = useMemo(
    () => [{ value: 'pool', label: t`Company pool` }, ...members.map((m) => ({ value: String(m.user_id), label: `${m.name} · ${m.phone.slice(-4)}` }))],
    [members, t],
  );
  const onFilter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  const hasFilter = Boolean(kind || from || to || account);
  const items = data?.items ?? [];
  const accountName = (m: CreditMovementDto) => (m.account === 'pool' ? t`Company pool` : m.user_name);

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: seesCompany ? 4 : 3 }} spacing="sm">
          <Select label={t`Kind`} placeholder={t`All kinds`} data={kindOptions} value={kind} onChange={onFilter(setKind)} clearable data-testid="filter-kind" comboboxProps={{ withinPortal: true }} />
          <TextInput label={t`From`} type="date" value={from} onChange={(e) => onFilter(setFrom)(e.currentTarget.value)} data-testid="filter-from" />
          <TextInput label={t`To`} type="date" value={to} onChange={(e) => onFilter(setTo)(e.currentTarget.value)} error={isRangeWrong ? t`The end date is before the start date` : undefined} data-testid="filter-to" />
          {seesCompany && (
            <Select label={t`Member`} placeholder={t`Everyone`} data={accountOptions} value={account} onChange={onFilter(setAccount)} clearable searchable nothingFoundMessage={t`No such member`} data-testid="filter-member" />
          )}
        </SimpleGrid>
        {hasFilter && (
          <Group justify="flex-end" mt="xs">
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => {
                setKind(null);
                setFrom('');
                setTo('');
                setAccount(null);
                setPage(1);
              }}
            >
              <Trans>Clear filters</Trans>
            </Button>
          </Group>
        )}
      </Card>

      {data && items.length === 0 && (
        <EmptyState icon={<IconHistory size={36} stroke={1.4} />}>
          <Text c="dimmed" data-testid="history-empty">
            {hasFilter ? <Trans>No movements match these filters.</Trans> : <Trans>No credits have moved yet.</Trans>}
          </Text>
        </EmptyState>
      )}

      {items.length > 0 && isMobile && (
        <Stack gap="sm" data-testid="credit-history">
          {items.map((m) => (
            <Card key={m.movement_id} withBorder radius="md" padding="md" data-testid="movement">
              <Stack gap={4}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <KindBadge kind={m.kind} />
                  <SignedAmount value={m.delta} size="md" />
                </Group>
                {seesCompany && (
                  <Text size="sm" fw={500} truncate>
                    {accountName(m)}
                  </Text>
                )}
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {movementDetail(i18n, m)}
                </Text>
                <Group justify="space-between" gap="xs">
                  <Text size="xs" c="dimmed">
                    {formatTime(i18n, m.created_at)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t`Balance ${i18n.number(m.balance_after)}`}
                  </Text>
                </Group>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}

      {items.length > 0 && !isMobile && (
        <TableCard minWidth={seesCompany ? 820 : 680} testId="credit-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Time`}</Table.Th>
              <Table.Th>{t`Kind`}</Table.Th>
              {seesCompany && <Table.Th>{t`Account`}</Table.Th>}
              <Table.Th>{t`Details`}</Table.Th>
              <Table.Th ta="right">{t`Change`}</Table.Th>
              <Table.Th ta="right">{t`Balance after`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((m) => (
              <Table.Tr key={m.movement_id} data-testid="movement">
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(i18n, m.created_at)}</Table.Td>
                <Table.Td>
                  <KindBadge kind={m.kind} />
                </Table.Td>
                {seesCompany && <Table.Td>{accountName(m)}</Table.Td>}
                <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 360 }}>
                  <Text size="sm">{movementDetail(i18n, m)}</Text>
                  {m.actor_name && m.kind !== 'asset_registration' && m.kind !== 'vault_file_registration' && m.kind !== 'commit_registration' && (
                    <Text size="xs" c="dimmed">
                      {t`By ${m.actor_name}`}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <SignedAmount value={m.delta} />
                </Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {i18n.number(m.balance_after)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </TableCard>
      )}

      <ListPager data={data} page={page} onChange={setPage} />
    </Stack>
  );
}
