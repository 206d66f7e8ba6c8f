import { useCallback, useState } from 'react';
import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconSend } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useConfig } from '@/config/config-atom.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { EmptyState, ListPager, TableCard } from '@/components/paged-list.tsx';
import { StoreFileAction } from '@/components/store-file/store-file-action.tsx';
import { maskPhone } from '../../../core/masking.ts';
import type { DisclosureRecordDto } from '../../../core/disclosure.ts';
import { fetchDisclosures } from './disclosure-api.ts';
import { STATUS_COLORS, STATUS_LABELS } from './disclosure-labels.ts';
import { CreateDisclosureModal } from './create-disclosure-modal.tsx';

export function StatusBadge({ status }: { status: number }) {
  const { i18n } = useLingui();
  const label = STATUS_LABELS[status];
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" tt="none" data-testid="disclosure-status" data-status={status}>
      {label ? i18n._(label) : String(status)}
    </Badge>
  );
}

function ExpiryText({ record }: { record: DisclosureRecordDto }) {
  const { t, i18n } = useLingui();
  if (record.store_forever || record.expires_at === null) return <>{t`Kept forever`}</>;
  const when = i18n.date(new Date(record.expires_at), { dateStyle: 'medium', timeStyle: 'short' });
  return <>{t`Until ${when}`}</>;
}

/** /dashboard/disclosures: outgoing disclosures, a new one, and storing a registered file to disclose. */
export function DisclosuresPage() {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const [, navigate] = useLocation();
  const [page, setPage] = useState(1);
  const [isCreating, setIsCreating] = useState(false);
  const { data, reload } = useLoaded((signal) => fetchDisclosures({ page, page_size: config.tablePageSize }, signal), [page, config.tablePageSize]);

  const onCreated = useCallback(
    (record: DisclosureRecordDto) => {
      setIsCreating(false);
      notifications.show({ color: 'green', message: t`Disclosed. The receiver gets an SMS with the link.` });
      navigate(`/dashboard/disclosures/detail/${record.disclosure_id}`);
    },
    [navigate, t],
  );

  const created = (r: DisclosureRecordDto) => i18n.date(new Date(r.created_at), { dateStyle: 'medium', timeStyle: 'short' });
  const items = data?.items ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Title order={2}>
            <Trans>File disclosure</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Send a registered file to someone outside the company. They prove their phone number, accept a confidentiality agreement, and their receipt is recorded on the ledger.</Trans>
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setIsCreating(true)} data-testid="new-disclosure">
          <Trans>New disclosure</Trans>
        </Button>
      </Group>

      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Text fw={600}>
            <Trans>Store a registered file</Trans>
          </Text>
          <Text size="sm" c="dimmed">
            <Trans>Only files registered in your company and stored on the platform can be disclosed. Large files upload in the background and resume after a reload or a lost connection.</Trans>
          </Text>
          <StoreFileAction onStored={reload} />
        </Stack>
      </Card>

      {data && items.length === 0 && (
        <EmptyState icon={<IconSend size={36} stroke={1.4} />}>
          <Text c="dimmed">
            <Trans>No disclosures yet.</Trans>
          </Text>
        </EmptyState>
      )}

      {items.length > 0 && isMobile && (
        <Stack gap="sm" data-testid="disclosure-list">
          {items.map((r) => (
            <Card key={r.disclosure_id} withBorder radius="md" padding="md" component={Link} href={`/dashboard/disclosures/detail/${r.disclosure_id}`}>
              <Stack gap={4}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={600} truncate>
                    {r.name}
                  </Text>
                  <StatusBadge status={r.disclosure_status} />
                </Group>
                <Text size="sm" c="dimmed">
                  {maskPhone(r.received_phone)} · {r.store_name}
                </Text>
                <Text size="xs" c="dimmed">
                  {created(r)} · <ExpiryText record={r} />
                </Text>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}

      {items.length > 0 && !isMobile && (
        <TableCard minWidth={760} testId="disclosure-list">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`File`}</Table.Th>
              <Table.Th>{t`Receiver`}</Table.Th>
              <Table.Th>{t`Store name`}</Table.Th>
              <Table.Th>{t`Status`}</Table.Th>
              <Table.Th>{t`Sent`}</Table.Th>
              <Table.Th>{t`Availability`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((r) => (
              <Table.Tr key={r.disclosure_id}>
                <Table.Td>
                  <Anchor component={Link} href={`/dashboard/disclosures/detail/${r.disclosure_id}`} fw={500}>
                    {r.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{maskPhone(r.received_phone)}</Table.Td>
                <Table.Td>{r.store_name}</Table.Td>
                <Table.Td>
                  <StatusBadge status={r.disclosure_status} />
                </Table.Td>
                <Table.Td>{created(r)}</Table.Td>
                <Table.Td>
                  <ExpiryText record={r} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </TableCard>
      )}

      <ListPager data={data} page={page} onChange={setPage} />

      <CreateDisclosureModal opened={isCreating} onClose={() => setIsCreating(false)} onCreated={onCreated} />
    </Stack>
  );
}

export { ExpiryText };
