import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Badge, Group, Loader, Pagination, Paper, SegmentedControl, SimpleGrid, Slider, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { describeError } from '@/api/error-messages.ts';
import type { Bridge, CommunitySnapshot, EnterprisePayload, GraphSnapshot, ScorePoint, StructuralHole, TimelineEntry } from '../../../core/score-api.ts';
import { downsample, lastWindow, SCORE_RANGES, type ScoreRange } from '../../../core/asset-map.ts';
import { QUALITY_MEAN, QUALITY_SPREAD, qualityCurve, qualityProbability } from '../../../core/score/quality.ts';
import { fetchBridges, fetchCommunities, fetchEnterprise, fetchGraphs, fetchScores, fetchStructuralHoles, fetchTimeline } from './map-api.ts';
import { ScoreChart, type ChartSeries } from '@/components/score-chart.tsx';
import { communityColor, ScoreGraphView } from './score-graph-view.tsx';

/** After a week's layout settles, playback waits this long before the next week. */
const DWELL_MS = 900;
const TABLE_PAGE = 8;

type Base = { enterprise: EnterprisePayload; timeline: TimelineEntry[]; scores: ScorePoint[] };

function Section({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function useWeekFormat() {
  const { i18n } = useLingui();
  return useCallback((ms: number) => new Date(ms).toLocaleDateString(i18n.locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }), [i18n.locale]);
}

/** §2 assets/:uuid — an enterprise's network score over time. */
export function ScorePage({ uuid }: { uuid: string }) {
  const { t, i18n } = useLingui();
  const week = useWeekFormat();
  const [base, setBase] = useState<Base | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [range, setRange] = useState<ScoreRange>('halfYear');
  const [snapshots, setSnapshots] = useState<{ graphs: GraphSnapshot[]; communities: CommunitySnapshot[] } | null>(null);
  const [step, setStep] = useState(0);
  const [isPlaying, setIsPlaying] = useState(true);
  const [isRotating, setIsRotating] = useState(false);
  const [settledAt, setSettledAt] = useState<number | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setBase(null);
    setError(null);
    Promise.all([fetchEnterprise(uuid, abort.signal), fetchTimeline(uuid, abort.signal), fetchScores(uuid, abort.signal)]).then(
      ([enterprise, timeline, scores]) => setBase({ enterprise, timeline, scores }),
      (e: unknown) => !abort.signal.aborted && setError(e),
    );
    return () => abort.abort();
  }, [uuid]);

  // The range's weeks bound the snapshots (at most 30, spread evenly by the server).
  const windowWeeks = useMemo(() => (base ? lastWindow(base.timeline, SCORE_RANGES[range]) : []), [base, range]);
  useEffect(() => {
    if (!base || windowWeeks.length === 0) {
      setSnapshots(base ? { graphs: [], communities: [] } : null);
      return;
    }
    const abort = new AbortController();
    const span = { start: windowWeeks[0].timestamp, end: windowWeeks[windowWeeks.length - 1].timestamp };
    setSnapshots(null);
    Promise.all([fetchGraphs(uuid, span, abort.signal), fetchCommunities(uuid, span, abort.signal)]).then(
      ([graphs, communities]) => {
        setSnapshots({ graphs, communities });
        setStep(0);
        setSettledAt(null);
      },
      (e: unknown) => !abort.signal.aborted && setError(e),
    );
    return () => abort.abort();
  }, [base, windowWeeks, uuid]);

  const graphs = snapshots?.graphs ?? [];
  const current = graphs[step] ?? null;
  const currentCommunities = useMemo(() => (current && snapshots ? (snapshots.communities.find((c) => c.timestamp === current.timestamp) ?? null) : null), [current, snapshots]);

  // §4: auto-advance once the layout of the shown week has settled.
  const advanceTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!isPlaying || !current || settledAt !== current.timestamp || graphs.length < 2) return;
    advanceTimer.current = setTimeout(() => {
      setStep((s) => (s + 1) % graphs.length);
    }, DWELL_MS);
    return () => {
      if (advanceTimer.current) clearTimeout(advanceTimer.current);
    };
  }, [isPlaying, current, settledAt, graphs.length]);

  const onSettled = useCallback((timestamp: number) => setSettledAt(timestamp), []);

  // Charts: the range's points, at most 50.
  const points = useMemo(() => (base ? downsample(lastWindow(base.scores, SCORE_RANGES[range])) : []), [base, range]);
  const xs = useMemo(() => points.map((p) => p.timestamp / 1000), [points]);
  const chart = useCallback((label: string, pick: (p: ScorePoint) => number, color: string): ChartSeries[] => [{ label, values: points.map(pick), color, fill: `${color}22` }], [points]);
  const series = useMemo(
    () => ({
      capital: chart(t`Digital capital`, (p) => p.capital, '#ff8c1a'),
      amount: chart(t`Assets and repositories`, (p) => p.amount, '#3b82f6'),
      flow: chart(t`Contributions per week`, (p) => p.flow, '#22c55e'),
      density: chart(t`Density`, (p) => p.density, '#a855f7'),
      centralization: chart(t`Centralization`, (p) => p.centralization, '#e11d48'),
    }),
    [chart, t],
  );
  const marker = current ? current.timestamp / 1000 : null;

  const latestCapital = points.length ? points[points.length - 1].capital : 0;
  const markedCapital = current && base ? (base.scores.find((s) => s.timestamp === current.timestamp)?.capital ?? latestCapital) : latestCapital;
  const curve = useMemo(() => {
    const from = Math.min(QUALITY_MEAN - 3 * QUALITY_SPREAD, markedCapital - QUALITY_SPREAD * 0.2);
    const to = Math.max(QUALITY_MEAN + 3 * QUALITY_SPREAD, markedCapital + QUALITY_SPREAD * 0.2);
    return qualityCurve(121, from, to);
  }, [markedCapital]);
  const curveSeries = useMemo<ChartSeries[]>(() => [{ label: t`Probability density`, values: curve.density.map((d) => d * 1000), color: '#0ea5e9', fill: '#0ea5e922' }], [curve, t]);
  const probability = qualityProbability(markedCapital);
  const percent = (v: number) => v.toLocaleString(i18n.locale, { style: 'percent', maximumFractionDigits: 1 });
  const number = (v: number) => v.toLocaleString(i18n.locale, { maximumFractionDigits: 2 });
  const formatDensityY = useCallback((v: number) => v.toLocaleString(i18n.locale, { maximumSignificantDigits: 3 }), [i18n.locale]);

  if (error) {
    return (
      <Stack maw={720} mx="auto" py="xl" px="md">
        <Alert color="red" title={t`The score could not be loaded`}>
          {describeError(error)}
        </Alert>
      </Stack>
    );
  }
  if (!base) {
    return (
      <Stack align="center" py={64}>
        <Loader />
      </Stack>
    );
  }

  const names = new Map<string, string>();
  for (const g of graphs) for (const n of g.nodes) names.set(n.id, n.name);
  const entry = current ? base.timeline.find((w) => w.timestamp === current.timestamp) : undefined;

  return (
    <Stack gap="md" maw={1280} mx="auto" py="lg" px={{ base: 'xs', sm: 'md' }}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={1} size="h2" data-testid="score-name">
              {base.enterprise.name}
            </Title>
            {base.enterprise.activated ? (
              <Badge color="orange">
                <Trans>Lit</Trans>
              </Badge>
            ) : null}
            {base.enterprise.is_demo ? (
              <Badge color="violet" variant="light">
                <Trans>Demo data</Trans>
              </Badge>
            ) : null}
          </Group>
          <Text c="dimmed" size="sm">
            <Trans>Digital asset network score, week by week</Trans>
          </Text>
        </Stack>
        <SegmentedControl
          value={range}
          onChange={(v) => setRange(v as ScoreRange)}
          data={[
            { value: 'halfYear', label: t`6 months` },
            { value: 'twoYears', label: t`2 years` },
            { value: 'all', label: t`All` },
          ]}
          aria-label={t`Range`}
        />
      </Group>

      {base.timeline.length === 0 ? (
        <Alert color="gray">
          <Trans>No weekly history yet for this enterprise.</Trans>
        </Alert>
      ) : null}

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <ScoreGraphView snapshot={current} communities={currentCommunities} isRotating={isRotating} onSettled={onSettled} />
          <Group gap="md" wrap="nowrap" align="center">
            <Tooltip label={isPlaying ? t`Pause` : t`Play`}>
              <ActionIcon size="lg" radius="xl" color="orange" variant="filled" aria-label={isPlaying ? t`Pause` : t`Play`} onClick={() => setIsPlaying((p) => !p)} data-testid="play-toggle" data-playing={isPlaying ? 'true' : 'false'}>
                {isPlaying ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
              </ActionIcon>
            </Tooltip>
            <Slider
              style={{ flex: 1 }}
              min={0}
              max={Math.max(0, graphs.length - 1)}
              step={1}
              value={step}
              disabled={graphs.length < 2}
              label={(v) => (graphs[v] ? week(graphs[v].timestamp) : '')}
              onChange={(v) => {
                // §4: moving the slider by hand pauses the animation and starts rotation.
                setIsPlaying(false);
                setIsRotating(true);
                setStep(v);
              }}
              thumbLabel={t`Week`}
              data-testid="score-slider"
            />
            <Switch checked={isRotating} onChange={(e) => setIsRotating(e.currentTarget.checked)} label={t`Rotate`} data-testid="rotate-toggle" />
          </Group>
          <Group gap="lg" wrap="wrap">
            <Text size="sm" fw={600} data-testid="score-week">
              {current ? week(current.timestamp) : snapshots ? '—' : <Loader size="xs" />}
            </Text>
            {current ? (
              <Text size="sm" c="dimmed">
                <Trans>
                  Week {step + 1} of {graphs.length}
                </Trans>
              </Text>
            ) : null}
            {entry ? (
              <Text size="sm" c="dimmed">
                <Trans>
                  {entry.repos} repositories · {entry.developers} developers · {entry.communities} communities
                </Trans>
              </Text>
            ) : null}
            <Text size="sm" c="dimmed">
              {settledAt === current?.timestamp ? <Trans>layout settled</Trans> : <Trans>arranging…</Trans>}
            </Text>
          </Group>
        </Stack>
      </Paper>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        <Section title={t`Asset trend (capital)`} testId="chart-capital">
          <ScoreChart x={xs} series={series.capital} marker={marker} xLabel={t`Week`} />
        </Section>
        <Section title={t`Stock (amount)`} testId="chart-amount">
          <ScoreChart x={xs} series={series.amount} marker={marker} xLabel={t`Week`} />
        </Section>
        <Section title={t`Flow`} testId="chart-flow">
          <ScoreChart x={xs} series={series.flow} marker={marker} xLabel={t`Week`} />
        </Section>
        <Section title={t`Density`} testId="chart-density">
          <ScoreChart x={xs} series={series.density} marker={marker} formatY={formatDensityY} xLabel={t`Week`} />
        </Section>
        <Section title={t`Centralization`} testId="chart-centralization">
          <ScoreChart x={xs} series={series.centralization} marker={marker} formatY={formatDensityY} xLabel={t`Week`} />
        </Section>
        <Section title={t`Quality probability`} testId="chart-quality">
          <Text size="sm" mb={4}>
            <Trans>
              Capital {number(markedCapital)} → quality probability <b>{percent(probability)}</b>
            </Trans>
          </Text>
          <ScoreChart x={curve.x} series={curveSeries} isTime={false} marker={markedCapital} height={150} xLabel={t`Digital capital`} />
        </Section>
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
        <StructuralHolesTable uuid={uuid} week={week} />
        <CommunitiesTable snapshot={currentCommunities} names={names} />
        <BridgesTable uuid={uuid} week={week} names={names} />
      </SimpleGrid>
    </Stack>
  );
}

