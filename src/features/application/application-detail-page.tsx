import { useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Paper, SegmentedControl, SimpleGrid, Stack, Switch, Table, Tabs, Text, Timeline } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconBellCheck, IconFiles, IconKey, IconTrash } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { isApiError } from '@/api/client.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { Copyable } from '@/components/copyable.tsx';
import { EmptyState, ListPager, TableCard } from '@/components/paged-list.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { DetailHeading, DetailTrail, NotFoundPanel } from '@/components/detail-page.tsx';
import { ProofBadge } from '@/components/proof-status.tsx';
import { formatBytes } from '@/components/progress/format.ts';
import type { ApplicationState } from '../../../core/applications.ts';
import {
  acknowledgeAlarm,
  createKey,
  deleteApplication,
  fetchAlarms,
  fetchApplication,
  fetchFiles,
  fetchStats,
  fetchTransitions,
  revokeKey,
  updateApplication,
  type ApplicationDetail,
  type CreatedKey,
} from './application-api.ts';
import { ApplicationFormFields } from './application-form.tsx';
import { RegistrationsChart } from './application-chart.tsx';
import { Field, SecretModal, StateBadge } from './application-parts.tsx';
import {
  ALARM_KIND_LABELS,
  APPLICATION_LIST_PATH,
  DELIVERY_LABELS,
  STATE_COLORS,
  STATE_LABELS,
  applicationDetailPath,
  applicationFileDetailPath,
  formatSeconds,
  formatTime,
  reasonText,
  type ApplicationTab,
} from './application-labels.ts';

const REFRESH_MS = 5000;

/** A number that grows every `ms` while the page is shown: the panels reload on it (state, files and alarms change on their own). */
function useTick(ms: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((n) => n + 1), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return tick;
}

