import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBrandGit, IconChartLine, IconGitCommit, IconInfoCircle, IconPlus, IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { EmptyState, ListPager } from '@/components/paged-list.tsx';
import type { RepoProjectDto } from '../../../core/repos.ts';
import { fetchRepos } from './repos-api.ts';
import { RepoFormModal } from './repo-form-modal.tsx';
import { projectPath } from './repos-labels.ts';

function RepoCard({ project }: { project: RepoProjectDto }) {
  const { t, i18n } = useLingui();
  const commits = project.commit_count;
  const last = project.last_commit_at === null ? null : i18n.date(new Date(project.last_commit_at), { dateStyle: 'medium' });
  return (
    <Card withBorder radius="md" padding="lg" data-testid={`repo-${project.name}`}>
      <Stack gap="xs" h="100%">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" radius="md">
            <IconBrandGit size={20} />
          </ThemeIcon>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Anchor component={Link} href={projectPath(project.project_id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {project.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {t`Owner: ${project.owner_name}`}
            </Text>
          </div>
        </Group>
        <Text size="sm" c={project.description ? undefined : 'dimmed'} lineClamp={3} style={{ flex: 1, overflowWrap: 'anywhere' }}>
          {project.description || t`No description`}
        </Text>
        <Group justify="space-between" gap="xs">
          <Badge variant="light" tt="none" leftSection={<IconGitCommit size={12} />}>
            {t`${commits} commits registered`}
          </Badge>
          {last && (
            <Text size="xs" c="dimmed">
              {t`Latest commit ${last}`}
            </Text>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

/** /dashboard/repos: the source-code projects the member may see (§6), search, paging, a new project. */
export function ReposPage() {
  const { t } = useLingui();
  const config = useConfig();
  const [, navigate] = useLocation();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [isCreating, setIsCreating] = useState(false);
  const { data } = useLoaded((signal) => fetchRepos({ page, page_size: config.tablePageSize, keyword: debounced || undefined }, signal), [page, debounced, config.tablePageSize]);
  const price = config.credits.commit;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1} size="h2">
          <Trans>Source-code projects</Trans>
        </Title>
        <Group gap="sm">
          <Button component={Link} href="/dashboard/repos/global" variant="default" leftSection={<IconChartLine size={16} />} data-testid="repos-global">
            <Trans>Code at a glance</Trans>
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setIsCreating(true)} data-testid="new-repo">
            <Trans>New project</Trans>
          </Button>
        </Group>
      </Group>
      <Text c="dimmed" size="sm" maw={760}>
        {price > 0 ? (
          <Trans>Register a git history: every commit gets its own proof certificate. Only hashes and metadata leave your computer, never the source code. Each commit costs {price} credits.</Trans>
        ) : (
          <Trans>Register a git history: every commit gets its own proof certificate. Only hashes and metadata leave your computer, never the source code.</Trans>
        )}{' '}
        <Anchor component={Link} href="/dashboard/repos/intro" size="sm">
          <Group gap={4} component="span" display="inline-flex">
            <IconInfoCircle size={14} />
            <Trans>What is proven</Trans>
          </Group>
        </Anchor>
      </Text>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t`Search projects by name`}
        aria-label={t`Search projects by name`}
        value={keyword}
        onChange={(event) => {
          setKeyword(event.currentTarget.value);
          setPage(1);
        }}
        w={{ base: '100%', xs: 320 }}
      />
      {data && data.items.length === 0 ? (
        <EmptyState
          icon={
            <ThemeIcon variant="light" size={48} radius="xl">
              <IconBrandGit size={26} />
            </ThemeIcon>
          }
        >
          <Text fw={600}>{debounced ? <Trans>No project matches this name</Trans> : <Trans>No source-code projects yet</Trans>}</Text>
          {!debounced && (
            <Text size="sm" c="dimmed" ta="center">
              <Trans>Create a project, then register its history from the repository folder or from CI.</Trans>
            </Text>
          )}
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="repo-list">
          {data?.items.map((project) => <RepoCard key={project.project_id} project={project} />)}
        </SimpleGrid>
      )}
      <ListPager data={data} page={page} onChange={setPage} />
      <RepoFormModal
        opened={isCreating}
        onClose={() => setIsCreating(false)}
        onSaved={(project) => {
          setIsCreating(false);
          navigate(projectPath(project.project_id));
        }}
      />
    </Stack>
  );
}