function usePaged<T>(load: (page: number) => Promise<{ items: T[]; total: number }>, key: string) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<{ items: T[]; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let isCurrent = true;
    setError(null);
    loadRef.current(page).then(
      (s) => isCurrent && setState(s),
      (e: unknown) => isCurrent && setError(e),
    );
    return () => {
      isCurrent = false;
    };
  }, [page, key]);
  return { page, setPage, state, error };
}

function TableShell({ children, total, page, setPage, error, isEmpty, empty }: { children: ReactNode; total: number; page: number; setPage: (p: number) => void; error: unknown; isEmpty: boolean; empty: ReactNode }) {
  if (error) return <Alert color="red">{describeError(error)}</Alert>;
  return (
    <Stack gap="xs">
      {isEmpty ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>{children}</Table.ScrollContainer>
      )}
      {total > TABLE_PAGE ? <Pagination size="sm" total={Math.ceil(total / TABLE_PAGE)} value={page} onChange={setPage} /> : null}
    </Stack>
  );
}

function StructuralHolesTable({ uuid, week }: { uuid: string; week: (ms: number) => string }) {
  const { t } = useLingui();
  const { page, setPage, state, error } = usePaged<StructuralHole>(async (p) => {
    const r = await fetchStructuralHoles(uuid, p, TABLE_PAGE);
    return { items: r.structual_holes, total: r.total };
  }, uuid);
  return (
    <Section title={t`Structural holes`} testId="table-holes">
      <TableShell total={state?.total ?? 0} page={page} setPage={setPage} error={error} isEmpty={state !== null && state.items.length === 0} empty={t`No structural holes found.`}>
        <Table striped fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Node`}</Table.Th>
              <Table.Th>{t`Constraint`}</Table.Th>
              <Table.Th>{t`Degree`}</Table.Th>
              <Table.Th>{t`Week`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(state?.items ?? []).map((h) => (
              <Table.Tr key={`${h.id}-${h.timestamp}`}>
                <Table.Td>
                  {h.name} <Badge size="xs" variant="light" color={h.category === 'repo' ? 'blue' : 'gray'}>{h.category === 'repo' ? t`repo` : t`developer`}</Badge>
                </Table.Td>
                <Table.Td>{h.constraint.toFixed(3)}</Table.Td>
                <Table.Td>{h.degree}</Table.Td>
                <Table.Td>{week(h.timestamp)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableShell>
    </Section>
  );
}

function CommunitiesTable({ snapshot, names }: { snapshot: CommunitySnapshot | null; names: Map<string, string> }) {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const rows = snapshot ? snapshot.communities.map((members, k) => ({ id: snapshot.community_ids[k] ?? k, members })).sort((a, b) => b.members.length - a.members.length) : [];
  useEffect(() => setPage(1), [snapshot?.timestamp]);
  const shown = rows.slice((page - 1) * TABLE_PAGE, page * TABLE_PAGE);
  return (
    <Section title={t`Communities`} testId="table-communities">
      {snapshot ? (
        <Text size="xs" c="dimmed" mb={6}>
          <Trans>Modularity {snapshot.modularity.toLocaleString(i18n.locale, { maximumFractionDigits: 3 })}</Trans>
        </Text>
      ) : null}
      <TableShell total={rows.length} page={page} setPage={setPage} error={null} isEmpty={rows.length === 0} empty={t`No communities this week.`}>
        <Table striped fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Community`}</Table.Th>
              <Table.Th>{t`Size`}</Table.Th>
              <Table.Th>{t({ message: 'Members', context: 'members of a community' })}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Badge color={communityColor(row.id)} variant="filled" size="sm" styles={{ root: { background: communityColor(row.id) } }}>
                    #{row.id}
                  </Badge>
                </Table.Td>
                <Table.Td>{row.members.length}</Table.Td>
                <Table.Td style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {row.members
                    .slice(0, 4)
                    .map((id) => names.get(id) ?? id)
                    .join(', ')}
                  {row.members.length > 4 ? '…' : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableShell>
    </Section>
  );
}

