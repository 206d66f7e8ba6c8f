import { useState } from 'react';
import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { IconFileCertificate, IconHistory, IconPlus, IconShieldLock } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { ProjectCard, ProjectGrid, ProjectSearchInput, useProjectSearch } from '@/components/project-grid.tsx';
import type { VaultProjectDto } from '../../../core/vault.ts';
import { fetchProjects } from './vault-api.ts';
import { useVaultGate } from './use-vault-gate.ts';
import { VaultShell } from './vault-shell.tsx';
import { ProjectFormModal } from './project-form-modal.tsx';

function VaultProjectCard({ project }: { project: VaultProjectDto }) {
  const { t, i18n } = useLingui();
  const updated = i18n.date(new Date(project.updated_at), { dateStyle: 'medium', timeStyle: 'short' });
  const files = project.file_count;
  return (
    <ProjectCard
      testId={`project-${project.name}`}
      icon={<IconShieldLock size={20} />}
      href={`/dashboard/vault/project/${project.project_id}`}
      name={project.name}
      ownerName={project.owner_name}
      description={project.description}
      figures={
        <>
          <Badge variant="light" tt="none" leftSection={<IconFileCertificate size={12} />}>
            {t`${files} files`}
          </Badge>
          <Text size="xs" c="dimmed">
            {t`Updated ${updated}`}
          </Text>
        </>
      }
      footer={
        <Anchor component={Link} href={`/dashboard/vault/log/${project.project_id}`} size="xs">
          <Group gap={4}>
            <IconHistory size={14} />
            <Trans>Project log</Trans>
          </Group>
        </Anchor>
      }
    />
  );
}

/** /dashboard/vault: the projects the member may see (§6), search, paging, and a new project. */
export function VaultPage() {
  const gate = useVaultGate();
  const config = useConfig();
  const [, navigate] = useLocation();
  const search = useProjectSearch();
  const { page, debounced } = search;
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
        <ProjectSearchInput search={search} />
        <Anchor component={Link} href="/dashboard/vault/log/all" size="sm">
          <Group gap={4}>
            <IconHistory size={16} />
            <Trans>Vault log</Trans>
          </Group>
        </Anchor>
      </Group>
      <ProjectGrid
        data={data}
        search={search}
        testId="project-list"
        emptyIcon={<IconShieldLock size={26} />}
        emptyTitle={<Trans>No projects yet</Trans>}
        emptyHint={<Trans>Create a project, then register the files it protects.</Trans>}
        renderCard={(project) => <VaultProjectCard key={project.project_id} project={project} />}
      />
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
