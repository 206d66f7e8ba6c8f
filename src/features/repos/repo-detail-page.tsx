import { useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Breadcrumbs, Button, Card, Code, Group, Modal, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconFolderOpen, IconGitBranch, IconKey, IconSearch, IconTag, IconTrash } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { Copyable } from '@/components/copyable.tsx';
import { ListPager, TableCard } from '@/components/paged-list.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { ProofBadge, useProofPoll } from '@/components/proof-status.tsx';
import { formatDuration } from '@/components/progress/format.ts';
import { computeCommitRecords, type PickedFile } from '../../../workers/repos/repo-service.ts';
import { COMMIT_PREFIX_PATTERN, type RepoCommitDto, type RepoProjectDto, type RepoRefsDto } from '../../../core/repos.ts';
import { createToken, downloadCommitProof, fetchCommits, fetchKnownCommits, fetchRefs, fetchRepo, fetchTokens, pushRecords, putRefs, revokeToken } from './repos-api.ts';
import { commitPath, REPOS_PATH } from './repos-labels.ts';
import { canPickDirectory, pickRepositoryDirectory } from './pick-repository.ts';

type Stage =
  | { kind: 'idle' }
  | { kind: 'reading'; done: number; total: number; mbPerSecond: number; secondsLeft: number | null }
  | { kind: 'sending'; sent: number; total: number }
  | { kind: 'done'; registered: number; already: number; seconds: number; orphaned: number }
  | { kind: 'failed'; message: string };

