import { useEffect, useMemo, useState } from 'react';
import { Anchor, Badge, Button, Card, Collapse, Group, MultiSelect, Pagination, Select, SimpleGrid, Stack, Table, Text, TextInput, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconArrowDown, IconArrowUp, IconArrowsSort, IconCertificate, IconFilterOff, IconPlus, IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation, useSearch } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { notifyError } from '@/api/error-messages.ts';
import { formatBytes } from '@/components/progress/format.ts';
import { ASSET_TYPE_VALUES, type AssetDto, type AssetPage, type AssetRegistrantDto, type AssetSort } from '../../../core/assets.ts';
import { fetchAssets, fetchRegistrants } from './asset-api.ts';
import { DEFAULT_LIST_STATE, defaultOrder, hasFilters, listQuery, listStateToSearch, parseListState, type AssetListState } from './asset-list-state.ts';
import { formatTime, ProofBadge, typeLabel } from './asset-parts.tsx';
import { ASSET_UPLOAD_PATH, assetDetailPath } from './asset-labels.ts';

/** While an asset on the page is generating its proof, the page is refreshed this often (§3 generating → generated). */
const PROOF_POLL_MS = 2000;

function SortHeader({ label, sort, state, onSort }: { label: string; sort: AssetSort; state: AssetListState; onSort: (sort: AssetSort) => void }) {
  const isActive = state.sort === sort;
  const Icon = !isActive ? IconArrowsSort : state.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={() => onSort(sort)} data-testid={`sort-${sort}`} aria-sort={isActive ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <Group gap={4} wrap="nowrap">
        <Text fw={700} size="sm">
          {label}
        </Text>
        <Icon size={14} stroke={1.6} opacity={isActive ? 1 : 0.45} />
      </Group>
    </UnstyledButton>
  );
}

