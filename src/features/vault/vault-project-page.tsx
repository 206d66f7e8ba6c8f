import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, FileInput, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEdit, IconFileUpload, IconHistory } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { Link, useSearch } from 'wouter';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { isApiError } from '@/api/client.ts';
import { describeError } from '@/api/error-messages.ts';
import { Copyable } from '@/components/copyable.tsx';
import { ListPager } from '@/components/paged-list.tsx';
import { applyRuleVerdicts } from '@/components/form-rules.ts';
import { ProofBadge, useProofPoll } from '@/components/proof-status.tsx';
import { WorkProgress } from '@/components/progress/work-progress.tsx';
import { useFileHash } from '@/components/progress/use-file-hash.ts';
import { formatBytes } from '@/components/progress/format.ts';
import { useConfig } from '@/config/config-atom.ts';
import { registrationPrice } from '../../../core/credits.ts';
import { checkVaultFileName, type VaultFileDto, type VaultProjectDto } from '../../../core/vault.ts';
import { downloadProof, fetchFiles, fetchProject, isVaultExpired, registerFile } from './vault-api.ts';
import { useVaultGate } from './use-vault-gate.ts';
import { VaultShell } from './vault-shell.tsx';
import { ProjectFormModal } from './project-form-modal.tsx';
import type { Paged } from '../../../core/api-types.ts';

