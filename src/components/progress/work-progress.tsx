import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';

export type WorkProgressValue = {
  bytes: number;
  totalBytes: number;
  mbPerSecond: number;
  secondsLeft: number | null;
  filesDone?: number;
  totalFiles?: number;
};

type Props = {
  label: string;
  value: WorkProgressValue;
  onCancel?: () => void;
};

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (binary multiples, one decimal). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** 75 → "1:15"; 3725 → "1:02:05". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

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
