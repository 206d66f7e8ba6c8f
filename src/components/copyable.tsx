import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/**
 * A long value (DNA, fingerprint, serial number, signature) in monospace with a copy button:
 * on one line cut with an ellipsis, or `isWrapped` across lines.
 */
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
