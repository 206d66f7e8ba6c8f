import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconBrandGit, IconChartLine, IconGitCommit, IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { ProjectCard, ProjectGrid, ProjectSearchInput, useProjectSearch } from '@/components/project-grid.tsx';
import type { RepoProjectDto } from '../../../core/repos.ts';
import { fetchRepos } from './repos-api.ts';
import { RepoFormModal } from './repo-form-modal.tsx';
import { projectPath } from './repos-labels.ts';

function RepoCard({ project }: { project: RepoProjectDto }) {
  const { t, i18n } = useLingui();
  const commits = project.commit_count;
  const last = project.last_commit_at === null ? null : i18n.date(new Date(project.last_commit_at), { dateStyle: 'medium' });
  return (
    <ProjectCard
      testId={`repo-${project.name}`}
      icon={<IconBrandGit size={20} />}
      href={projectPath(project.project_id)}
      name={project.name}
      ownerName={project.owner_name}
      description={project.description}
      figures={
        <>
          <Badge variant="light" tt="none" leftSection={<IconGitCommit size={12} />}>
            {t`${commits} commits registered`}
          </Badge>
          {last && (
            <Text size="xs" c="dimmed">
              {t`Latest commit ${last}`}
            </Text>
          )}
        </>
      }
    />
  );
}

/** /dashboard/repos: the source-code projects the member may see (§6), search, paging, a new project. */
export function ReposPage() {
  const config = useConfig();
  const [, navigate] = useLocation();
  const search = useProjectSearch();
  const { page, debounced } = search;
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
      <ProjectSearchInput search={search} />
      <ProjectGrid
        data={data}
        search={search}
        testId="repo-list"
        emptyIcon={<IconBrandGit size={26} />}
        emptyTitle={<Trans>No source-code projects yet</Trans>}
        emptyHint={<Trans>Create a project, then register its history from the repository folder or from CI.</Trans>}
        renderCard={(project) => <RepoCard key={project.project_id} project={project} />}
      />
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
