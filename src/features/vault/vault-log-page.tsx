import { useEffect, useState } from 'react';
import { Anchor, Group, Pagination, Paper, Text, ThemeIcon, Timeline } from '@mantine/core';
import { IconDownload, IconEdit, IconFilePlus, IconFolderPlus, IconLock, IconLockOpen } from '@tabler/icons-react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import type { VaultAction, VaultLogDto, VaultProjectDto } from '../../../core/vault.ts';
import { fetchLogs, fetchProject } from './vault-api.ts';
import { useVaultGate } from './use-vault-gate.ts';
import { VaultShell } from './vault-shell.tsx';
import type { Paged } from '../../../core/api-types.ts';

const ACTION_TEXT: Record<VaultAction, MessageDescriptor> = {
  vault_unlocked: msg`Unlocked the vault`,
  vault_locked: msg`Locked the vault`,
  project_created: msg`Created the project`,
  project_updated: msg`Edited the project`,
  file_registered: msg`Registered a file`,
  proof_downloaded: msg`Downloaded a proof certificate`,
};

const ACTION_ICON: Record<VaultAction, typeof IconLock> = {
  vault_unlocked: IconLockOpen,
  vault_locked: IconLock,
  project_created: IconFolderPlus,
  project_updated: IconEdit,
  file_registered: IconFilePlus,
  proof_downloaded: IconDownload,
};

function detailText(entry: VaultLogDto): string | null {
  const d = entry.detail;
  const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
  if (entry.action === 'file_registered' || entry.action === 'proof_downloaded') return [str('name'), str('dip_id')].filter(Boolean).join(' · ');
  if (entry.action === 'project_created') return str('name');
  if (entry.action === 'project_updated') {
    const before = str('previous_name');
    const after = str('name');
    return before && after && before !== after ? `${before} → ${after}` : after;
  }
  return null;
}

/** /dashboard/vault/log/:projectId (or "all"): every vault action with who and when, newest first, paged. */
export function VaultLogPage({ projectId }: { projectId: string }) {
  const { t, i18n } = useLingui();
  const gate = useVaultGate();
  const config = useConfig();
  const isAll = projectId === 'all';
  const id = Number(projectId);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Paged<VaultLogDto> | null>(null);
  const [project, setProject] = useState<VaultProjectDto | null>(null);
  const [isMissing, setIsMissing] = useState(false);
  const isOpen = Boolean(gate.authorization);
  const { onError } = gate;

  useEffect(() => {
    if (!isOpen) return;
    if (!isAll && (!Number.isInteger(id) || id < 1)) {
      setIsMissing(true);
      return;
    }
    const controller = new AbortController();
    const fail = (error: unknown) => {
      if ((error as Error)?.name === 'AbortError') return;
      if ((error as { key?: string })?.key === 'not_found') setIsMissing(true);
      else onError(error);
    };
    if (!isAll) fetchProject(id, controller.signal).then(setProject).catch(fail);
    fetchLogs({ page, page_size: Math.max(config.tablePageSize, 20), project_id: isAll ? undefined : id }, controller.signal)
      .then(setData)
      .catch(fail);
    return () => controller.abort();
  }, [isOpen, isAll, id, page, config.tablePageSize, onError]);

  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const trail = [{ label: t`Trade-secret vault`, href: '/dashboard/vault' }, ...(project ? [{ label: project.name, href: `/dashboard/vault/project/${project.project_id}` }] : [])];
  const title = isAll ? t`Vault log` : project ? t`Log of ${project.name}` : t`Project log`;
  return (
    <VaultShell gate={gate} title={title} trail={trail}>
      {isMissing ? (
        <Text c="dimmed">
          <Trans>This project does not exist, or you may not see it.</Trans>
        </Text>
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          {data && data.items.length === 0 && (
            <Text c="dimmed" size="sm">
              <Trans>Nothing has happened here yet.</Trans>
            </Text>
          )}
          <Timeline bulletSize={28} lineWidth={2} data-testid="vault-log">
            {data?.items.map((entry) => {
              const Icon = ACTION_ICON[entry.action] ?? IconEdit;
              const detail = detailText(entry);
              const when = i18n.date(new Date(entry.created_at), { dateStyle: 'medium', timeStyle: 'medium' });
              return (
                <Timeline.Item
                  key={entry.log_id}
                  bullet={
                    <ThemeIcon size={28} radius="xl" variant="light">
                      <Icon size={16} />
                    </ThemeIcon>
                  }
                  title={i18n._(ACTION_TEXT[entry.action] ?? msg`Other action`)}
                  data-testid={`log-${entry.action}`}
                >
                  {detail && (
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {detail}
                    </Text>
                  )}
                  {isAll && entry.project_id !== null && entry.project_name && (
                    <Anchor component={Link} href={`/dashboard/vault/project/${entry.project_id}`} size="sm">
                      {entry.project_name}
                    </Anchor>
                  )}
                  <Group gap={6} mt={2}>
                    <Text size="xs" c="dimmed">
                      {t`${entry.user_name} · ${when}`}
                    </Text>
                  </Group>
                </Timeline.Item>
              );
            })}
          </Timeline>
          {pages > 1 && (
            <Group justify="center" mt="md">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </Paper>
      )}
    </VaultShell>
  );
}