/** /dashboard/application/detail/:application_id/:active? — overview, data, monitoring and settings of one application. */
export function ApplicationDetailPage({ applicationId, tab }: { applicationId: string; tab: ApplicationTab }) {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [isMissing, setIsMissing] = useState(false);
  const tick = useTick(REFRESH_MS);
  const { data: app, reload } = useLoaded(
    (signal) => fetchApplication(applicationId, signal),
    [applicationId, tick],
    (error) => {
      if (isApiError(error) && (error.key === 'not_found' || error.status === 403 || error.key === 'invalid_param')) setIsMissing(true);
      else notifyError(error, i18n);
    },
  );

  const trail = <DetailTrail steps={[{ label: <Trans>External applications</Trans>, href: APPLICATION_LIST_PATH }, app && { label: app.name }]} />;
  if (isMissing) {
    return (
      <NotFoundPanel
        trail={trail}
        testId="application-missing"
        title={<Trans>Application not found</Trans>}
        text={<Trans>This application does not exist, or you may not see it.</Trans>}
      />
    );
  }
  if (!app) return <PageLoader />;

  return (
    <Stack gap="lg" data-testid="application-detail" data-id={app.application_id}>
      <DetailHeading
        trail={trail}
        title={app.name}
        titleTestId="application-title"
        aside={
          <Group gap="xs">
            {app.is_paused && <Badge variant="outline" color="gray">{t`Paused`}</Badge>}
            <StateBadge state={app.state} size="lg" />
          </Group>
        }
      />
      <Tabs value={tab} onChange={(value) => navigate(applicationDetailPath(app.application_id, (value ?? 'overview') as ApplicationTab))} keepMounted={false}>
        <Tabs.List mb="md" style={{ flexWrap: 'wrap' }}>
          <Tabs.Tab value="overview" data-testid="application-tab-overview">{t`Overview`}</Tabs.Tab>
          <Tabs.Tab value="data" data-testid="application-tab-data">{t`Data`}</Tabs.Tab>
          <Tabs.Tab
            value="monitoring"
            data-testid="application-tab-monitoring"
            rightSection={
              app.unacknowledged_alarms > 0 ? (
                <Badge size="xs" color="red" circle>
                  {app.unacknowledged_alarms}
                </Badge>
              ) : undefined
            }
          >
            {t`Monitoring`}
          </Tabs.Tab>
          <Tabs.Tab value="settings" data-testid="application-tab-settings">{t`Settings`}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <Overview app={app} tick={tick} />
        </Tabs.Panel>
        <Tabs.Panel value="data">
          <DataPanel app={app} tick={tick} />
        </Tabs.Panel>
        <Tabs.Panel value="monitoring">
          <MonitoringPanel app={app} tick={tick} onChange={reload} />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <SettingsPanel app={app} onChange={reload} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function Overview({ app, tick }: { app: ApplicationDetail; tick: number }) {
  const { t, i18n } = useLingui();
  const [hours, setHours] = useState('24');
  const { data: stats } = useLoaded((signal) => fetchStats(app.application_id, Number(hours), signal), [app.application_id, hours, tick]);
  return (
    <Stack gap="lg">
      {app.state === 'not_connected' && (
        <Alert color="blue" data-testid="application-connect-hint">
          <Trans>Nothing has arrived yet. Run the agent with this application's ID and key on the machine that produces the files (see Settings for the key).</Trans>
        </Alert>
      )}
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" verticalSpacing="md">
          <Field label={t`Application ID`}>
            <Text size="sm" ff="monospace" data-testid="application-id">
              {app.application_id}
            </Text>
          </Field>
          <Field label={t`State`} testId="application-state-field">
            <Stack gap={2}>
              <StateBadge state={app.state} />
              <Text size="xs" c="dimmed">
                {reasonText(app.state_reason, i18n)} · {t`since`} {formatTime(app.state_since, i18n)}
              </Text>
            </Stack>
          </Field>
          <Field label={t`Last seen`}>
            <Text size="sm" data-testid="application-last-seen">
              {formatTime(app.last_seen_at, i18n, t`Never`)}
            </Text>
          </Field>
          <Field label={t`Expected interval + grace`}>
            <Text size="sm">
              {formatSeconds(app.interval_seconds, i18n)} + {formatSeconds(app.grace_seconds, i18n)}
            </Text>
          </Field>
          <Field label={t`Files registered`}>
            <Text size="sm" data-testid="application-file-count">
              {app.file_count}
            </Text>
          </Field>
          <Field label={t`Owner (pays the credits)`}>
            <Text size="sm">{app.owner_name}</Text>
          </Field>
          {app.description && (
            <Field label={t`Description`}>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {app.description}
              </Text>
            </Field>
          )}
        </SimpleGrid>
      </Paper>
      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Text fw={600}>
            <Trans>Registrations over time</Trans>
          </Text>
          <SegmentedControl
            size="xs"
            value={hours}
            onChange={setHours}
            data={[
              { value: '6', label: t`6 hours` },
              { value: '24', label: t`24 hours` },
              { value: '168', label: t`7 days` },
            ]}
          />
        </Group>
        {stats ? <RegistrationsChart stats={stats} /> : <PageLoader />}
      </Card>
    </Stack>
  );
}

function DataPanel({ app, tick }: { app: ApplicationDetail; tick: number }) {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const isMobile = useMediaQuery('(max-width: 48em)');
  const { data } = useLoaded((signal) => fetchFiles(app.application_id, page, signal), [app.application_id, page, tick]);
  if (!data) return <PageLoader />;
  if (!data.items.length) {
    return (
      <EmptyState icon={<IconFiles size={36} stroke={1.4} color="var(--mantine-color-dimmed)" />} testId="application-files-empty">
        <Text c="dimmed" size="sm">
          <Trans>No file registered yet.</Trans>
        </Text>
      </EmptyState>
    );
  }
  return (
    <Stack gap="sm">
      {isMobile ? (
        data.items.map((f) => (
          <Card key={f.file_id} withBorder radius="md" padding="sm" component={Link} href={applicationFileDetailPath(app.application_id, f.dip_id)} data-testid="application-file-row" data-name={f.name}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} size="sm" truncate>
                {f.name}
              </Text>
              <ProofBadge isGenerated={f.is_generated} />
            </Group>
            <Text size="xs" c="dimmed" truncate>
              {f.file_hash}
            </Text>
            <Text size="xs" c="dimmed">
              {formatBytes(f.size)} · {formatTime(f.registered_at, i18n)}
            </Text>
          </Card>
        ))
      ) : (
        <TableCard minWidth={760} testId="application-files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t`File`}</Table.Th>
              <Table.Th>{t`Fingerprint`}</Table.Th>
              <Table.Th ta="right">{t`File size`}</Table.Th>
              <Table.Th>{t`Registered at`}</Table.Th>
              <Table.Th>{t`Proof`}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((f) => (
              <Table.Tr key={f.file_id} data-testid="application-file-row" data-name={f.name}>
                <Table.Td>
                  <Anchor component={Link} href={applicationFileDetailPath(app.application_id, f.dip_id)} size="sm" fw={600}>
                    {f.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" truncate maw={240} title={f.file_hash}>
                    {f.file_hash}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{formatBytes(f.size)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(f.registered_at, i18n)}</Text>
                </Table.Td>
                <Table.Td>
                  <ProofBadge isGenerated={f.is_generated} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </TableCard>
      )}
      <ListPager data={data} page={page} onChange={setPage} />
    </Stack>
  );
}

function MonitoringPanel({ app, tick, onChange }: { app: ApplicationDetail; tick: number; onChange: () => void }) {
  const { t, i18n } = useLingui();
  const [version, setVersion] = useState(0);
  const { data: transitions } = useLoaded((signal) => fetchTransitions(app.application_id, signal), [app.application_id, tick]);
  const { data: alarms } = useLoaded((signal) => fetchAlarms(app.application_id, signal), [app.application_id, tick, version]);
  const onAcknowledge = async (alarmId: number) => {
    try {
      await acknowledgeAlarm(app.application_id, alarmId);
      setVersion((v) => v + 1);
      onChange();
    } catch (error) {
      notifyError(error, i18n);
    }
  };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Card withBorder radius="md" padding="md" data-testid="application-timeline">
        <Text fw={600} mb="sm">
          <Trans>State timeline</Trans>
        </Text>
        {!transitions ? (
          <PageLoader />
        ) : transitions.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>No change of state yet.</Trans>
          </Text>
        ) : (
          <Timeline bulletSize={14} lineWidth={2} active={transitions.length - 1}>
            {transitions.map((tr) => (
              <Timeline.Item key={tr.transition_id} color={STATE_COLORS[tr.to_state as ApplicationState]} title={`${i18n._(STATE_LABELS[tr.from_state])} → ${i18n._(STATE_LABELS[tr.to_state])}`} data-testid="application-transition" data-to={tr.to_state}>
                <Text size="xs" c="dimmed">
                  {formatTime(tr.at, i18n)}
                </Text>
                <Text size="sm">{reasonText(tr.reason, i18n)}</Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Card>
      <Card withBorder radius="md" padding="md" data-testid="application-alarms">
        <Text fw={600} mb="sm">
          <Trans>Alarm log</Trans>
        </Text>
        {!alarms ? (
          <PageLoader />
        ) : alarms.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>No alarm so far.</Trans>
          </Text>
        ) : (
          <Stack gap="sm">
            {alarms.map((a) => (
              <Paper key={a.alarm_id} withBorder p="sm" radius="sm" data-testid="application-alarm" data-kind={a.kind}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs">
                    <Badge color={a.kind === 'recovered' ? 'teal' : a.kind === 'reminder' ? 'yellow' : 'red'} variant="light">
                      {i18n._(ALARM_KIND_LABELS[a.kind])}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {formatTime(a.created_at, i18n)}
                    </Text>
                  </Group>
                  {a.acknowledged_at === null ? (
                    <Button size="compact-xs" variant="light" leftSection={<IconBellCheck size={14} />} onClick={() => void onAcknowledge(a.alarm_id)} data-testid="alarm-acknowledge">
                      <Trans>Acknowledge</Trans>
                    </Button>
                  ) : (
                    <Text size="xs" c="dimmed" data-testid="alarm-acknowledged">
                      {t`Acknowledged by ${a.acknowledged_by}`} · {formatTime(a.acknowledged_at, i18n)}
                    </Text>
                  )}
                </Group>
                <Text size="sm" mt={4}>
                  {reasonText(a.reason, i18n)}
                </Text>
                {a.deliveries.map((d, i) => (
                  <Text key={i} size="xs" c={d.status === 'failed' ? 'red' : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
                    {d.channel === 'sms' ? t`SMS` : t`Webhook`} {d.target}: {i18n._(DELIVERY_LABELS[d.status])}
                    {d.attempts > 1 ? ` (${t`${d.attempts} attempts`})` : ''}
                    {d.last_error ? ` — ${d.last_error}` : ''}
                  </Text>
                ))}
              </Paper>
            ))}
          </Stack>
        )}
      </Card>
    </SimpleGrid>
  );
}

function SettingsPanel({ app, onChange }: { app: ApplicationDetail; onChange: () => void }) {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  if (!app.can_manage) {
    return (
      <Alert color="gray">
        <Trans>Only administrators change an application's settings and keys.</Trans>
      </Alert>
    );
  }
  const activeKeys = app.keys.filter((k) => k.revoked_at === null);
  const onNewKey = async () => {
    try {
      setCreated(await createKey(app.application_id));
      onChange();
    } catch (error) {
      notifyError(error, i18n);
    }
  };
  const onRevoke = (keyId: string) =>
    modals.openConfirmModal({
      title: t`Revoke this key?`,
      children: <Text size="sm">{t`Requests signed with ${keyId} are refused from now on.`}</Text>,
      labels: { confirm: t`Revoke`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          await revokeKey(app.application_id, keyId);
          onChange();
        } catch (error) {
          notifyError(error, i18n);
        }
      },
    });
  const onDelete = () =>
    modals.openConfirmModal({
      title: t`Delete ${app.name}?`,
      children: <Text size="sm">{t`Its keys stop working and it is no longer watched. The files it registered stay on the ledger with their proofs.`}</Text>,
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red', 'data-testid': 'application-delete-confirm' },
      onConfirm: async () => {
        try {
          await deleteApplication(app.application_id);
          navigate(APPLICATION_LIST_PATH);
        } catch (error) {
          notifyError(error, i18n);
        }
      },
    });
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="md" data-testid="application-keys">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Text fw={600}>
            <Trans>Credentials</Trans>
          </Text>
          <Button size="xs" variant="light" leftSection={<IconKey size={14} />} disabled={activeKeys.length >= 2} onClick={() => void onNewKey()} data-testid="application-new-key">
            <Trans>New key</Trans>
          </Button>
        </Group>
        <Text size="xs" c="dimmed" mb="sm">
          <Trans>Requests are signed with HMAC-SHA256 (see the open API reference). Two keys may be active for rotation; a secret is shown only when its key is made.</Trans>{' '}
          <Anchor href="/open-api/v1/docs" target="_blank" size="xs">
            <Trans>Open API reference</Trans>
          </Anchor>
        </Text>
        <Stack gap="xs">
          {app.keys.map((k) => (
            <Group key={k.key_id} justify="space-between" wrap="wrap" gap="xs" data-testid="application-key" data-key={k.key_id}>
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Copyable value={k.key_id} label={t`key ID`} size="xs" />
                <Text size="xs" c="dimmed">
                  {t`Created`} {formatTime(k.created_at, i18n)} · {t`Last used`} {formatTime(k.last_used_at, i18n, t`Never`)}
                </Text>
              </Stack>
              {k.revoked_at === null ? (
                <Button size="compact-xs" color="red" variant="subtle" onClick={() => onRevoke(k.key_id)}>
                  <Trans>Revoke</Trans>
                </Button>
              ) : (
                <Badge color="gray" variant="outline">
                  {t`Revoked`}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="md">
        <Switch
          label={t`Pause monitoring and alarms`}
          checked={app.is_paused}
          onChange={async (e) => {
            try {
              await updateApplication(app.application_id, { is_paused: e.currentTarget.checked });
              onChange();
            } catch (error) {
              notifyError(error, i18n);
            }
          }}
          data-testid="application-pause"
        />
      </Card>
      <Card withBorder radius="md" padding="md">
        <Text fw={600} mb="sm">
          <Trans>Settings</Trans>
        </Text>
        <ApplicationFormFields
          key={app.application_id}
          initial={{ name: app.name, description: app.description, interval_seconds: app.interval_seconds, grace_seconds: app.grace_seconds, alarm_phones: app.alarm_phones, webhook_urls: app.webhook_urls }}
          submitLabel={t`Save`}
          onSubmit={async (form) => {
            await updateApplication(app.application_id, form);
            notifications.show({ color: 'green', message: t`Saved` });
            onChange();
          }}
        />
      </Card>
      <Group justify="flex-end">
        <Button color="red" variant="outline" leftSection={<IconTrash size={16} />} onClick={onDelete} data-testid="application-delete">
          <Trans>Delete application</Trans>
        </Button>
      </Group>
      <SecretModal created={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}
