import { Anchor, Card, Group, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useLoaded } from '@/api/use-loaded.ts';
import { TableCard } from '@/components/paged-list.tsx';
import { ScoreChart } from '@/components/score-chart.tsx';
import { fetchRepoOverview } from './repos-api.ts';
import { projectPath, REPOS_PATH } from './repos-labels.ts';

export const GLOBAL_TABS = ['activity', 'developers', 'projects'] as const;
export type GlobalTab = (typeof GLOBAL_TABS)[number];
export const toGlobalTab = (value: string | undefined): GlobalTab => (GLOBAL_TABS as readonly string[]).includes(value ?? '') ? (value as GlobalTab) : 'activity';

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  const { i18n } = useLingui();
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {i18n.number(value)}
      </Text>
    </Card>
  );
}

/** /dashboard/repos/global/:active? — the enterprise's code at a glance (§6 view): commits over time, developers, projects. */
export function ReposGlobalPage({ active }: { active: GlobalTab }) {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const { data } = useLoaded((signal) => fetchRepoOverview(signal), []);
  // One week alone gives the chart no span: show it between the empty weeks around it.
  const WEEK_S = 7 * 86_400;
  const weeks = data && data.weeks.length === 1 ? [{ week: data.weeks[0]!.week - WEEK_S, commits: 0 }, data.weeks[0]!, { week: data.weeks[0]!.week + WEEK_S, commits: 0 }] : (data?.weeks ?? []);
  const date = (ms: number | null) => (ms === null ? '—' : i18n.date(new Date(ms), { dateStyle: 'medium' }));
  return (
    <Stack gap="lg">
      <Anchor component={Link} href={REPOS_PATH} size="sm">
        <Trans>Source-code projects</Trans>
      </Anchor>
      <Title order={1} size="h2">
        <Trans>Code at a glance</Trans>
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
        <Stat label={t`Projects`} value={data?.projects ?? 0} testId="global-projects" />
        <Stat label={t`Commits registered`} value={data?.commits ?? 0} testId="global-commits" />
        <Stat label={t`Developers`} value={data?.developers ?? 0} testId="global-developers" />
      </SimpleGrid>
      <Tabs value={active} onChange={(value) => navigate(`/dashboard/repos/global/${value ?? 'activity'}`)} keepMounted={false}>
        <Tabs.List mb="md" style={{ flexWrap: 'wrap' }}>
          <Tabs.Tab value="activity" data-testid="global-tab-activity">{t`Commits over time`}</Tabs.Tab>
          <Tabs.Tab value="developers" data-testid="global-tab-developers">{t`Developers`}</Tabs.Tab>
          <Tabs.Tab value="projects" data-testid="global-tab-projects">{t`Projects`}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="activity">
          {data && data.weeks.length > 0 ? (
            <Card withBorder radius="md" padding="md">
              <ScoreChart x={weeks.map((w) => w.week)} series={[{ label: t`Commits per week`, values: weeks.map((w) => w.commits), color: '#1c7ed6', fill: 'rgba(28,126,214,0.12)' }]} xLabel={t`Week`} testId="global-chart" height={240} />
            </Card>
          ) : (
            <Text c="dimmed" size="sm">
              <Trans>No commits registered yet.</Trans>
            </Text>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="developers">
          <TableCard minWidth={520} testId="global-developer-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Author`}</Table.Th>
                <Table.Th>{t`Commits`}</Table.Th>
                <Table.Th>{t`Projects`}</Table.Th>
                <Table.Th>{t`Latest commit`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.by_developer.map((d) => (
                <Table.Tr key={d.name}>
                  <Table.Td>{d.name}</Table.Td>
                  <Table.Td>{i18n.number(d.commits)}</Table.Td>
                  <Table.Td>{i18n.number(d.projects)}</Table.Td>
                  <Table.Td>{date(d.last_commit_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </TableCard>
        </Tabs.Panel>
        <Tabs.Panel value="projects">
          <TableCard minWidth={520} testId="global-project-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Project name`}</Table.Th>
                <Table.Th>{t`Commits`}</Table.Th>
                <Table.Th>{t`Developers`}</Table.Th>
                <Table.Th>{t`Latest commit`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.by_project.map((p) => (
                <Table.Tr key={p.project_id}>
                  <Table.Td>
                    <Group gap={4}>
                      <Anchor component={Link} href={projectPath(p.project_id)} size="sm">
                        {p.name}
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>{i18n.number(p.commits)}</Table.Td>
                  <Table.Td>{i18n.number(p.developers)}</Table.Td>
                  <Table.Td>{date(p.last_commit_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </TableCard>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
