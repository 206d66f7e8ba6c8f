import { ActionIcon, Badge, CopyButton, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { toMillis } from '../../../core/constants.ts';
import type { AssetType } from '../../../core/assets.ts';
import { ASSET_TYPE_LABELS } from './asset-labels.ts';

/** §3 proof status: 1–4 generating (with a spinner), 5–6 generated. */
export function ProofBadge({ isGenerated, size = 'sm' }: { isGenerated: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useLingui();
  return isGenerated ? (
    <Badge color="green" variant="light" tt="none" size={size} data-testid="proof-status" data-generated="true" style={{ flexShrink: 0 }}>
      {t`Generated`}
    </Badge>
  ) : (
    <Badge color="orange" variant="light" tt="none" size={size} leftSection={<Loader size={10} color="orange" />} data-testid="proof-status" data-generated="false" style={{ flexShrink: 0 }}>
      {t`Generating`}
    </Badge>
  );
}

export function typeLabel(type: number, i18n: I18n): string {
  const label = ASSET_TYPE_LABELS[type as AssetType];
  return label ? i18n._(label) : String(type);
}

/** §3: timestamps may come in seconds or milliseconds; values above 9999999999 are milliseconds. */
export function formatTime(ts: number, i18n: I18n, style: 'short' | 'medium' = 'short'): string {
  return i18n.date(new Date(toMillis(ts)), { dateStyle: 'medium', timeStyle: style });
}

/** A long value (DNA, fingerprint) on one line, cut with an ellipsis, with a copy button. */
export function Copyable({ value, label, testId, size = 'sm', isWrapped = false }: { value: string; label: string; testId?: string; size?: 'xs' | 'sm'; isWrapped?: boolean }) {
  const { t } = useLingui();
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }} align={isWrapped ? 'flex-start' : 'center'}>
      <Text size={size} ff="monospace" truncate={isWrapped ? undefined : 'end'} title={value} style={{ minWidth: 0, overflowWrap: isWrapped ? 'anywhere' : undefined }} data-testid={testId}>
        {value}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t`Copied` : t`Copy ${label}`} withArrow>
            <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={t`Copy ${label}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
