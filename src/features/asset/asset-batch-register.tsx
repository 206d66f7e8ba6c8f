import { memo, useEffect, useRef, useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Card, Group, Loader, Paper, Progress, ScrollArea, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconCoins, IconFiles, IconFolder, IconTrash, IconX } from '@tabler/icons-react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { describeError, errorKeyText, serverErrorMessage } from '@/api/error-messages.ts';
import { WorkProgress, type WorkProgressValue } from '@/components/progress/work-progress.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import { hashFiles } from '../../../workers/hash/hash-service.ts';
import { ASSET_TYPE_VALUES } from '../../../core/assets.ts';
import { registerAssets } from './asset-api.ts';
import { useAssetPrice } from './use-asset-price.ts';
import { typeLabel } from './asset-parts.tsx';
import { assetDetailPath } from './asset-labels.ts';
import { isFinished, newBatchRows, runBatch, type BatchRow } from './batch-runner.ts';

/** Most files one batch takes on screen (a row each); a bigger folder is registered in parts. */
const BATCH_FILES_MAX = 5000;
/** Operating-system files a folder pick brings along that nobody means to register. */
const SYSTEM_FILES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);
/** Row updates reach the screen at most this often (thousands of small files hash in a second). */
const FLUSH_MS = 150;

type Phase = 'choosing' | 'running' | 'done';

function RowStatus({ row }: { row: BatchRow }) {
  const { t, i18n } = useLingui();
  switch (row.status) {
    case 'waiting':
      return <Text size="xs" c="dimmed">{t`Waiting`}</Text>;
    case 'hashing': {
      const percent = row.file.size > 0 ? (row.bytes / row.file.size) * 100 : 0;
      return (
        <Stack gap={2} miw={120}>
          <Text size="xs" c="dimmed">{t`Fingerprinting ${Math.floor(percent)}%`}</Text>
          <Progress value={percent} size="xs" />
        </Stack>
      );
    }
    case 'queued':
    case 'sending':
      return (
        <Group gap={6} wrap="nowrap">
          <Loader size={12} />
          <Text size="xs" c="dimmed">{t`Registering`}</Text>
        </Group>
      );
    case 'registered':
      return (
        <Group gap={6} wrap="nowrap">
          <Badge color="green" variant="light" tt="none">
            {t`Registered`}
          </Badge>
          {row.asset && (
            <Anchor component={Link} href={assetDetailPath(row.asset.dip_id)} size="xs" data-testid="batch-row-link">
              {t`View`}
            </Anchor>
          )}
        </Group>
      );
    case 'refused':
      return (
        <Text size="xs" c="red" data-testid="batch-row-message">
          {row.message === 'server error' ? serverErrorMessage(500, i18n) : errorKeyText(row.message ?? '', i18n)}
        </Text>
      );
    case 'failed':
      return (
        <Text size="xs" c="red" data-testid="batch-row-message">
          {row.error ? describeError(row.error, i18n) : t`The file could not be read`}
        </Text>
      );
    case 'cancelled':
      return <Text size="xs" c="dimmed">{t`Cancelled`}</Text>;
  }
}

const Row = memo(function Row({ row, index, onRemove }: { row: BatchRow; index: number; onRemove?: (index: number) => void }) {
  const { t } = useLingui();
  const path = row.file.webkitRelativePath;
  return (
    <Table.Tr data-testid={`batch-row-${row.name}`} data-status={row.status}>
      <Table.Td style={{ maxWidth: 360, minWidth: 0 }}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {row.name}
        </Text>
        {path && path !== row.file.name && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {path}
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(row.file.size)}</Table.Td>
      <Table.Td>
        <RowStatus row={row} />
      </Table.Td>
      {onRemove && (
        <Table.Td w={40}>
          <Tooltip label={t`Remove from the list`} withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={() => onRemove(index)} aria-label={t`Remove ${row.name} from the list`}>
              <IconX size={14} />
            </ActionIcon>
          </Tooltip>
        </Table.Td>
      )}
    </Table.Tr>
  );
});

