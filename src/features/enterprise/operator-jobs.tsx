import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import type { OperatorJobDto } from '../../../core/api-types.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { fetchOperatorJobs } from './enterprise-api.ts';

const JOB_NAMES: Record<string, MessageDescriptor> = {
  'proofs.render': msg`Certificate rendering`,
  'score.recompute': msg`Score recompute`,
  'ledger.anchor': msg`Checkpoint anchoring`,
  'cleanup.sessions': msg`Expired sessions and codes cleanup`,
};

const JOB_STATES: Record<OperatorJobDto['state'], { label: MessageDescriptor; color: string }> = {
  queued: { label: msg`Waiting`, color: 'gray' },
  active: { label: msg`Running`, color: 'blue' },
  retry: { label: msg`Retrying`, color: 'orange' },
  completed: { label: msg`Done`, color: 'green' },
  failed: { label: msg`Failed`, color: 'red' },
  cancelled: { label: msg`Cancelled`, color: 'gray' },
};

/** The background jobs: what runs or ran, how often it was tried and why it last failed. */
export function OperatorJobs() {
  const { t, i18n } = useLingui();
  const { data, reload } = useLoaded(() => fetchOperatorJobs(), []);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {data?.backend === 'pg-boss' ? (
            <Trans>Jobs run on the workers (PostgreSQL queue); a failed job is retried with growing waits.</Trans>
          ) : (
            <Trans>Jobs run in this server process; a failed job is retried with growing waits.</Trans>
          )}
        </Text>
        <Button variant="default" size="xs" onClick={reload} data-testid="operator-jobs-reload">
          <Trans>Refresh</Trans>
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="operator-jobs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Job`}</Table.Th>
              <Table.Th>{t`State`}</Table.Th>
              <Table.Th>{t`Attempts`}</Table.Th>
              <Table.Th>{t`Last error`}</Table.Th>
              <Table.Th>{t`Updated`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.items ?? []).map((job) => {
              const name = JOB_NAMES[job.name];
              const state = JOB_STATES[job.state];
              return (
                <Table.Tr key={job.id} data-testid={`operator-job-${job.id}`} data-state={job.state}>
                  <Table.Td>{name ? i18n._(name) : job.name}</Table.Td>
                  <Table.Td>
                    <Badge color={state.color} variant="light">
                      {i18n._(state.label)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{job.attempts}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{job.last_error ?? ''}</Table.Td>
                  <Table.Td>{new Date(job.updated_at).toLocaleString(i18n.locale)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.items.length === 0 && <Text c="dimmed">{t`No jobs yet.`}</Text>}
    </Stack>
  );
}