/** Picks the repository folder, computes the records of new commits in a worker (progress, cancel) and registers them. */
function RegisterFromFolder({ project, onRegistered }: { project: RepoProjectDto; onRegistered: () => void }) {
  const { t, i18n } = useLingui();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement | null>(null);

  async function onPicked(list: FileList | null) {
    if (!list || list.length === 0) return;
    // Only `.git` is read; the working tree's files are never opened.
    const files: PickedFile[] = [];
    for (const file of Array.from(list)) {
      const path = file.webkitRelativePath || file.name;
      if (/(^|\/)\.git(\/|$)/.test(path) || /^[^/]+\/(HEAD|objects\/|refs\/|packed-refs|config)/.test(path)) files.push({ path, file });
    }
    await register(async () => files);
  }

  /** With the File System Access API: only `.git` is listed, never the working tree. */
  async function onPickDirectory() {
    await register((signal) => pickRepositoryDirectory(signal));
  }

  async function register(pick: (signal: AbortSignal) => Promise<PickedFile[] | null>) {
    const controller = new AbortController();
    abort.current = controller;
    let started = performance.now();
    try {
      const files = await pick(controller.signal);
      if (files === null) return;
      started = performance.now();
      setStage({ kind: 'reading', done: 0, total: 0, mbPerSecond: 0, secondsLeft: null });
      const known = await fetchKnownCommits(project.project_id, controller.signal);
      const result = await computeCommitRecords(
        files,
        known,
        (p) => {
          const seconds = (performance.now() - started) / 1000;
          const perCommit = p.done > 0 ? seconds / p.done : null;
          setStage({ kind: 'reading', done: p.done, total: p.total, mbPerSecond: seconds > 0 ? p.bytes / 1e6 / seconds : 0, secondsLeft: perCommit === null ? null : Math.max(0, (p.total - p.done) * perCommit) });
        },
        controller.signal,
      );
      if (!result) {
        setStage({ kind: 'idle' });
        return;
      }
      if (!result.ok) {
        const message =
          result.reason === 'object_format_unsupported'
            ? t`This repository uses the SHA-256 object format, which cannot be read in the browser yet.`
            : t`No git repository found in this folder. Pick the folder that contains .git.`;
        setStage({ kind: 'failed', message });
        return;
      }
      setStage({ kind: 'sending', sent: 0, total: result.records.length });
      const answer = await pushRecords(project.project_id, result.records, result.changes, (sent) => setStage({ kind: 'sending', sent, total: result.records.length }), controller.signal);
      // Then the branches and tags: listed on the page, and a rewritten history is flagged.
      const refs = await putRefs(project.project_id, result.tips, controller.signal);
      const orphaned = refs.force_pushes.reduce((n, f) => n + f.orphaned, 0);
      setStage({ kind: 'done', registered: answer.registered, already: answer.already + known.length, seconds: (performance.now() - started) / 1000, orphaned });
      onRegistered();
    } catch (error) {
      if ((error as Error)?.name === 'AbortError' || controller.signal.aborted) setStage({ kind: 'idle' });
      else {
        setStage({ kind: 'idle' });
        notifyError(error, i18n);
      }
    } finally {
      abort.current = null;
      if (input.current) input.current.value = '';
    }
  }

  const isBusy = stage.kind === 'reading' || stage.kind === 'sending';
  return (
    <Card withBorder radius="md" padding="lg" data-testid="register-folder">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>Register from the repository folder</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>Pick the folder that contains .git. The history is read in your browser; only the records of commits not yet registered are sent.</Trans>
        </Text>
        <input
          ref={input}
          type="file"
          hidden
          data-testid="repo-folder-input"
          // Non-standard but supported by every current browser: pick a folder, get all its files.
          {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
          multiple
          onChange={(event) => void onPicked(event.currentTarget.files)}
        />
        {stage.kind === 'reading' && (
          <Stack gap={6} data-testid="repo-progress">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={500}>
                {stage.total ? t`Reading commits: ${stage.done} of ${stage.total}` : t`Reading the history…`}
              </Text>
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => abort.current?.abort()} data-testid="repo-cancel">
                <Trans>Cancel</Trans>
              </Button>
            </Group>
            <Progress value={stage.total ? (stage.done / stage.total) * 100 : 0} animated />
            <Text size="xs" c="dimmed">
              {t`${stage.mbPerSecond.toFixed(1)} MB/s`}
              {stage.secondsLeft !== null && ` · ${t`${formatDuration(stage.secondsLeft)} left`}`}
            </Text>
          </Stack>
        )}
        {stage.kind === 'sending' && (
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t`Registering: ${stage.sent} of ${stage.total} commits sent`}
            </Text>
            <Progress value={stage.total ? (stage.sent / stage.total) * 100 : 100} animated />
          </Stack>
        )}
        {stage.kind === 'done' && (
          <Alert color="green" data-testid="repo-registered">
            {t`${stage.registered} new commits registered, ${stage.already} already registered (${stage.seconds.toFixed(1)} s).`}
          </Alert>
        )}
        {stage.kind === 'done' && stage.orphaned > 0 && (
          <Alert color="orange" data-testid="repo-force-pushed">
            {t`This push rewrote the history. Registered commits no longer on any branch or tag: ${stage.orphaned}. Their proofs stay valid.`}
          </Alert>
        )}
        {stage.kind === 'failed' && (
          <Alert color="red" data-testid="repo-failed">
            {stage.message}
          </Alert>
        )}
        <Group>
          <Button leftSection={<IconFolderOpen size={16} />} onClick={() => (canPickDirectory() ? void onPickDirectory() : input.current?.click())} disabled={isBusy || !project.can_manage} data-testid="repo-pick">
            <Trans>Choose the repository folder</Trans>
          </Button>
        </Group>
        {!project.can_manage && (
          <Text size="xs" c="dimmed">
            <Trans>Only the project's owner or an administrator registers commits.</Trans>
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** CI tokens: created by the owner or an administrator, shown once, revocable. */
function Tokens({ project }: { project: RepoProjectDto }) {
  const { t, i18n } = useLingui();
  const [shown, setShown] = useState<string | null>(null);
  const { data, reload } = useLoaded((signal) => fetchTokens(project.project_id, signal), [project.project_id]);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="repo-tokens">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            <Trans>Register from CI</Trans>
          </Title>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconKey size={14} />}
            data-testid="new-token"
            onClick={async () => {
              try {
                setShown((await createToken(project.project_id)).token);
                reload();
              } catch (error) {
                notifyError(error, i18n);
              }
            }}
          >
            <Trans>New token</Trans>
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          <Trans>In your pipeline, with the token in PROVENA_TOKEN:</Trans>
        </Text>
        <Code block style={{ overflowX: 'auto' }}>{`PROVENA_URL=${origin} provena repo push --project ${project.project_id}`}</Code>
        {data && data.length > 0 && (
          <Stack gap={4}>
            {data.map((token) => (
              <Group key={token.token_id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" ff="monospace" c={token.revoked_at ? 'dimmed' : undefined} td={token.revoked_at ? 'line-through' : undefined}>
                  {token.prefix}…
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {token.revoked_at
                    ? t`Revoked ${i18n.date(new Date(token.revoked_at), { dateStyle: 'medium' })}`
                    : token.last_used_at
                      ? t`Last used ${i18n.date(new Date(token.last_used_at), { dateStyle: 'medium', timeStyle: 'short' })}`
                      : t`Never used`}
                </Text>
                {!token.revoked_at && (
                  <Tooltip label={t`Revoke`}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t`Revoke`}
                      data-testid={`revoke-${token.token_id}`}
                      onClick={async () => {
                        try {
                          await revokeToken(project.project_id, token.token_id);
                          reload();
                        } catch (error) {
                          notifyError(error, i18n);
                        }
                      }}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <Modal opened={shown !== null} onClose={() => setShown(null)} title={t`Project token`} centered>
        <Stack gap="sm">
          <Alert color="orange">
            <Trans>Copy it now: it is shown only once. Store it as a CI secret named PROVENA_TOKEN.</Trans>
          </Alert>
          {shown && <Copyable value={shown} label={t`Project token`} testId="token-value" isWrapped />}
        </Stack>
      </Modal>
    </Card>
  );
}

function CommitRows({ project, commits }: { project: RepoProjectDto; commits: RepoCommitDto[] }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  return (
    <TableCard minWidth={720} testId="commit-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t`Commit`}</Table.Th>
          <Table.Th>{t`Author`}</Table.Th>
          <Table.Th>{t`Author time`}</Table.Th>
          <Table.Th>{t`Proof`}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {commits.map((c) => (
          <Table.Tr key={c.commit_id} data-testid={`commit-${c.commit_id}`}>
            <Table.Td>
              <Anchor component={Link} href={commitPath(project.project_id, c.commit_id)} ff="monospace" size="sm">
                {c.commit_id.slice(0, 12)}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Text size="sm" truncate maw={220}>
                {c.author_name}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{i18n.date(new Date(c.author_time), { dateStyle: 'medium', timeStyle: 'short' })}</Text>
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <ProofBadge isGenerated={c.is_generated} />
                {c.orphaned_at !== null && (
                  <Tooltip label={t`A force-push left this commit off every branch and tag; its proof stays valid.`}>
                    <Badge color="orange" variant="light" size="sm" data-testid={`orphaned-${c.commit_id}`}>
                      {t`Orphaned`}
                    </Badge>
                  </Tooltip>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              <Tooltip label={t`Download proof`}>
                <ActionIcon
                  variant="subtle"
                  aria-label={t`Download proof`}
                  disabled={!c.is_generated}
                  onClick={() => void downloadCommitProof(config.api.base, project.project_id, c).catch((error: unknown) => notifyError(error, i18n))}
                >
                  <IconDownload size={16} />
                </ActionIcon>
              </Tooltip>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </TableCard>
  );
}

/** The branches and tags the last pushes reported; picking one filters the commit list. */
function RefList({ refs, current, onPick }: { refs: RepoRefsDto; current: string | null; onPick: (ref: string | null) => void }) {
  const { t } = useLingui();
  const branches = refs.refs.filter((r) => r.kind !== 'tag');
  const tags = refs.refs.filter((r) => r.kind === 'tag');
  const chip = (r: RepoRefsDto['refs'][number]) => (
    <Tooltip key={r.name} label={`${r.name} → ${r.commit_id.slice(0, 12)}`}>
      <Button
        size="compact-sm"
        variant={current === r.name ? 'filled' : 'light'}
        color={r.kind === 'tag' ? 'grape' : 'blue'}
        leftSection={r.kind === 'tag' ? <IconTag size={14} /> : <IconGitBranch size={14} />}
        onClick={() => onPick(current === r.name ? null : r.name)}
        data-testid={`ref-${r.short_name}`}
        styles={{ label: { maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' } }}
      >
        {r.short_name}
      </Button>
    </Tooltip>
  );
  return (
    <Card withBorder radius="md" padding="lg" data-testid="repo-refs">
      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>Branches and tags</Trans>
        </Title>
        {refs.refs.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>None reported yet: they are sent with the next push.</Trans>
          </Text>
        ) : (
          <>
            <Text size="xs" c="dimmed">
              {t`Branches: ${branches.length}, tags: ${tags.length}. Pick one to list only its commits.`}
            </Text>
            <Group gap={6}>{branches.map(chip)}</Group>
            {tags.length > 0 && <Group gap={6}>{tags.map(chip)}</Group>}
          </>
        )}
      </Stack>
    </Card>
  );
}

/** The force-pushes detected on the project: which ref, from which commit to which, and the commits left unreachable. */
function ForcePushes({ refs, projectId }: { refs: RepoRefsDto; projectId: number }) {
  const { t, i18n } = useLingui();
  if (refs.force_pushes.length === 0) return null;
  return (
    <Alert color="orange" title={t`History rewritten (force-push)`} data-testid="repo-force-pushes">
      <Stack gap={6}>
        <Text size="sm">{t`Registered commits no longer on any branch or tag: ${refs.orphaned_count}. They stay registered and their proofs stay valid.`}</Text>
        {refs.force_pushes.slice(0, 5).map((f) => (
          <Text key={`${f.ref_name}-${f.detected_at}-${f.new_commit}`} size="xs" style={{ overflowWrap: 'anywhere' }}>
            {t`${i18n.date(new Date(f.detected_at), { dateStyle: 'medium', timeStyle: 'short' })}, ${f.user_name}: ${f.ref_name} moved from ${f.old_commit.slice(0, 12)} to ${f.new_commit.slice(0, 12)}`}
            {' · '}
            {t`orphaned:`}{' '}
            {f.orphaned.slice(0, 8).map((c) => (
              <Anchor key={c} component={Link} href={commitPath(projectId, c)} ff="monospace" size="xs" mr={6}>
                {c.slice(0, 7)}
              </Anchor>
            ))}
            {f.orphaned.length > 8 && t`and ${f.orphaned.length - 8} more`}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** A day typed in a date input (yyyy-mm-dd, local) as ms; the end of that day when `isEnd`. */
function dayMs(value: string, isEnd: boolean): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return isEnd ? new Date(y, m - 1, d, 23, 59, 59, 999).getTime() : new Date(y, m - 1, d).getTime();
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

/** /dashboard/repos/detail/:project_id — the project, registering its history (folder or CI) and its commits with their proofs. */
export function RepoDetailPage({ projectId }: { projectId: string }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const id = Number(projectId);
  const [page, setPage] = useState(1);
  const [author, setAuthor] = useState('');
  const [debounced] = useDebouncedValue(author.trim(), 300);
  const [ref, setRef] = useState<string | null>(null);
  const [prefix, setPrefix] = useState('');
  const [debouncedPrefix] = useDebouncedValue(prefix.trim().toLowerCase(), 300);
  const isPrefixValid = debouncedPrefix === '' || COMMIT_PREFIX_PATTERN.test(debouncedPrefix);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const fromMs = dayMs(from, false);
  const toMs = dayMs(to, true);
  const isFiltered = Boolean(debounced || ref || debouncedPrefix || fromMs !== undefined || toMs !== undefined);
  const [version, setVersion] = useState(0);
  const [missing, setMissing] = useState(false);
  const onProjectError = (error: unknown) => {
    if (isApiError(error) && error.message === 'not_found') setMissing(true);
    else notifyError(error, i18n);
  };
  const { data: project } = useLoaded(Number.isSafeInteger(id) && id > 0 ? (signal) => fetchRepo(id, signal) : null, [id, version], onProjectError);
  const { data: refs } = useLoaded(project ? (signal) => fetchRefs(id, signal) : null, [id, project === null, version]);
  const { data: commits, reload } = useLoaded(
    project && isPrefixValid
      ? (signal) =>
          fetchCommits(id, { page, page_size: config.tablePageSize, author: debounced || undefined, ref: ref ?? undefined, q: debouncedPrefix || undefined, from: fromMs, to: toMs }, signal)
      : null,
    [id, project === null, page, debounced, ref, debouncedPrefix, isPrefixValid, fromMs, toMs, version, config.tablePageSize],
  );
  const refOptions = (refs?.refs ?? []).map((r) => ({ value: r.name, label: r.kind === 'tag' ? t`tag ${r.short_name}` : r.short_name }));
  useProofPoll(Boolean(commits?.items.some((c) => !c.is_generated)), reload);

  const trail = (
    <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap' } }}>
      <Anchor component={Link} href={REPOS_PATH} size="sm">
        <Trans>Source-code projects</Trans>
      </Anchor>
      {project && (
        <Text size="sm" c="dimmed" truncate maw={260}>
          {project.name}
        </Text>
      )}
    </Breadcrumbs>
  );
  if (missing || !(id > 0)) {
    return (
      <Stack gap="lg">
        {trail}
        <Paper withBorder radius="md" p="xl" data-testid="repo-missing">
          <Title order={1} size="h3">
            <Trans>Project not found</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>This project does not exist, or you may not see it.</Trans>
          </Text>
        </Paper>
      </Stack>
    );
  }
  if (!project) return <PageLoader />;
  return (
    <Stack gap="lg">
      {trail}
      <Stack gap={4}>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }} data-testid="repo-name">
          {project.name}
        </Title>
        {project.description && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {project.description}
          </Text>
        )}
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Field label={t`Project DNA`}>
          <Copyable value={project.dip_id} label={t`Project DNA`} />
        </Field>
        <Field label={t`Owner`}>
          <Text size="sm">{project.owner_name}</Text>
        </Field>
        <Field label={t`Commits registered`}>
          <Text size="sm" data-testid="repo-commit-count">
            {project.commit_count}
          </Text>
        </Field>
        <Field label={t`Repository`}>
          {project.url ? (
            <Text size="sm" ff="monospace">
              {project.url}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t`Not given`}
            </Text>
          )}
        </Field>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: project.can_manage ? 2 : 1 }} spacing="md">
        <RegisterFromFolder project={project} onRegistered={() => setVersion((v) => v + 1)} />
        {project.can_manage && <Tokens project={project} />}
      </SimpleGrid>
      {refs && <ForcePushes refs={refs} projectId={id} />}
      {refs && (
        <RefList
          refs={refs}
          current={ref}
          onPick={(value) => {
            setRef(value);
            setPage(1);
          }}
        />
      )}
      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>Commits</Trans>
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="xs" data-testid="commit-filters">
          <Select
            data={refOptions}
            value={ref}
            onChange={(value) => {
              setRef(value);
              setPage(1);
            }}
            clearable
            searchable
            placeholder={t`All branches and tags`}
            label={t`Branch or tag`}
            leftSection={<IconGitBranch size={16} />}
            data-testid="filter-ref"
          />
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t`Filter by author`}
            label={t`Author`}
            value={author}
            onChange={(event) => {
              setAuthor(event.currentTarget.value);
              setPage(1);
            }}
          />
          <TextInput
            placeholder={t`7+ hex characters`}
            label={t`Commit id`}
            value={prefix}
            ff="monospace"
            error={isPrefixValid ? undefined : t`Type at least 7 characters of the commit id (0–9, a–f).`}
            onChange={(event) => {
              setPrefix(event.currentTarget.value);
              setPage(1);
            }}
            data-testid="filter-commit"
          />
          <TextInput
            type="date"
            label={t`Author time from`}
            value={from}
            onChange={(event) => {
              setFrom(event.currentTarget.value);
              setPage(1);
            }}
            data-testid="filter-from"
          />
          <TextInput
            type="date"
            label={t`Author time to`}
            value={to}
            onChange={(event) => {
              setTo(event.currentTarget.value);
              setPage(1);
            }}
            data-testid="filter-to"
          />
        </SimpleGrid>
      </Stack>
      {commits && commits.items.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="no-commits">
          {isFiltered ? <Trans>No commit matches these filters</Trans> : <Trans>No commits registered yet.</Trans>}
        </Text>
      ) : (
        commits && <CommitRows project={project} commits={commits.items} />
      )}
      <ListPager data={commits} page={page} onChange={setPage} testId="commit-pager" />
    </Stack>
  );
}
