import { useState } from 'react';
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLoaded } from '@/api/use-loaded.ts';
import { ListPager } from '@/components/paged-list.tsx';
import { fetchOperatorPartnerContracts, partnerExportUrl } from './partner-api.ts';

const PAGE_SIZE = 20;

/** The operator console's partner applications, newest first, with CSV/XLSX export. */
export function OperatorPartners() {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const { data } = useLoaded((signal) => fetchOperatorPartnerContracts({ page, page_size: PAGE_SIZE }, signal), [page]);
  return (
    <Stack gap="md" data-testid="operator-partners">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          <Trans>Applications sent from the partners page. Contact the applicants by phone.</Trans>
        </Text>
        <Group gap="xs">
          <Button component="a" href={partnerExportUrl('csv')} download size="xs" variant="default" leftSection={<IconDownload size={14} />} data-testid="partners-export-csv">
            <Trans>Export CSV</Trans>
          </Button>
          <Button component="a" href={partnerExportUrl('xlsx')} download size="xs" variant="default" leftSection={<IconDownload size={14} />} data-testid="partners-export-xlsx">
            <Trans>Export XLSX</Trans>
          </Button>
        </Group>
      </Group>
      {data && data.items.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">{t`No partner applications yet.`}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Received`}</Table.Th>
                <Table.Th>{t`Enterprise name`}</Table.Th>
                <Table.Th>{t`Contact name`}</Table.Th>
                <Table.Th>{t`Phone number`}</Table.Th>
                <Table.Th>{t`Cooperation method`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data?.items ?? []).map((r) => (
                <Table.Tr key={r.id} data-testid={`operator-partner-${r.id}`}>
                  <Table.Td>{i18n.date(new Date(r.created_at), { dateStyle: 'medium', timeStyle: 'short' })}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.enterprise_name}</Table.Td>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td ff="monospace">{r.contract_number}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.corporation}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ListPager data={data} page={page} onChange={setPage} />
    </Stack>
  );
}
