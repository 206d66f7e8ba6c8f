import { Alert, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Trans } from '@lingui/react/macro';
import type { GptInfo } from '../../../core/gpt.ts';

/** What answers come from: said on every assistant screen, and plainly when an outside model writes them. */
export function SourceNote({ info }: { info: GptInfo | null }) {
  if (!info) return null;
  if (info.engine === 'builtin') {
    return (
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} data-testid="gpt-source-note" data-engine="builtin" p="xs">
        <Text size="sm">
          <Trans>The assistant answers from the platform’s help pages and from your own data in this company (only what you may see). It uses no outside service. An administrator can connect an OpenAI-compatible language model with LLM_BASE_URL, LLM_API_KEY and LLM_MODEL.</Trans>
        </Text>
      </Alert>
    );
  }
  const model = info.model ?? '';
  return (
    <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} />} data-testid="gpt-source-note" data-engine="openai" p="xs">
      <Text size="sm">
        <Trans>An outside language model ({model}) writes the answers, from the platform’s help pages and your own data in this company. Phone and ID numbers are masked before anything is sent.</Trans>{' '}
        {info.sends_enterprise_data ? <Trans>File names, metadata and vault data are sent to it.</Trans> : <Trans>File names, metadata and vault data are not sent to it.</Trans>}
      </Text>
    </Alert>
  );
}
