import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Copyable } from '@/components/copyable.tsx';
import type { ApplicationState } from '../../../core/applications.ts';
import { STATE_COLORS, STATE_LABELS } from './application-labels.ts';
import type { CreatedKey } from './application-api.ts';

export function StateBadge({ state, size = 'sm' }: { state: ApplicationState; size?: 'sm' | 'md' | 'lg' }) {
  const { i18n } = useLingui();
  return (
    <Badge color={STATE_COLORS[state]} variant="light" size={size} data-testid="application-state" data-state={state}>
      {i18n._(STATE_LABELS[state])}
    </Badge>
  );
}

export function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

/** The secret of a new key, shown once: copy it now, it is never shown again. */
export function SecretModal({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  const { t } = useLingui();
  const [isCopied, setIsCopied] = useState(false);
  return (
    <Modal opened={created !== null} onClose={onClose} title={t`Credentials of the application`} size="lg" closeOnClickOutside={false}>
      {created && (
        <Stack gap="md" data-testid="application-secret">
          <Alert color="orange" icon={<IconAlertTriangle size={18} />}>
            <Trans>Copy the secret now: it is shown only this once. Whoever holds it can register files in your enterprise's name.</Trans>
          </Alert>
          <Group gap="xl" wrap="wrap">
            <Stack gap={2}>
              <Text size="xs" c="dimmed">
                <Trans>Application ID</Trans>
              </Text>
              <Code data-testid="secret-application-id">{created.application_id}</Code>
            </Stack>
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed">
                PROVENA_APP_KEY_ID
              </Text>
              <Copyable value={created.key_id} label={t`key ID`} testId="secret-key-id" />
            </Stack>
          </Group>
          <Stack gap={2} style={{ minWidth: 0 }} onCopy={() => setIsCopied(true)}>
            <Text size="xs" c="dimmed">
              PROVENA_APP_SECRET
            </Text>
            <Copyable value={created.secret} label={t`secret`} testId="secret-value" isWrapped />
          </Stack>
          <Text size="sm" c="dimmed">
            <Trans>Run the agent on the machine that produces the files:</Trans>
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {`PROVENA_URL=${location.origin} PROVENA_APP_KEY_ID=${created.key_id} PROVENA_APP_SECRET=… npx provena agent --app ${created.application_id} --watch /path/to/folder`}
          </Code>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="secret-done" variant={isCopied ? 'filled' : 'light'}>
              <Trans>I have saved the secret</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
