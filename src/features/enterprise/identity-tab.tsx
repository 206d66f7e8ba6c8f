import { useCallback, useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileCertificate, IconKey } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { CompanyDto, UserDto } from '../../../core/api-types.ts';
import type { CertificateDto, KeyStateDto } from '../../../core/enterprise-keys.ts';
import { notifyError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { CertificateView, pairs } from './certificate-view.tsx';
import { fetchCertificates, fetchKeyState, type Paged } from './enterprise-keys-api.ts';
import { KeyCeremonyModal } from './key-ceremony-modal.tsx';
import { CERTIFICATE_STATUS_COLORS, CERTIFICATE_STATUS_LABELS, KEY_STATUS_COLORS, KEY_STATUS_HINTS, KEY_STATUS_LABELS } from './key-labels.ts';

/** The key state of the displayed company, loaded on mount and after every change. */
export function useKeyState() {
  const [state, setState] = useState<KeyStateDto | null>(null);
  const reload = useCallback(async (signal?: AbortSignal) => {
    try {
      setState(await fetchKeyState(signal));
    } catch (error) {
      if ((error as Error)?.name !== 'AbortError') notifyError(error);
    }
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);
  return { state, setState, reload };
}

export function KeyStatusBadge({ status }: { status: number }) {
  const { i18n } = useLingui();
  return (
    <Badge color={KEY_STATUS_COLORS[status] ?? 'gray'} variant="light" data-testid="key-status" data-status={status}>
      {i18n._(KEY_STATUS_LABELS[status] ?? KEY_STATUS_LABELS[0]!)}
    </Badge>
  );
}

function CertificateHistory({ enterpriseName, version }: { enterpriseName: string; version: number }) {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Paged<CertificateDto> | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchCertificates({ page, page_size: 10 }, controller.signal).then(setData, (error: unknown) => {
      if ((error as Error)?.name !== 'AbortError') notifyError(error);
    });
    return () => controller.abort();
  }, [page, version]);
  if (!data || data.total < 2) return null;
  const date = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium' });
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          <Trans>All certificates of {enterpriseName}</Trans>
        </Title>
        <Table.ScrollContainer minWidth={520}>
          <Table data-testid="certificate-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Serial number`}</Table.Th>
                <Table.Th>{t`Validity`}</Table.Th>
                <Table.Th>{t`Status`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((c) => (
                <Table.Tr key={c.certificate_id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/dashboard/company/certificate/${c.certificate_id}/${c.serial_number}`} ff="monospace" size="xs">
                      {pairs(c.serial_number.slice(0, 16))}…
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{`${date(c.not_before)} – ${date(c.not_after)}`}</Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={CERTIFICATE_STATUS_COLORS[c.status]}>
                      {i18n._(CERTIFICATE_STATUS_LABELS[c.status]!)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data.total > data.page_size && <Pagination size="sm" total={Math.ceil(data.total / data.page_size)} value={page} onChange={setPage} />}
      </Stack>
    </Paper>
  );
}

/** company/identity: §2 "digital identity and certificates": status, the key ceremony, the certificate and its history. */
export function IdentityTab({ company, user, onCompanyChange }: { company: CompanyDto; user: UserDto; onCompanyChange: () => void }) {
  const { i18n } = useLingui();
  const { state, setState, reload } = useKeyState();
  const [isCeremonyOpen, setIsCeremonyOpen] = useState(false);
  const [version, setVersion] = useState(0);
  if (!state) return <PageLoader />;
  const status = state.private_key_status;
  return (
    <Stack gap="md" maw={960}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Group gap="xs">
            <IconFileCertificate size={22} />
            <Title order={3} size="h4">
              <Trans>Digital identity</Trans>
            </Title>
            <KeyStatusBadge status={status} />
          </Group>
          <Text size="sm" c="dimmed">
            {i18n._(KEY_STATUS_HINTS[status] ?? KEY_STATUS_HINTS[0]!)}
          </Text>
          {state.permissions.can_deposit && (
            <Group>
              <Button leftSection={<IconKey size={16} />} onClick={() => setIsCeremonyOpen(true)} data-testid="start-key-ceremony">
                {status === 0 ? <Trans>Create the enterprise key</Trans> : <Trans>Create a new enterprise key</Trans>}
              </Button>
            </Group>
          )}
          {status === 0 && !state.permissions.can_deposit && (
            <Alert color="gray">
              <Trans>Only the super administrator can create the enterprise key.</Trans>
            </Alert>
          )}
        </Stack>
      </Paper>
      {state.certificate && <CertificateView cert={state.certificate} enterpriseName={company.name} isCompact />}
      <CertificateHistory enterpriseName={company.name} version={version} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Group justify="space-between" gap="sm">
          <Stack gap={2} style={{ flex: '1 1 280px' }}>
            <Text fw={600}>
              <Trans>Check a certificate or key file</Trans>
            </Text>
            <Text size="sm" c="dimmed">
              <Trans>Read a certificate or an encrypted key on this computer: its fields, whether it chains to the platform root, whether it is revoked, and whether a passphrase opens the key. The file never leaves your browser.</Trans>
            </Text>
          </Stack>
          <Button component={Link} href="/dashboard/company/certificate/detail" variant="default" data-testid="open-local-check">
            <Trans>Check a local file</Trans>
          </Button>
        </Group>
      </Paper>
      {state.permissions.can_deposit && company.enterprise_id !== null && (
        <KeyCeremonyModal
          opened={isCeremonyOpen}
          state={state}
          enterpriseId={company.enterprise_id}
          enterpriseName={company.name}
          phone={user.phonenumber}
          onClose={() => setIsCeremonyOpen(false)}
          onDeposited={(next) => {
            setState(next);
            setVersion((v) => v + 1);
            onCompanyChange();
            void reload();
          }}
        />
      )}
    </Stack>
  );
}
