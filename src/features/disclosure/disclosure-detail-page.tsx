import { useEffect, useState } from 'react';
import { Anchor, Button, Card, CopyButton, Group, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconCopy, IconLink } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { notifyError } from '@/api/error-messages.ts';
import { formatBytes } from '@/components/progress/format.ts';
import { isDisclosureDead, type DisclosureRecordDto } from '../../../core/disclosure.ts';
import { fetchDisclosure, revokeDisclosure } from './disclosure-api.ts';
import { ASSET_TYPE_LABELS, EVENT_LABELS } from './disclosure-labels.ts';
import { ExpiryText, StatusBadge } from './disclosures-page.tsx';

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

/** /dashboard/disclosures/detail/:disclosureId: the record, every event, the receiver's link, and revoke. */
export function DisclosureDetailPage({ disclosureId }: { disclosureId: string }) {
  const { t, i18n } = useLingui();
  const [record, setRecord] = useState<DisclosureRecordDto | null>(null);
  const [isMissing, setIsMissing] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchDisclosure(disclosureId, controller.signal)
      .then((d) => (d.record ? setRecord(d.record) : setIsMissing(true)))
      .catch((error: unknown) => {
        if ((error as Error)?.name === 'AbortError') return;
        setIsMissing(true);
      });
    return () => controller.abort();
  }, [disclosureId]);

  const onRevoke = () =>
    modals.openConfirmModal({
      title: t`Revoke this disclosure?`,
      children: <Text size="sm">{t`The receiver's link stops working at once, including a download link already handed out. This cannot be undone.`}</Text>,
      labels: { confirm: t`Revoke`, cancel: t`Cancel` },
      confirmProps: { color: 'red', 'data-testid': 'confirm-revoke' } as never,
      onConfirm: async () => {
        try {
          setRecord(await revokeDisclosure(disclosureId));
          notifications.show({ color: 'green', message: t`Disclosure revoked` });
        } catch (error) {
          notifyError(error, i18n);
        }
      },
    });

  const back = (
    <Anchor component={Link} href="/dashboard/disclosures" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        <Trans>All disclosures</Trans>
      </Group>
    </Anchor>
  );
  if (isMissing) {
    return (
      <Stack gap="md">
        {back}
        <Text c="dimmed">{t`This disclosure does not exist or is not yours.`}</Text>
      </Stack>
    );
  }
  if (!record) return back;
  const link = `${window.location.origin}/disclosures/${record.disclosure_id}`;
  const when = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'medium' });
  const isDead = isDisclosureDead(record.disclosure_status);
  return (
    <Stack gap="lg">
      {back}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {record.name}
          </Title>
          <StatusBadge status={record.disclosure_status} />
        </Group>
        {!isDead && (
          <Button color="red" variant="light" onClick={onRevoke} data-testid="revoke">
            <Trans>Revoke</Trans>
          </Button>
        )}
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          <Field label={t`Receiver's phone number`} testId="detail-phone">
            {record.received_phone}
          </Field>
          <Field label={t`Store name`}>{record.store_name}</Field>
          <Field label={t`Type`}>{ASSET_TYPE_LABELS[record.type] ? i18n._(ASSET_TYPE_LABELS[record.type]!) : record.type}</Field>
          <Field label={t`Availability`}>
            <ExpiryText record={record} />
          </Field>
          <Field label={t`File size`}>{formatBytes(record.size)}</Field>
          <Field label={t`Sender`}>{record.sender_name}</Field>
          <Field label={t`File fingerprint`}>
            <Text span ff="monospace" size="xs">
              {record.hash}
            </Text>
          </Field>
        </SimpleGrid>
      </Card>
      {!isDead && (
        <Card withBorder radius="md" padding="lg">
          <Stack gap="xs">
            <Group gap="xs">
              <IconLink size={16} />
              <Text fw={600}>
                <Trans>Receiver's link</Trans>
              </Text>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid="receiver-link">
                {link}
              </Text>
              <CopyButton value={link}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" leftSection={<IconCopy size={14} />} onClick={copy}>
                    {copied ? t`Copied` : t`Copy`}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="xs" c="dimmed">
              <Trans>The link was sent to the receiver by SMS. It only works for the person holding that phone.</Trans>
            </Text>
          </Stack>
        </Card>
      )}
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Text fw={600}>
            <Trans>History</Trans>
          </Text>
          <Timeline active={record.events.length - 1} bulletSize={18} lineWidth={2} data-testid="disclosure-events">
            {record.events.map((e, i) => (
              <Timeline.Item key={`${e.kind}-${i}`} title={i18n._(EVENT_LABELS[e.kind])} data-event={e.kind}>
                <Text size="xs" c="dimmed">
                  {when(e.at)}
                </Text>
                {e.receipt_dna && (
                  <Anchor component={Link} href={`/explorer/entries/${e.receipt_dna}`} size="xs" ff="monospace" data-testid="receipt-entry">
                    {t`Receipt on the ledger: ${e.receipt_dna}`}
                  </Anchor>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
        </Stack>
      </Card>
    </Stack>
  );
}
