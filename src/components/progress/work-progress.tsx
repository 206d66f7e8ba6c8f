import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatBytes, formatDuration } from './format.ts';
import type { HashProgress } from '../../../workers/hash/hash-service.ts';

/** The hashing service's progress shape serves uploads too. */
export type WorkProgressValue = HashProgress;

type Props = {
  label: string;
  value: WorkProgressValue;
  onCancel?: () => void;
};

/** Progress of long work (hashing, uploading): bytes, speed, time left, and cancel. */
export function WorkProgress({ label, value, onCancel }: Props) {
  const { t } = useLingui();
  const percent = value.totalBytes > 0 ? Math.min(100, (value.bytes / value.totalBytes) * 100) : 0;
  const done = formatBytes(value.bytes);
  const total = formatBytes(value.totalBytes);
  const speed = value.mbPerSecond.toFixed(1);
  const left = value.secondsLeft === null ? null : formatDuration(value.secondsLeft);
  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} truncate>
          {label}
        </Text>
        {onCancel && (
          <Button size="compact-sm" variant="subtle" color="red" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        )}
      </Group>
      <Progress value={percent} aria-label={t`${label}: ${Math.floor(percent)}%`} animated={percent < 100} />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t`${done} of ${total}`}
          {value.totalFiles !== undefined && ` · ${t`${value.filesDone ?? 0} of ${value.totalFiles} files`}`}
        </Text>
        <Text size="xs" c="dimmed">
          {t`${speed} MB/s`}
          {left !== null && ` · ${t`${left} left`}`}
        </Text>
      </Group>
    </Stack>
  );
}
