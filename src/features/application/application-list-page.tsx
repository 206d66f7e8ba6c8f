import { useState } from 'react';
import { Anchor, Button, Card, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useLoaded } from '@/api/use-loaded.ts';
import { EmptyState, ListPager, TableCard } from '@/components/paged-list.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { createApplication, fetchApplications, type CreatedKey } from './application-api.ts';
import { ApplicationFormFields, EMPTY_FORM } from './application-form.tsx';
import { SecretModal, StateBadge } from './application-parts.tsx';
import { applicationDetailPath, formatSeconds, formatTime } from './application-labels.ts';

/** /dashboard/application — the enterprise's external applications (a member: those they own), their state and last contact. */
export function ApplicationListPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [page, setPage] = useState(1);
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const isMobile = useMediaQuery('(max-width: 48em)');
  const { data, reload } = useLoaded((signal) => fetchApplications(page, signal), [page]);

  if (!data) return <PageLoader />;
  const never = t`Never`;

  return (
    <Stack gap="lg" data-testid="application-list">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={1} size="h2">
            <Trans>External applications</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Systems of your enterprise that register their files on the ledger as they produce them, watched for silence and errors.</Trans>
          </Text>
        </Stack>
        {data.can_manage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setIsCreating(true)} data-testid="application-create">
            <Trans>New application</Trans>
          </Button>
        )}
      </Group>

      {data.items.length === 0 ? (
        <EmptyState icon={<IconPlugConnected size={36} stroke={1.4} color="var(--mantine-color-dimmed)" />} testId="application-empty">
          <Text c="dimmed" size="sm" ta="center">
            {data.can_manage ? <Trans>No application yet. Create one to get its credentials and connect the agent.</Trans> : <Trans>No application is assigned to you.</Trans>}
          </Text>
        </EmptyState>
      ) : isMobile ? (
        <Stack gap="sm">
          {data.items.map((a) => (
            <Card key={a.application_id} withBorder radius="md" padding="md" component={Link} href={applicationDetailPath(a.application_id)} data-testid="application-row" data-id={a.application_id}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={600} truncate>
                  {a.name}
                </Text>
                <StateBadge state={a.state} />
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                <Trans>Last seen</Trans>: {formatTime(a.last_seen_at, i18n, never)}
              </Text>
              <Text size="xs" c="dimmed">
                <Trans>Files</Trans>: {a.file_count} · {a.owner_name}
              </Text>
            </Card>
          ))}
        </Stack>
      ) : (
        <TableCard minWidth={720} testId="application-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`Application name`}</Table.Th>
              <Table.Th>{t`State`}</Table.Th>
              <Table.Th>{t`Last seen`}</Table.Th>
              <Table.Th>{t`Interval`}</Table.Th>
              <Table.Th ta="right">{t`Files`}</Table.Th>
              <Table.Th>{t`Owner`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((a) => (
              <Table.Tr key={a.application_id} data-testid="application-row" data-id={a.application_id} style={{ cursor: 'pointer' }} onClick={() => navigate(applicationDetailPath(a.application_id))}>
                <Table.Td>
                  <Anchor component={Link} href={applicationDetailPath(a.application_id)} fw={600} onClick={(e: React.MouseEvent) => e.stopPropagation()}>
                    {a.name}
                  </Anchor>
                  {a.is_paused && (
                    <Text span size="xs" c="dimmed" ml={6}>
                      ({t`paused`})
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <StateBadge state={a.state} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(a.last_seen_at, i18n, never)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {formatSeconds(a.interval_seconds, i18n)} + {formatSeconds(a.grace_seconds, i18n)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{a.file_count}</Table.Td>
                <Table.Td>{a.owner_name}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </TableCard>
      )}
      <ListPager data={data} page={page} onChange={setPage} />

      <Modal opened={isCreating} onClose={() => setIsCreating(false)} title={t`New application`} size="lg">
        <ApplicationFormFields
          initial={EMPTY_FORM}
          submitLabel={t`Create`}
          onCancel={() => setIsCreating(false)}
          onSubmit={async (form) => {
            const made = await createApplication(form);
            setIsCreating(false);
            setCreated(made);
            reload();
          }}
        />
      </Modal>
      <SecretModal
        created={created}
        onClose={() => {
          const id = created?.application_id;
          setCreated(null);
          if (id) navigate(applicationDetailPath(id));
        }}
      />
    </Stack>
  );
}