function BridgesTable({ uuid, week, names }: { uuid: string; week: (ms: number) => string; names: Map<string, string> }) {
  const { t } = useLingui();
  const { page, setPage, state, error } = usePaged<Bridge>(async (p) => {
    const r = await fetchBridges(uuid, p, TABLE_PAGE);
    return { items: r.bridges, total: r.total };
  }, uuid);
  const name = (id: string) => names.get(id) ?? id;
  return (
    <Section title={t`Bridge links`} testId="table-bridges">
      <TableShell total={state?.total ?? 0} page={page} setPage={setPage} error={error} isEmpty={state !== null && state.items.length === 0} empty={t`No bridge links found.`}>
        <Table striped fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Bridge`}</Table.Th>
              <Table.Th>{t`Continues to`}</Table.Th>
              <Table.Th>{t`Cut off`}</Table.Th>
              <Table.Th>{t`Week`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(state?.items ?? []).map((b, i) => (
              <Table.Tr key={`${b.timestamp}-${b.link1.source}-${b.link1.target}-${i}`}>
                <Table.Td>
                  {name(b.link1.source)} → {name(b.link1.target)}
                </Table.Td>
                <Table.Td>
                  {name(b.link2.source)} → {name(b.link2.target)}
                </Table.Td>
                <Table.Td>{b.cut_size}</Table.Td>
                <Table.Td>{week(b.timestamp)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableShell>
    </Section>
  );
}
