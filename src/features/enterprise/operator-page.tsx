import { useEffect, useState, type ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { Anchor, Badge, Button, Group, Modal, Stack, Table, Tabs, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import type { OperatorApplicationDto, OperatorDto } from '../../../core/api-types.ts';
import { APPLICATION_STATUS } from '../../../core/enterprise.ts';
import { maskLicense } from '../../../core/masking.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { ReviewActions, ReviewQueue, ReviewStatus } from '@/components/review-queue.tsx';
import { OperatorKeyRequests } from './operator-key-requests.tsx';
import { fetchApplications, fetchOperator, operatorLogout, reviewApplication } from './enterprise-api.ts';
import { OperatorAudit, OperatorLogin } from './operator-security.tsx';
import { OperatorJobs } from './operator-jobs.tsx';
import { localizedMessage } from '@/components/localized.ts';
import { msg } from '@lingui/core/macro';

function RejectModal({ application, onClose, onDone }: { application: OperatorApplicationDto | null; onClose: () => void; onDone: () => void }) {
  const { t } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { reason: '' } });
  const onSubmit = form.onSubmit(async (values) => {
    if (!application) return;
    if (!values.reason.trim()) {
      form.setFieldError('reason', localizedMessage(msg`Please give a reason`));
      return;
    }
    try {
      await reviewApplication(application.id, APPLICATION_STATUS.rejected, values.reason.trim());
      form.reset();
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    }
  });
  return (
    <Modal opened={application !== null} onClose={onClose} title={t`Reject the application`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Textarea label={t`Reason (shown to the applicant)`} autosize minRows={3} {...form.getInputProps('reason')} />
          <Button type="submit" color="red" loading={form.submitting}>
            <Trans>Reject</Trans>
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

function Applications() {
  const { t } = useLingui();
  const [status, setStatus] = useState(String(APPLICATION_STATUS.pending));
  const [rejecting, setRejecting] = useState<OperatorApplicationDto | null>(null);
  const { data: items, reload } = useLoaded(() => fetchApplications(Number(status) || undefined), [status]);
  const onApprove = async (a: OperatorApplicationDto) => {
    try {
      await reviewApplication(a.id, APPLICATION_STATUS.approved, '');
      reload();
    } catch (error) {
      notifyError(error);
    }
  };
  const fileLink = (id: string | null, label: string) =>
    id ? (
      <Anchor href={`/api/v1/operator/files/${id}`} target="_blank" rel="noopener noreferrer" size="sm">
        {label}
      </Anchor>
    ) : null;
  return (
    <Stack gap="md">
      <ReviewQueue
        status={status}
        onStatusChange={setStatus}
        doneLabel={t`Approved`}
        items={items}
        empty={t`No applications.`}
        testId="operator-applications"
        head={
          <Table.Tr>
            <Table.Th>{t`Company name`}</Table.Th>
            <Table.Th>{t`Licence number`}</Table.Th>
            <Table.Th>{t`Legal representative`}</Table.Th>
            <Table.Th>{t`Applicant`}</Table.Th>
            <Table.Th>{t`Files`}</Table.Th>
            <Table.Th>{t`Status`}</Table.Th>
            <Table.Th />
          </Table.Tr>
        }
        renderRow={(a) => (
          <Table.Tr key={a.id} data-testid={`operator-application-${a.id}`}>
            <Table.Td>{a.name}</Table.Td>
            <Table.Td>{maskLicense(a.license_no)}</Table.Td>
            <Table.Td>{a.legal_person}</Table.Td>
            <Table.Td>
              {a.applicant_name} {a.applicant_phone}
            </Table.Td>
            <Table.Td>
              <Stack gap={2}>
                {fileLink(a.license_image_id, t`Licence`)}
                {fileLink(a.apply_book_id, t`Application form`)}
                {fileLink(a.organization_code_certificate_id, t`Organisation code certificate`)}
              </Stack>
            </Table.Td>
            <Table.Td>
              <ReviewStatus
                badge={<Badge color={a.status === 2 ? 'green' : a.status === 3 ? 'red' : 'orange'}>{a.status === 2 ? t`Approved` : a.status === 3 ? t`Rejected` : t`Pending`}</Badge>}
                note={a.reason}
              />
            </Table.Td>
            <Table.Td>
              <ReviewActions isPending={a.status === APPLICATION_STATUS.pending}>
                <Button size="xs" onClick={() => void onApprove(a)}>
                  <Trans>Approve</Trans>
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => setRejecting(a)}>
                  <Trans>Reject</Trans>
                </Button>
              </ReviewActions>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <RejectModal application={rejecting} onClose={() => setRejecting(null)} onDone={() => { setRejecting(null); reload(); }} />
    </Stack>
  );
}

/** A further part of the operator console, contributed by another product area (top-up orders, …). */
export type OperatorSection = { value: string; label: MessageDescriptor; render: () => ReactNode };

function Console({ operator, onLogout, sections }: { operator: OperatorDto; onLogout: () => void; sections: readonly OperatorSection[] }) {
  const { t, i18n } = useLingui();
  const [tab, setTab] = useState<string>('applications');
  const operatorName = operator.name || operator.login_id;
  return (
    <Stack p="md" maw={1180} mx="auto">
      <Group justify="space-between">
        <Text fw={700} size="lg">
          <Trans>Operator console</Trans>
        </Text>
        <Group>
          <Text size="sm" c="dimmed">
            {operatorName}
          </Text>
          <Button variant="default" size="xs" onClick={onLogout}>
            <Trans>Log out</Trans>
          </Button>
        </Group>
      </Group>
      <Tabs value={tab} onChange={(v) => setTab(v ?? 'applications')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="applications">{t`Enterprise applications`}</Tabs.Tab>
          <Tabs.Tab value="custody" data-testid="operator-tab-custody">
            {t`Key custody`}
          </Tabs.Tab>
          {sections.map((section) => (
            <Tabs.Tab key={section.value} value={section.value} data-testid={`operator-tab-${section.value}`}>
              {i18n._(section.label)}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value="jobs" data-testid="operator-tab-jobs">
            {t`Jobs`}
          </Tabs.Tab>
          <Tabs.Tab value="audit" data-testid="operator-tab-audit">
            {t`Audit log`}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="applications">
          <Applications />
        </Tabs.Panel>
        <Tabs.Panel value="custody">
          <OperatorKeyRequests />
        </Tabs.Panel>
        {sections.map((section) => (
          <Tabs.Panel key={section.value} value={section.value}>
            {section.render()}
          </Tabs.Panel>
        ))}
        <Tabs.Panel value="jobs">
          <OperatorJobs />
        </Tabs.Panel>
        <Tabs.Panel value="audit">
          <OperatorAudit />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** /operator: the platform operator console (own accounts and session, apart from enterprise roles). */
export function OperatorPage({ sections = [] }: { sections?: readonly OperatorSection[] }) {
  const [operator, setOperator] = useState<OperatorDto | null | undefined>(undefined);
  useEffect(() => {
    fetchOperator().then(setOperator, () => setOperator(null));
  }, []);
  if (operator === undefined) return <PageLoader />;
  if (!operator) return <OperatorLogin onLogin={setOperator} />;
  return (
    <Console
      operator={operator}
      sections={sections}
      onLogout={() => {
        operatorLogout().finally(() => setOperator(null));
      }}
    />
  );
}