function AssetCard({ asset }: { asset: AssetDto }) {
  const { i18n } = useLingui();
  return (
    <Card withBorder radius="md" padding="md" component={Link} href={assetDetailPath(asset.dip_id)} data-testid={`asset-${asset.name}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {asset.name}
          </Text>
          <ProofBadge isGenerated={asset.is_generated} />
        </Group>
        <Text size="sm" c="dimmed">
          {typeLabel(asset.type, i18n)} · {formatBytes(asset.size)}
        </Text>
        <Text size="xs" c="dimmed">
          {asset.registrant_name} · {formatTime(asset.registered_at, i18n)}
        </Text>
      </Stack>
    </Card>
  );
}

/** /dashboard/asset: the assets the member may see (§6), filtered, sorted and paged, with the way to register more. */
export function AssetListPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const [location, navigate] = useLocation();
  const search = useSearch();
  const state = useMemo(() => parseListState(search), [search]);
  const [keyword, setKeyword] = useState(state.keyword);
  const [debouncedKeyword] = useDebouncedValue(keyword.trim(), 300);
  const [data, setData] = useState<AssetPage | null>(null);
  const [registrants, setRegistrants] = useState<AssetRegistrantDto[]>([]);
  const [poll, setPoll] = useState(0);
  const [isFilterOpen, setIsFilterOpen] = useState(false);

  const update = (patch: Partial<AssetListState>) => {
    const next = { ...state, page: 1, ...patch };
    const query = listStateToSearch(next);
    navigate(query ? `${location}?${query}` : location, { replace: true });
  };

  useEffect(() => {
    if (debouncedKeyword !== state.keyword.trim()) update({ keyword: debouncedKeyword });
    // Only the typed keyword drives this; the rest of the state is read fresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedKeyword]);

  useEffect(() => {
    const controller = new AbortController();
    fetchAssets(listQuery(state, config.tablePageSize), controller.signal)
      .then(setData)
      .catch((error: unknown) => {
        if ((error as Error)?.name !== 'AbortError') notifyError(error, i18n);
      });
    return () => controller.abort();
  }, [state, config.tablePageSize, poll, i18n]);

  const seesAll = data?.sees_all ?? false;
  useEffect(() => {
    if (!seesAll) return;
    const controller = new AbortController();
    fetchRegistrants(controller.signal)
      .then(setRegistrants)
      .catch(() => undefined);
    return () => controller.abort();
  }, [seesAll]);

  const isGenerating = Boolean(data?.items.some((a) => !a.is_generated));
  useEffect(() => {
    if (!isGenerating) return;
    const timer = window.setInterval(() => setPoll((n) => n + 1), PROOF_POLL_MS);
    return () => window.clearInterval(timer);
  }, [isGenerating]);

  const onSort = (sort: AssetSort) => update({ sort, order: state.sort === sort ? (state.order === 'asc' ? 'desc' : 'asc') : defaultOrder(sort) });
  const typeOptions = ASSET_TYPE_VALUES.map((v) => ({ value: String(v), label: typeLabel(v, i18n) }));
  const sortOptions = [
    { value: 'time:desc', label: t`Newest first` },
    { value: 'time:asc', label: t`Oldest first` },
    { value: 'name:asc', label: t`Name A–Z` },
    { value: 'name:desc', label: t`Name Z–A` },
    { value: 'size:desc', label: t`Largest first` },
    { value: 'size:asc', label: t`Smallest first` },
  ];
  const isFiltered = hasFilters(state);
  const filterCount = [state.types.length > 0, state.status, state.from, state.to, state.registrant].filter(Boolean).length;
  const items = data?.items ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const registerButton = (
    <Button component={Link} href={ASSET_UPLOAD_PATH} leftSection={<IconPlus size={16} />} data-testid="register-assets">
      <Trans>Register assets</Trans>
    </Button>
  );

  const searchField = (
    <TextInput
      label={t`Search`}
      leftSection={<IconSearch size={16} />}
      placeholder={t`Name, DNA or fingerprint`}
      value={keyword}
      onChange={(event) => setKeyword(event.currentTarget.value)}
      data-testid="filter-keyword"
    />
  );
  const filterFields = (
    <>
      <MultiSelect
        label={t`Type`}
        placeholder={state.types.length ? undefined : t`All types`}
        data={typeOptions}
        value={state.types.map(String)}
        onChange={(values) => update({ types: values.map(Number) })}
        clearable
        data-testid="filter-type"
      />
      <Select
        label={t`Proof status`}
        data={[
          { value: 'all', label: t`All` },
          { value: 'generating', label: t`Generating` },
          { value: 'generated', label: t`Generated` },
        ]}
        value={state.status ?? 'all'}
        onChange={(value) => update({ status: value === 'generating' || value === 'generated' ? value : null })}
        allowDeselect={false}
        data-testid="filter-status"
      />
      <Select
        label={t`Sort by`}
        data={sortOptions}
        value={`${state.sort}:${state.order}`}
        onChange={(value) => {
          const [sort, order] = (value ?? 'time:desc').split(':') as [AssetSort, 'asc' | 'desc'];
          update({ sort, order });
        }}
        allowDeselect={false}
        data-testid="filter-sort"
      />
      <TextInput type="date" label={t`Registered from`} value={state.from} max={state.to || undefined} onChange={(event) => update({ from: event.currentTarget.value })} data-testid="filter-from" />
      <TextInput type="date" label={t`Registered until`} value={state.to} min={state.from || undefined} onChange={(event) => update({ to: event.currentTarget.value })} data-testid="filter-to" />
      {seesAll && (
        <Select
          label={t`Registrant`}
          placeholder={t`Everyone`}
          data={registrants.map((r) => ({ value: String(r.user_id), label: `${r.name} (${r.asset_count})` }))}
          value={state.registrant ? String(state.registrant) : null}
          onChange={(value) => update({ registrant: value ? Number(value) : null })}
          clearable
          searchable
          nothingFoundMessage={t`Nobody found`}
          data-testid="filter-registrant"
        />
      )}
      {isFiltered && (
        <Group align="flex-end">
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            onClick={() => {
              setKeyword('');
              update({ ...DEFAULT_LIST_STATE, sort: state.sort, order: state.order });
            }}
            data-testid="clear-filters"
          >
            <Trans>Clear filters</Trans>
          </Button>
        </Group>
      )}
    </>
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-end">
        <div style={{ minWidth: 0, flex: '1 1 320px' }}>
          <Title order={1} size="h2">
            <Trans>Digital assets</Trans>
          </Title>
          <Text size="sm" c="dimmed" maw={760}>
            <Trans>Files registered on the ledger: each has its DNA and a proof certificate anyone can verify with the original file.</Trans>
          </Text>
        </div>
        {registerButton}
      </Group>

      <Card withBorder radius="md" padding="md" data-testid="asset-filters">
        {isMobile ? (
          <Stack gap="sm">
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <div style={{ flex: 1, minWidth: 0 }}>{searchField}</div>
              <Button
                variant={filterCount > 0 ? 'light' : 'default'}
                leftSection={<IconAdjustmentsHorizontal size={16} />}
                rightSection={filterCount > 0 ? <Badge size="xs" circle>{filterCount}</Badge> : undefined}
                onClick={() => setIsFilterOpen((o) => !o)}
                aria-expanded={isFilterOpen}
                data-testid="toggle-filters"
              >
                <Trans>Filters</Trans>
              </Button>
            </Group>
            <Collapse expanded={isFilterOpen}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
                {filterFields}
              </SimpleGrid>
            </Collapse>
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="sm">
            {searchField}
            {filterFields}
          </SimpleGrid>
        )}
      </Card>

      {data && (
        <Text size="sm" c="dimmed" data-testid="asset-total" data-total={data.total}>
          {t`Total: ${data.total}`}
        </Text>
      )}

      {data && items.length === 0 && (
        <Card withBorder radius="md" padding="xl" data-testid="asset-empty">
          <Stack align="center" gap="xs">
            <ThemeIcon variant="light" size={48} radius="xl">
              <IconCertificate size={26} />
            </ThemeIcon>
            {isFiltered ? (
              <Text fw={600}>
                <Trans>No asset matches these filters</Trans>
              </Text>
            ) : (
              <>
                <Text fw={600}>
                  <Trans>No assets yet</Trans>
                </Text>
                <Text size="sm" c="dimmed" ta="center" maw={480}>
                  <Trans>Register a file to get its DNA and a proof certificate. Only its fingerprint leaves your browser.</Trans>
                </Text>
                {registerButton}
              </>
            )}
          </Stack>
        </Card>
      )}

      {items.length > 0 && isMobile && (
        <Stack gap="sm" data-testid="asset-list">
          {items.map((asset) => (
            <AssetCard key={asset.dip_id} asset={asset} />
          ))}
        </Stack>
      )}

      {items.length > 0 && !isMobile && (
        <Card withBorder radius="md" padding={0}>
          <Table.ScrollContainer minWidth={820}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="asset-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <SortHeader label={t`Asset name`} sort="name" state={state} onSort={onSort} />
                  </Table.Th>
                  <Table.Th>{t`Type`}</Table.Th>
                  <Table.Th>
                    <SortHeader label={t`File size`} sort="size" state={state} onSort={onSort} />
                  </Table.Th>
                  <Table.Th>{t`Registrant`}</Table.Th>
                  <Table.Th>
                    <SortHeader label={t`Registration time`} sort="time" state={state} onSort={onSort} />
                  </Table.Th>
                  <Table.Th>{t`Proof`}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((asset) => (
                  <Table.Tr key={asset.dip_id} data-testid={`asset-${asset.name}`}>
                    <Table.Td maw={320}>
                      <Anchor component={Link} href={assetDetailPath(asset.dip_id)} fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {asset.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {asset.dip_id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{typeLabel(asset.type, i18n)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(asset.size)}</Table.Td>
                    <Table.Td>{asset.registrant_name}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(asset.registered_at, i18n)}</Table.Td>
                    <Table.Td>
                      <ProofBadge isGenerated={asset.is_generated} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}

      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={state.page} onChange={(page) => update({ page })} size="sm" data-testid="asset-pages" />
        </Group>
      )}
    </Stack>
  );
}