/**
 * Registering many files at once (multi-select or a whole folder): one type for all, every
 * file hashed in the worker pool and registered as soon as its fingerprint is known, a row per
 * file with its progress and then its result; cancel stops what has not been sent yet.
 */
export function AssetBatchRegister() {
  const { t, i18n } = useLingui();
  const { price: cost, available, reload: reloadCredits } = useAssetPrice();
  const [files, setFiles] = useState<File[]>([]);
  const [rows, setRows] = useState<BatchRow[]>([]);
  const [type, setType] = useState<string | null>(null);
  const [typeError, setTypeError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('choosing');
  const [progress, setProgress] = useState<WorkProgressValue | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const pending = useRef<readonly BatchRow[] | null>(null);
  const flushTimer = useRef<number | null>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(
    () => () => {
      abort.current?.abort();
      if (flushTimer.current) window.clearTimeout(flushTimer.current);
    },
    [],
  );

  const addFiles = (picked: FileList | null) => {
    if (!picked || picked.length === 0) return;
    const chosen = Array.from(picked).filter((f) => !SYSTEM_FILES.has(f.name.toLowerCase()));
    const room = BATCH_FILES_MAX - files.length;
    const taken = chosen.slice(0, Math.max(0, room));
    setNotice(chosen.length > taken.length ? t`At most ${BATCH_FILES_MAX} files at a time; left out: ${chosen.length - taken.length}` : null);
    setFiles((f) => [...f, ...taken]);
    setRows((r) => [...r, ...newBatchRows(taken)]);
  };

  const onRemove = (index: number) => {
    setFiles((f) => f.filter((_, i) => i !== index));
    setRows((r) => r.filter((_, i) => i !== index));
  };

  const flush = (next: readonly BatchRow[]) => {
    pending.current = next;
    if (flushTimer.current !== null) return;
    flushTimer.current = window.setTimeout(() => {
      flushTimer.current = null;
      if (pending.current) setRows([...pending.current]);
    }, FLUSH_MS);
  };

  const onStart = async () => {
    if (type === null) {
      setTypeError(t`Please choose the type of the asset`);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setPhase('running');
    setProgress({ bytes: 0, totalBytes: files.reduce((n, f) => n + f.size, 0), mbPerSecond: 0, secondsLeft: null, filesDone: 0, totalFiles: files.length });
    const finished = await runBatch(files, rows, { hashFiles, register: (items) => registerAssets(items) }, { type: Number(type), signal: controller.signal, onRows: flush, onProgress: setProgress });
    if (flushTimer.current !== null) window.clearTimeout(flushTimer.current);
    flushTimer.current = null;
    pending.current = null;
    setRows(finished);
    reloadCredits();
    setProgress(null);
    abort.current = null;
    setPhase('done');
  };

  const onReset = () => {
    setFiles([]);
    setRows([]);
    setPhase('choosing');
    setNotice(null);
  };

  const registered = rows.filter((r) => r.status === 'registered').length;
  const refused = rows.filter((r) => r.status === 'refused' || r.status === 'failed').length;
  const cancelled = rows.filter((r) => r.status === 'cancelled').length;
  const finishedCount = rows.filter((r) => isFinished(r.status)).length;
  const isHashing = progress !== null && (progress.filesDone ?? 0) < (progress.totalFiles ?? 0);
  const typeOptions = ASSET_TYPE_VALUES.map((v) => ({ value: String(v), label: typeLabel(v, i18n) }));
  const total = files.length * cost;
  const charged = rows.reduce((n, r) => n + (r.asset?.credits ?? 0), 0);
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="asset-batch" data-phase={phase}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <Trans>Choose many files or a whole folder. Each file is fingerprinted in your browser and registered as an asset of its own, with its own result.</Trans>
        </Text>
        <input ref={filesInput} type="file" multiple hidden onChange={(e) => (addFiles(e.currentTarget.files), (e.currentTarget.value = ''))} data-testid="batch-files-input" />
        <input
          ref={(el) => {
            folderInput.current = el;
            el?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          multiple
          hidden
          onChange={(e) => (addFiles(e.currentTarget.files), (e.currentTarget.value = ''))}
          data-testid="batch-folder-input"
        />
        {phase === 'choosing' && (
          <Group gap="sm" wrap="wrap" align="flex-end">
            <Button variant="default" leftSection={<IconFiles size={16} />} onClick={() => filesInput.current?.click()} data-testid="batch-choose-files">
              <Trans>Choose files</Trans>
            </Button>
            <Button variant="default" leftSection={<IconFolder size={16} />} onClick={() => folderInput.current?.click()} data-testid="batch-choose-folder">
              <Trans>Choose a folder</Trans>
            </Button>
            <Select
              label={t`Type of these assets`}
              required
              placeholder={t`Choose a type`}
              data={typeOptions}
              value={type}
              onChange={(value) => {
                setType(value);
                setTypeError(null);
              }}
              error={typeError}
              w={{ base: '100%', xs: 240 }}
              data-testid="batch-type-input"
            />
          </Group>
        )}
        {phase === 'choosing' && cost > 0 && available !== null && files.length > 0 && available < total && (
          <Text size="sm" c="orange" data-testid="batch-credits-short">
            {t`Your credits cover ${Math.floor(available / cost)} of these files; the rest will be refused (not enough credits).`}
          </Text>
        )}
        {notice && (
          <Text size="sm" c="orange">
            {notice}
          </Text>
        )}
        {rows.length > 0 && (
          <Card withBorder radius="md" padding={0}>
            <ScrollArea.Autosize mah={420} type="auto" scrollbars="y">
              <Table verticalSpacing={6} striped data-testid="batch-rows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t`File`}</Table.Th>
                    <Table.Th>{t`File size`}</Table.Th>
                    <Table.Th>{t`Result`}</Table.Th>
                    {phase === 'choosing' && <Table.Th w={40} />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row, index) => (
                    <Row key={index} row={row} index={index} onRemove={phase === 'choosing' ? onRemove : undefined} />
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </Card>
        )}
        {phase === 'running' && progress && isHashing && <WorkProgress label={t`Fingerprinting the files`} value={progress} onCancel={() => abort.current?.abort()} />}
        {phase === 'running' && !isHashing && (
          <Group gap="xs" wrap="nowrap" data-testid="batch-sending">
            <Loader size="sm" />
            <Text size="sm">{t`Registering… ${finishedCount} / ${rows.length} done`}</Text>
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => abort.current?.abort()}>
              <Trans>Cancel</Trans>
            </Button>
          </Group>
        )}
        {phase === 'done' && (
          <Text size="sm" fw={500} data-testid="batch-summary" data-registered={registered} data-refused={refused} data-cancelled={cancelled}>
            {t`Registered: ${registered} · not registered: ${refused}`}
            {cancelled > 0 && ` · ${t`cancelled: ${cancelled}`}`}
          </Text>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap={6} wrap="nowrap">
            <IconCoins size={16} />
            <Text size="sm" data-testid="batch-price">
              {phase === 'done'
                ? t`Charged: ${i18n.number(charged)} credits`
                : cost === 0
                  ? t`Registering is free`
                  : files.length > 0
                    ? t`${files.length} × ${cost} credits = ${i18n.number(total)} credits`
                    : t`Each file costs ${cost} credits`}
              {available !== null && cost > 0 && (
                <Text span size="sm" c="dimmed">
                  {` · ${t`available: ${i18n.number(available)}`}`}
                </Text>
              )}
            </Text>
          </Group>
          {phase === 'choosing' && (
            <Group gap="sm">
              {files.length > 0 && (
                <Button variant="subtle" color="gray" leftSection={<IconTrash size={16} />} onClick={onReset}>
                  <Trans>Clear the list</Trans>
                </Button>
              )}
              <Button onClick={() => void onStart()} disabled={files.length === 0} data-testid="batch-submit">
                <Plural value={files.length} one="Register # file" other="Register # files" />
              </Button>
            </Group>
          )}
          {phase === 'done' && (
            <Button variant="default" onClick={onReset} data-testid="batch-again">
              <Trans>Register more files</Trans>
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