function FileCard({ file, onDownload, isLocated = false }: { file: VaultFileDto; onDownload: (file: VaultFileDto) => Promise<void>; isLocated?: boolean }) {
  const { t, i18n } = useLingui();
  const [isBusy, setIsBusy] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  // A search led here (project route with dip_id): bring the file into view once.
  useEffect(() => {
    if (isLocated) card.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [isLocated]);
  const registered = i18n.date(new Date(file.registered_at), { dateStyle: 'medium', timeStyle: 'medium' });
  const size = formatBytes(file.size);
  const height = file.block_height;
  return (
    <Card
      ref={card}
      withBorder
      radius="md"
      padding="md"
      data-testid={`file-${file.name}`}
      data-located={isLocated || undefined}
      aria-current={isLocated || undefined}
      style={isLocated ? { borderColor: 'var(--mantine-color-brand-5)', boxShadow: '0 0 0 2px var(--mantine-color-brand-1)' } : undefined}
    >
      {isLocated && (
        <Badge variant="light" color="brand" tt="none" mb={8} data-testid="located-badge">
          {t`Search result`}
        </Badge>
      )}
      <Stack gap={8}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {file.name}
          </Text>
          <ProofBadge isGenerated={file.is_generated} size="md" />
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={6} verticalSpacing={4}>
          <div style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">{t`Digital asset DNA`}</Text>
            <Copyable value={file.dip_id} label={t`DNA`} testId="file-dna" size="xs" />
          </div>
          <div style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">{t`File fingerprint (SHA-256)`}</Text>
            <Copyable value={file.file_hash} label={t`fingerprint`} size="xs" />
          </div>
        </SimpleGrid>
        <Group gap="lg" wrap="wrap">
          <Text size="xs" c="dimmed">
            {t`Registered by ${file.registrant_name} · ${registered} · ${size}`}
          </Text>
          {height !== null ? (
            <Anchor component={Link} href={`/explorer/blocks/${height}`} size="xs" data-testid="file-block">
              {t`Block #${height}`}
            </Anchor>
          ) : (
            <Text size="xs" c="dimmed">
              {t`Waiting for the next block`}
            </Text>
          )}
        </Group>
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            disabled={!file.is_generated}
            loading={isBusy}
            onClick={async () => {
              setIsBusy(true);
              try {
                await onDownload(file);
              } finally {
                setIsBusy(false);
              }
            }}
            data-testid="download-proof"
          >
            <Trans>Download proof (PDF)</Trans>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

type RegisterValues = { file: File | null; name: string };

/** Hashes the chosen file in workers (progress, cancel), then registers only its fingerprint. */
function RegisterPanel({ project, onRegistered, onVaultExpired }: { project: VaultProjectDto; onRegistered: (file: VaultFileDto) => void; onVaultExpired: () => void }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const form = useForm<RegisterValues>({ mode: 'controlled', initialValues: { file: null, name: '' } });
  const { progress, hash, cancel } = useFileHash(t`Hashing cancelled, nothing was registered`);
  const [isSending, setIsSending] = useState(false);
  /** §8 integrals_not_enough: said beside the form (not in a passing toast), with the way to the credits. */
  const [creditsProblem, setCreditsProblem] = useState<string | null>(null);
  // §9: what the registering member pays; nothing when the deployment does not require credits.
  const cost = registrationPrice(config, 'vault_file');

  const onSubmit = form.onSubmit(async (values) => {
    const isValid = applyRuleVerdicts(form, { file: values.file ? null : { message: msg`Please choose a file to register` }, name: checkVaultFileName(values.name) }, i18n);
    if (!isValid || !values.file) return;
    const file = values.file;
    const hashed = await hash(file);
    if (!hashed) return;
    const identity = hashed.identity;
    setIsSending(true);
    setCreditsProblem(null);
    try {
      const registered = await registerFile(project.project_id, { name: values.name.trim(), file_hash: identity, size: file.size });
      form.reset();
      notifications.show({ color: 'green', message: t`Registered. The proof certificate is being generated.` });
      onRegistered(registered);
    } catch (error) {
      if (isVaultExpired(error)) onVaultExpired();
      else if (isApiError(error) && error.key === 'integrals_not_enough') setCreditsProblem(describeError(error, i18n));
      else applyServerErrors(form, error, { i18n, fieldAliases: { file_hash: 'file' } });
    } finally {
      setIsSending(false);
    }
  });

  const isHashing = progress !== null;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="form" onSubmit={onSubmit} noValidate data-testid="register-form">
      <Stack gap="md">
        <Group gap="xs">
          <IconFileUpload size={20} />
          <Title order={2} size="h4">
            <Trans>Register a file</Trans>
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {cost > 0 ? (
            <Trans>The file is fingerprinted in your browser; the file itself never leaves your computer. Registering costs {cost} credits.</Trans>
          ) : (
            <Trans>The file is fingerprinted in your browser; the file itself never leaves your computer.</Trans>
          )}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <FileInput
            label={t`File`}
            required
            placeholder={t`Choose a file`}
            clearable
            disabled={isHashing || isSending}
            {...form.getInputProps('file')}
            onChange={(file) => {
              form.setFieldValue('file', file);
              form.clearFieldError('file');
              if (file && !form.values.name.trim()) form.setFieldValue('name', file.name.slice(0, 100));
            }}
            data-testid="register-file-input"
          />
          <TextInput label={t({ message: 'Name', context: 'name of a file' })} required placeholder={t`How the file is listed`} disabled={isHashing || isSending} {...form.getInputProps('name')} />
        </SimpleGrid>
        {creditsProblem && (
          <Alert color="orange" data-testid="register-credits-problem" withCloseButton onClose={() => setCreditsProblem(null)}>
            <Text size="sm">{creditsProblem}</Text>
            <Anchor component={Link} href="/dashboard/credit" size="sm">
              <Trans>See my credits</Trans>
            </Anchor>
          </Alert>
        )}
        {progress && <WorkProgress label={t`Fingerprinting ${form.values.file?.name ?? ''}`} value={progress} onCancel={cancel} />}
        <Group justify="flex-end">
          <Button type="submit" loading={isSending} disabled={isHashing} data-testid="register-submit">
            {cost > 0 ? <Trans>Register ({cost} credits)</Trans> : <Trans context="register a file on the ledger">Register</Trans>}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /dashboard/vault/project/:projectId: the project, its files and their proofs, and registering more. */
export function VaultProjectPage({ projectId }: { projectId: string }) {
  const { t, i18n } = useLingui();
  const gate = useVaultGate();
  const config = useConfig();
  const id = Number(projectId);
  const [project, setProject] = useState<VaultProjectDto | null>(null);
  const [isMissing, setIsMissing] = useState(false);
  const [files, setFiles] = useState<Paged<VaultFileDto> | null>(null);
  // §2 named route project (projectId, dip_id): the file a search found, located on its page.
  const locatedDip = new URLSearchParams(useSearch()).get('dip_id');
  const [page, setPage] = useState<number | null>(locatedDip ? null : 1);
  const [isEditing, setIsEditing] = useState(false);
  const isOpen = Boolean(gate.authorization);
  const { onError } = gate;

  useEffect(() => {
    if (!isOpen) return;
    if (!Number.isInteger(id) || id < 1) {
      setIsMissing(true);
      return;
    }
    const controller = new AbortController();
    fetchProject(id, controller.signal)
      .then(setProject)
      .catch((error: unknown) => {
        if ((error as Error)?.name === 'AbortError') return;
        if ((error as { key?: string })?.key === 'not_found') setIsMissing(true);
        else onError(error);
      });
    return () => controller.abort();
  }, [isOpen, id, onError]);

  const loadFiles = useCallback(
    (signal?: AbortSignal) =>
      fetchFiles(id, page === null ? { page_size: config.tablePageSize, dip_id: locatedDip ?? undefined } : { page, page_size: config.tablePageSize }, signal)
        .then((result) => {
          setFiles(result);
          if (page === null) setPage(result.page);
        })
        .catch((error: unknown) => {
          if ((error as Error)?.name !== 'AbortError') onError(error);
        }),
    [id, page, locatedDip, config.tablePageSize, onError],
  );

  useEffect(() => {
    if (!project) return;
    const controller = new AbortController();
    void loadFiles(controller.signal);
    return () => controller.abort();
  }, [project, loadFiles]);

  useProofPoll(Boolean(files?.items.some((f) => !f.is_generated)), () => void loadFiles());

  const onDownload = async (file: VaultFileDto) => {
    try {
      await downloadProof(config.api.base, file);
    } catch (error) {
      onError(error);
    }
  };

  if (isMissing) {
    return (
      <VaultShell gate={gate} title={t`Project not found`} trail={[{ label: t`Trade-secret vault`, href: '/dashboard/vault' }]}>
        <Text c="dimmed">
          <Trans>This project does not exist, or you may not see it.</Trans>
        </Text>
      </VaultShell>
    );
  }

  const created = project ? i18n.date(new Date(project.created_at), { dateStyle: 'medium' }) : '';
  return (
    <VaultShell
      gate={gate}
      title={project?.name ?? '…'}
      trail={[{ label: t`Trade-secret vault`, href: '/dashboard/vault' }, { label: project?.name ?? '' }]}
      actions={
        project && (
          <>
            <Button variant="default" size="xs" component={Link} href={`/dashboard/vault/log/${project.project_id}`} leftSection={<IconHistory size={14} />}>
              <Trans>Project log</Trans>
            </Button>
            {project.is_editable && (
              <Button variant="default" size="xs" leftSection={<IconEdit size={14} />} onClick={() => setIsEditing(true)} data-testid="edit-project">
                <Trans>Edit</Trans>
              </Button>
            )}
          </>
        )
      }
    >
      {project && (
        <>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Text size="sm" c={project.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="project-description">
              {project.description || t`No description`}
            </Text>
            <Text size="xs" c="dimmed" mt="xs">
              {t`Owner: ${project.owner_name} · created ${created}`}
            </Text>
          </Paper>
          {project.is_editable && <RegisterPanel project={project} onRegistered={() => void loadFiles()} onVaultExpired={() => gate.toUnlock('expired')} />}
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t`Files (${files?.total ?? 0})`}
            </Title>
            {files && files.items.length === 0 && (
              <Text c="dimmed" size="sm">
                <Trans>No files registered in this project yet.</Trans>
              </Text>
            )}
            <Stack gap="sm" data-testid="file-list">
              {files?.items.map((file) => <FileCard key={file.file_id} file={file} onDownload={onDownload} isLocated={file.dip_id === locatedDip} />)}
            </Stack>
            <ListPager data={files} page={page ?? 1} onChange={setPage} />
          </Stack>
          <ProjectFormModal
            opened={isEditing}
            project={project}
            onClose={() => setIsEditing(false)}
            onSaved={(saved) => {
              setIsEditing(false);
              setProject(saved);
            }}
            onVaultExpired={() => gate.toUnlock('expired')}
          />
        </>
      )}
    </VaultShell>
  );
}
