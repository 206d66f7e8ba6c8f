import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileCertificate, IconHistory, IconPlus, IconShieldLock, IconSearch } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { EmptyState, ListPager } from '@/components/paged-list.tsx';
import type { VaultProjectDto } from '../../../core/vault.ts';
import { fetchProjects } from './vault-api.ts';
import { useVaultGate } from './use-vault-gate.ts';
import { VaultShell } from './vault-shell.tsx';
import { ProjectFormModal } from './project-form-modal.tsx';

function ProjectCard({ project }: { project: VaultProjectDto }) {
  const { t, i18n } = useLingui();
  const updated = i18n.date(new Date(project.updated_at), { dateStyle: 'medium', timeStyle: 'short' });
  const files = project.file_count;
  return (
    <Card withBorder radius="md" padding="lg" data-testid={`project-${project.name}`}>
      <Stack gap="xs" h="100%">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" radius="md">
            <IconShieldLock size={20} />
          </ThemeIcon>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Anchor component={Link} href={`/dashboard/vault/project/${project.project_id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
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
          <Badge variant="light" tt="none" leftSection={<IconFileCertificate size={12} />}>
            {t`${files} files`}
          </Badge>
          <Text size="xs" c="dimmed">
            {t`Updated ${updated}`}
          </Text>
        </Group>
        <Anchor component={Link} href={`/dashboard/vault/log/${project.project_id}`} size="xs">
          <Group gap={4}>
            <IconHistory size={14} />
            <Trans>Project log</Trans>
          </Group>
        </Anchor>
      </Stack>
    </Card>
  );
}

/** /dashboard/vault: the projects the member may see (§6), search, paging, and a new project. */
export function VaultPage() {
  const { t } = useLingui();
  const gate = useVaultGate();
  const config = useConfig();
  const [, navigate] = useLocation();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [isCreating, setIsCreating] = useState(false);
  const isOpen = Boolean(gate.authorization);
  const { onError } = gate;
  const { data } = useLoaded(
    isOpen ? (signal) => fetchProjects({ page, page_size: config.tablePageSize, keyword: debounced || undefined }, signal) : null,
    [isOpen, page, debounced, config.tablePageSize, onError],
    onError,
  );
  return (
    <VaultShell
      gate={gate}
      title={<Trans>Trade-secret vault</Trans>}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setIsCreating(true)} data-testid="new-project">
          <Trans>New project</Trans>
        </Button>
      }
    >
      <Text c="dimmed" size="sm" maw={760}>
        <Trans>
          Register the files of your trade secrets into projects: only each file's fingerprint leaves your browser, and every file gets a proof certificate on the ledger. Each file costs {config.credits.vaultFile} credits.
        </Trans>
      </Text>
      <Group justify="space-between" gap="sm">
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
        <Anchor component={Link} href="/dashboard/vault/log/all" size="sm">
          <Group gap={4}>
            <IconHistory size={16} />
            <Trans>Vault log</Trans>
          </Group>
        </Anchor>
      </Group>
      {data && data.items.length === 0 ? (
        <EmptyState
          icon={
            <ThemeIcon variant="light" size={48} radius="xl">
              <IconShieldLock size={26} />
            </ThemeIcon>
          }
        >
          <Text fw={600}>{debounced ? <Trans>No project matches this name</Trans> : <Trans>No projects yet</Trans>}</Text>
          {!debounced && (
            <Text size="sm" c="dimmed" ta="center">
              <Trans>Create a project, then register the files it protects.</Trans>
            </Text>
          )}
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="project-list">
          {data?.items.map((project) => <ProjectCard key={project.project_id} project={project} />)}
        </SimpleGrid>
      )}
      <ListPager data={data} page={page} onChange={setPage} />
      <ProjectFormModal
        opened={isCreating}
        onClose={() => setIsCreating(false)}
        onSaved={(project) => {
          setIsCreating(false);
          navigate(`/dashboard/vault/project/${project.project_id}`);
        }}
        onVaultExpired={() => gate.toUnlock('expired')}
      />
    </VaultShell>
  );
}
