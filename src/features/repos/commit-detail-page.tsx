import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Breadcrumbs, Button, Card, Code, Group, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { Copyable } from '@/components/copyable.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { ProofBadge, useProofPoll } from '@/components/proof-status.tsx';
import { SOFTWARE_HERITAGE_BROWSE, swhids, type CommitChanges } from '../../../core/repos.ts';
import { downloadCommitProof, fetchCommit, fetchRepo } from './repos-api.ts';
import { projectPath, REPOS_PATH } from './repos-labels.ts';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

/** The changed paths against the first parent, with line counts, as the reader computed them. */
function ChangedPaths({ changes, hasParent }: { changes: CommitChanges | null; hasParent: boolean }) {
  const { t } = useLingui();
  const status = { A: t({ message: 'Added', context: 'file change' }), D: t`Deleted`, M: t`Modified` } as const;
  const color = { A: 'green', D: 'red', M: 'blue' } as const;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="commit-changes">
      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>Changed files</Trans>
        </Title>
        {changes === null ? (
          <Text size="sm" c="dimmed">
            <Trans>Not sent with this commit (registered by an earlier version of the reader).</Trans>
          </Text>
        ) : (
          <>
            <Text size="sm" data-testid="commit-changes-summary">
              {hasParent ? t`Files changed against the first parent: ${changes.files}` : t`Files in the first commit: ${changes.files}`}
              {' · '}
              <Text span c="green" fw={600}>{`+${changes.added}`}</Text> <Text span c="red" fw={600}>{`−${changes.removed}`}</Text>
            </Text>
            <Text size="xs" c="dimmed">
              <Trans>Each file's SHA-256 is part of the registered tree digest; the line counts are computed in your browser or CI from the two versions and are shown for information, not proven.</Trans>
            </Text>
            <ScrollArea type="auto">
              <Table miw={560} striped verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t`File`}</Table.Th>
                    <Table.Th>{t({ message: 'Change', context: 'file change' })}</Table.Th>
                    <Table.Th ta="right">{t`Lines`}</Table.Th>
                    <Table.Th>SHA-256</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {changes.paths.map((c) => (
                    <Table.Tr key={c.path} data-testid={`change-${c.path}`}>
                      <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {c.path}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={color[c.status]} size="sm">
                          {status[c.status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {c.added === null ? (
                          <Text span size="xs" c="dimmed">
                            {t`binary`}
                          </Text>
                        ) : (
                          <>
                            <Text span c="green">{`+${c.added}`}</Text> <Text span c="red">{`−${c.removed}`}</Text>
                          </>
                        )}
                      </Table.Td>
                      <Table.Td ff="monospace" fz="xs" c="dimmed">
                        <Tooltip label={c.sha256 ?? c.old_sha256 ?? ''} disabled={!(c.sha256 ?? c.old_sha256)}>
                          <span>{(c.sha256 ?? c.old_sha256 ?? '').slice(0, 16)}</span>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            {changes.truncated && (
              <Text size="xs" c="dimmed">
                {t`Only the first ${changes.paths.length} files are listed.`}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

/** /dashboard/repos/detail/:project_id/:commit_id — a commit's registered record, its SWHIDs and its proof (the id may be the commit's DNA). */
export function CommitDetailPage({ projectId, commitId }: { projectId: string; commitId: string }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const id = Number(projectId);
  const [missing, setMissing] = useState(false);
  const [isDownloading, setIsDownloading] = useState(false);
  const onError = (error: unknown) => {
    if (isApiError(error) && error.message === 'not_found') setMissing(true);
    else notifyError(error, i18n);
  };
  const { data: project } = useLoaded(id > 0 ? (signal) => fetchRepo(id, signal) : null, [id], onError);
  const { data: commit, reload } = useLoaded(id > 0 ? (signal) => fetchCommit(id, commitId, signal) : null, [id, commitId], onError);
  useProofPoll(commit !== null && !commit.is_generated, reload);
  const trail = (
    <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap' } }}>
      <Anchor component={Link} href={REPOS_PATH} size="sm">
        <Trans>Source-code projects</Trans>
      </Anchor>
      {project && (
        <Anchor component={Link} href={projectPath(project.project_id)} size="sm" truncate maw={220}>
          {project.name}
        </Anchor>
      )}
      {commit && (
        <Text size="sm" c="dimmed" ff="monospace">
          {commit.commit_id.slice(0, 12)}
        </Text>
      )}
    </Breadcrumbs>
  );
  if (missing || !(id > 0)) {
    return (
      <Stack gap="lg">
        {trail}
        <Paper withBorder radius="md" p="xl" data-testid="commit-missing">
          <Title order={1} size="h3">
            <Trans>Commit not found</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>This commit is not registered in this project, or you may not see it.</Trans>
          </Text>
        </Paper>
      </Stack>
    );
  }
  if (!commit) return <PageLoader />;
  const ids = swhids(commit.commit_id, commit.tree_id);
  const time = (ms: number, tz: string) => `${i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'medium' })} (${tz})`;
  return (
    <Stack gap="lg">
      {trail}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} size="h2">
            <Trans>Commit</Trans> <Text span ff="monospace" inherit>{commit.commit_id.slice(0, 12)}</Text>
          </Title>
          <Group gap="xs">
            <ProofBadge isGenerated={commit.is_generated} />
            {commit.block_height !== null && (
              <Text size="xs" c="dimmed">
                {t`Block #${commit.block_height}`}
              </Text>
            )}
          </Group>
        </Stack>
        <Button
          leftSection={<IconDownload size={16} />}
          disabled={!commit.is_generated}
          loading={isDownloading}
          data-testid="commit-proof"
          onClick={async () => {
            setIsDownloading(true);
            try {
              await downloadCommitProof(config.api.base, id, commit);
            } catch (error) {
              notifyError(error, i18n);
            } finally {
              setIsDownloading(false);
            }
          }}
        >
          <Trans>Download proof</Trans>
        </Button>
      </Group>
      {commit.orphaned_at !== null && (
        <Alert color="orange" data-testid="commit-orphaned" title={t`No longer on any branch or tag`}>
          {t`A force-push rewrote the history on ${i18n.date(new Date(commit.orphaned_at), { dateStyle: 'medium', timeStyle: 'short' })}: this commit is no longer reachable from the branches and tags pushed since. It was registered before, and its proof stays valid.`}
        </Alert>
      )}
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Field label={t`Commit id`} testId="commit-id">
            <Copyable value={commit.commit_id} label={t`Commit id`} isWrapped />
          </Field>
          <Field label={t`DNA`}>
            <Copyable value={commit.dip_id} label={t`DNA`} />
          </Field>
          <Field label={t`Tree id`}>
            <Text size="sm" ff="monospace">
              {commit.tree_id}
            </Text>
          </Field>
          <Field label={t`Tree digest (SHA-256 of every file)`} testId="commit-tree-digest">
            <Text size="sm" ff="monospace">
              {commit.tree_sha256}
            </Text>
          </Field>
          <Field label={t`Author`}>
            <Text size="sm">{commit.author_name}</Text>
            <Text size="xs" c="dimmed">
              {time(commit.author_time, commit.author_tz)}
            </Text>
          </Field>
          <Field label={t`Committer`}>
            <Text size="sm">{commit.committer_name}</Text>
            <Text size="xs" c="dimmed">
              {time(commit.committer_time, commit.record.committer.tz)}
            </Text>
          </Field>
          <Field label={t`Parents`}>
            {commit.parents.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t`None (a root commit)`}
              </Text>
            ) : (
              commit.parents.map((p) => (
                <Anchor key={p} component={Link} href={`/dashboard/repos/detail/${id}/${p}`} size="sm" ff="monospace" display="block">
                  {p}
                </Anchor>
              ))
            )}
          </Field>
          <Field label={t`Files in the tree`}>
            <Text size="sm">{commit.file_count}</Text>
          </Field>
          <Field label={t`Registered at`}>
            <Text size="sm">{i18n.date(new Date(commit.registered_at), { dateStyle: 'medium', timeStyle: 'medium' })}</Text>
          </Field>
          <Field label={t`Record SHA-256 (the certificate's file fingerprint)`}>
            <Text size="sm" ff="monospace">
              {commit.record_sha256}
            </Text>
          </Field>
        </SimpleGrid>
      </Card>
      {ids && (
        <Card withBorder radius="md" padding="lg" data-testid="commit-swhid">
          <Stack gap="xs">
            <Title order={2} size="h4">
              <Trans>Software Heritage identifiers</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>If the code is public, look it up in the Software Heritage archive by these identifiers.</Trans>
            </Text>
            {[ids.rev, ids.dir].map((swhid) => (
              <Group key={swhid} gap="xs" wrap="nowrap">
                <Code style={{ overflowWrap: 'anywhere' }}>{swhid}</Code>
                <Anchor href={`${SOFTWARE_HERITAGE_BROWSE}${swhid}`} target="_blank" rel="noreferrer noopener" size="sm" aria-label={t`Look up ${swhid} in Software Heritage`}>
                  <IconExternalLink size={16} />
                </Anchor>
              </Group>
            ))}
          </Stack>
        </Card>
      )}
      <ChangedPaths changes={commit.changes} hasParent={commit.parents.length > 0} />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            <Trans>The registered record</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Check it against a clone with: provena verify-commit CLONE COMMIT PROOF.pdf</Trans>
          </Text>
          <Code block style={{ overflowX: 'auto' }} data-testid="commit-record">
            {JSON.stringify(commit.record, null, 2)}
          </Code>
        </Stack>
      </Card>
    </Stack>
  );
}
