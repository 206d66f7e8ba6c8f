import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Paper, Select, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconKey, IconShieldOff } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { CompanyDto } from '../../../core/api-types.ts';
import { PRIVATE_KEY_STATUS, REVOCATION_REASON, type KeyLogDto, type KeyStateDto } from '../../../core/enterprise-keys.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { ListPager } from '@/components/paged-list.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { useConfig } from '@/config/config-atom.ts';
import { Fields } from './certificate-view.tsx';
import { Copyable } from '@/components/copyable.tsx';
import { fetchKeyBackup, fetchKeyLog, setKeyStatus } from './enterprise-keys-api.ts';
import { saveFile } from '@/api/download.ts';
import { KeyStatusHeading, useKeyState } from './identity-tab.tsx';
import { CUSTODY_REQUEST_LABELS, KEY_LOG_LABELS, KEY_STATUS_LABELS, REVOCATION_REASON_LABELS } from './key-labels.ts';
import { SignFilePanel } from './sign-file-panel.tsx';
import { localizedMessage } from '@/components/localized.ts';

function CancelCustodyModal({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: (next: KeyStateDto) => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { reason: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    try {
      onDone(await setKeyStatus({ private_key_status: PRIVATE_KEY_STATUS.cancelRequested, reason: values.reason.trim() }));
      form.reset();
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t`Cancel the key custody`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            <Trans>From now on nobody can sign with the enterprise key. A platform agent will contact the enterprise to confirm the cancellation; the platform then revokes the certificate and, after a last chance to download the encrypted key, erases it.</Trans>
          </Text>
          <Textarea label={t`Reason (for the platform agent)`} autosize minRows={2} maxLength={500} {...form.getInputProps('reason')} data-testid="cancel-reason" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Keep the custody</Trans>
            </Button>
            <Button type="submit" color="orange" loading={form.submitting} data-testid="confirm-cancel-custody">
              <Trans>Cancel the custody</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RevokeModal({ opened, enterpriseName, onClose, onDone }: { opened: boolean; enterpriseName: string; onClose: () => void; onDone: (next: KeyStateDto) => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { revocation_reason: String(REVOCATION_REASON.keyCompromise), reason: '', confirm_name: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    if (values.confirm_name.trim() !== enterpriseName) {
      form.setFieldError('confirm_name', localizedMessage(msg`The name does not match the enterprise name`));
      return;
    }
    try {
      onDone(await setKeyStatus({ private_key_status: PRIVATE_KEY_STATUS.revoked, revocation_reason: Number(values.revocation_reason), reason: values.reason.trim(), confirm_name: values.confirm_name.trim() }));
      form.reset();
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  const reasons = [REVOCATION_REASON.keyCompromise, REVOCATION_REASON.cessationOfOperation, REVOCATION_REASON.unspecified].map((r) => ({ value: String(r), label: i18n._(REVOCATION_REASON_LABELS[r]!) }));
  return (
    <Modal opened={opened} onClose={onClose} title={t`Revoke the enterprise identity`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Alert color="red" icon={<IconShieldOff size={18} />}>
            <Trans>This takes effect at once and cannot be undone: the certificate is revoked and published as revoked, and the encrypted key is erased from the platform. Signatures made before stay valid for what they signed; nothing can be signed with this key again.</Trans>
          </Alert>
          <Select label={t`Why`} data={reasons} allowDeselect={false} {...form.getInputProps('revocation_reason')} />
          <Textarea label={t`Note (optional)`} autosize minRows={2} maxLength={500} {...form.getInputProps('reason')} />
          <TextInput label={t`Type the enterprise name to confirm: ${enterpriseName}`} {...form.getInputProps('confirm_name')} data-testid="revoke-confirm-name" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Back</Trans>
            </Button>
            <Button type="submit" color="red" loading={form.submitting} disabled={!form.values.confirm_name.trim()} data-testid="confirm-revoke">
              <Trans>Revoke the identity</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function logDetail(entry: KeyLogDto, i18n: ReturnType<typeof useLingui>['i18n']): string {
  const d = entry.detail;
  const str = (k: string) => (typeof d[k] === 'string' && d[k] ? (d[k] as string) : null);
  const parts: string[] = [];
  if (str('file_name')) parts.push(str('file_name')!);
  if (entry.from_status !== null && entry.to_status !== null) {
    parts.push(`${i18n._(KEY_STATUS_LABELS[entry.from_status] ?? KEY_STATUS_LABELS[0]!)} → ${i18n._(KEY_STATUS_LABELS[entry.to_status] ?? KEY_STATUS_LABELS[0]!)}`);
  }
  if (typeof d.revocation_reason === 'number') parts.push(i18n._(REVOCATION_REASON_LABELS[d.revocation_reason] ?? REVOCATION_REASON_LABELS[0]!));
  if (str('reason')) parts.push(`“${str('reason')}”`);
  if (str('serial_number') && entry.action !== 'key_fetched' && entry.action !== 'signed') parts.push(str('serial_number')!.slice(0, 16));
  return parts.join(' · ');
}

function LogDetail({ entry }: { entry: KeyLogDto }) {
  const { i18n } = useLingui();
  const detail = logDetail(entry, i18n);
  return (
    <>
      {detail && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      )}
      {entry.file_hash && (
        <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {entry.file_hash}
        </Text>
      )}
    </>
  );
}

/** The key usage history and audit trail, newest first, paged: a table, stacked entries on phones. */
function KeyLog({ version }: { version: number }) {
  const { t, i18n } = useLingui();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const config = useConfig();
  const [page, setPage] = useState(1);
  const pageSize = Math.max(config.tablePageSize, 10);
  const { data } = useLoaded((signal) => fetchKeyLog({ page, page_size: pageSize }, signal), [page, pageSize, version]);
  if (!data) return <PageLoader />;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          <Trans>Key usage history</Trans>
        </Title>
        {data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>The key has not been used yet.</Trans>
          </Text>
        ) : isPhone ? (
          <Stack gap={0} data-testid="key-log">
            {data.items.map((entry) => (
              <Stack key={entry.log_id} gap={2} py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid={`key-log-${entry.action}`}>
                <Text size="sm" fw={500}>
                  {i18n._(KEY_LOG_LABELS[entry.action])}
                </Text>
                <LogDetail entry={entry} />
                <Group gap={4}>
                  <Text size="xs" c="dimmed">
                    {`${entry.actor || t`System`} · ${i18n.date(new Date(entry.created_at), { dateStyle: 'medium', timeStyle: 'medium' })}`}
                  </Text>
                  {entry.is_operator && (
                    <Badge size="xs" variant="light" color="grape">
                      {t`Platform`}
                    </Badge>
                  )}
                </Group>
              </Stack>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={680}>
            <Table striped verticalSpacing="xs" data-testid="key-log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={170}>{t`Time`}</Table.Th>
                  <Table.Th w={130}>{t`Who`}</Table.Th>
                  <Table.Th>{t`What`}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((entry) => (
                  <Table.Tr key={entry.log_id} data-testid={`key-log-${entry.action}`}>
                    <Table.Td>
                      <Text size="xs">{i18n.date(new Date(entry.created_at), { dateStyle: 'medium', timeStyle: 'medium' })}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Text size="sm">{entry.actor || '—'}</Text>
                        {entry.is_operator && (
                          <Badge size="xs" variant="light" color="grape">
                            {t`Platform`}
                          </Badge>
                        )}
                        {!entry.actor && !entry.is_operator && (
                          <Badge size="xs" variant="light" color="gray">
                            {t`System`}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        <Text size="sm" fw={500}>
                          {i18n._(KEY_LOG_LABELS[entry.action])}
                        </Text>
                        <LogDetail entry={entry} />
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <ListPager data={data} page={page} onChange={setPage} />
      </Stack>
    </Paper>
  );
}

/** company/key: §2 "private-key status and usage history", §6 cancel custody, §4 revoke identity, and signing. */
export function KeyTab({ company, onCompanyChange }: { company: CompanyDto; onCompanyChange: () => void }) {
  const { t, i18n } = useLingui();
  const { state, setState } = useKeyState();
  const [version, setVersion] = useState(0);
  const [modal, setModal] = useState<'cancel' | 'revoke' | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  if (!state) return <PageLoader />;
  const p = state.permissions;
  const status = state.private_key_status;
  const key = state.key;
  const request = state.custody_request;
  const when = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'short' });
  const changed = (next: KeyStateDto) => {
    setState(next);
    setModal(null);
    setVersion((v) => v + 1);
    onCompanyChange();
  };
  const onDownload = async () => {
    try {
      const backup = await fetchKeyBackup();
      saveFile(backup.file_name, backup.pem, 'application/x-pem-file');
      setVersion((v) => v + 1);
    } catch (error) {
      notifyError(error);
    }
  };
  const onWithdraw = async () => {
    setIsBusy(true);
    try {
      changed(await setKeyStatus({ private_key_status: PRIVATE_KEY_STATUS.custodied }));
      notifications.show({ color: 'green', message: t`The cancellation was withdrawn; the key is in custody again.` });
    } catch (error) {
      notifyError(error);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Stack gap="md" maw={960}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <KeyStatusHeading icon={<IconKey size={22} />} title={<Trans>Private key</Trans>} status={status} />
          {key && (
            <Fields
              testId="key-fields"
              rows={[
                [t`Deposited`, t`${when(key.deposited_at)} by ${key.deposited_by}`],
                [t`Protection`, t`Encrypted PKCS#8 · PBKDF2-HMAC-SHA256, ${i18n.number(key.kdf_iterations)} iterations · AES-256-CBC`],
                [t`Encrypted key SHA-256`, <Copyable value={key.pem_sha256} label="SHA-256" size="xs" isWrapped />],
                [
                  t`Held by the platform`,
                  key.is_stored ? (key.delete_after ? t`Yes, until ${when(key.delete_after)}` : t`Yes`) : key.deleted_at ? t`No, erased ${when(key.deleted_at)}` : t`No`,
                ],
              ]}
            />
          )}
          {request && (
            <Alert color={request.status === 1 ? 'orange' : request.status === 3 ? 'red' : 'gray'} title={t`Custody cancellation`} data-testid="custody-request" data-status={request.status}>
              <Stack gap={4}>
                <Text size="sm">{t`${i18n._(CUSTODY_REQUEST_LABELS[request.status]!)} · requested by ${request.requested_by}, ${when(request.created_at)}`}</Text>
                {request.reason && <Text size="sm">{t`Reason: ${request.reason}`}</Text>}
                {request.status === 1 && (
                  <Text size="sm">
                    <Trans>A platform agent will contact the enterprise to confirm. Until then you may withdraw the cancellation.</Trans>
                  </Text>
                )}
                {request.review_reason && <Text size="sm">{t`Platform's answer: ${request.review_reason}`}</Text>}
              </Stack>
            </Alert>
          )}
          {status === PRIVATE_KEY_STATUS.custodyEnded && key?.is_stored && key.delete_after && (
            <Alert color="orange" data-testid="last-download">
              <Trans>Last chance: download the encrypted key before {when(key.delete_after)}. After that the platform erases it.</Trans>
            </Alert>
          )}
          <Group gap="xs">
            {p.can_download_key && (
              <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => void onDownload()} data-testid="download-key">
                <Trans>Download the encrypted key</Trans>
              </Button>
            )}
            {p.can_cancel_custody && (
              <Button variant="light" color="orange" onClick={() => setModal('cancel')} data-testid="cancel-custody">
                <Trans>Cancel the custody</Trans>
              </Button>
            )}
            {p.can_withdraw_cancel && (
              <Button variant="light" onClick={() => void onWithdraw()} loading={isBusy} data-testid="withdraw-cancel">
                <Trans>Withdraw the cancellation</Trans>
              </Button>
            )}
            {p.can_revoke && (
              <Button variant="subtle" color="red" leftSection={<IconShieldOff size={16} />} onClick={() => setModal('revoke')} data-testid="revoke-identity">
                <Trans>Revoke the enterprise identity</Trans>
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      {p.can_sign && <SignFilePanel enterpriseName={company.name} onSigned={() => setVersion((v) => v + 1)} />}
      {p.can_view_log && <KeyLog version={version} />}
      <CancelCustodyModal opened={modal === 'cancel'} onClose={() => setModal(null)} onDone={changed} />
      <RevokeModal opened={modal === 'revoke'} enterpriseName={company.name} onClose={() => setModal(null)} onDone={changed} />
    </Stack>
  );
}
