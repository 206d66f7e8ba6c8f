import { useState } from 'react';
import { Badge, Button, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { CUSTODY_REQUEST_STATUS, KEY_LAST_DOWNLOAD_DAYS, type OperatorCustodyRequestDto } from '../../../core/enterprise-keys.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { ReviewActions, ReviewQueue, ReviewStatus } from '@/components/review-queue.tsx';
import { fetchCustodyRequests, reviewCustodyRequest } from './enterprise-keys-api.ts';
import { CUSTODY_REQUEST_LABELS } from './key-labels.ts';
import { pairs } from './certificate-view.tsx';
import { localizedMessage } from '@/components/localized.ts';
import { msg } from '@lingui/core/macro';

type Review = { request: OperatorCustodyRequestDto; status: 2 | 3 } | null;

function ReviewModal({ review, onClose, onDone }: { review: Review; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({ mode: 'controlled', initialValues: { reason: '' } });
  const isComplete = review?.status === CUSTODY_REQUEST_STATUS.completed;
  const onSubmit = form.onSubmit(async (values) => {
    if (!review) return;
    if (!isComplete && !values.reason.trim()) {
      form.setFieldError('reason', localizedMessage(msg`Please give a reason`));
      return;
    }
    try {
      await reviewCustodyRequest(review.request.id, review.status, values.reason.trim());
      form.reset();
      onDone();
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  return (
    <Modal opened={review !== null} onClose={onClose} title={isComplete ? t`Complete the cancellation` : t`Reject the cancellation`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text size="sm">
            {isComplete
              ? t`Confirm only after speaking with the enterprise. The certificate of ${review?.request.enterprise_name ?? ''} is revoked at once; its administrators can download the encrypted key for ${KEY_LAST_DOWNLOAD_DAYS} days, then the platform erases it.`
              : t`The key goes back into custody and the enterprise reads your reason.`}
          </Text>
          <Textarea label={isComplete ? t`Note (optional, shown to the enterprise)` : t`Reason (shown to the enterprise)`} autosize minRows={2} maxLength={500} {...form.getInputProps('reason')} data-testid="custody-review-reason" />
          <Button type="submit" color={isComplete ? 'red' : 'gray'} loading={form.submitting} data-testid="custody-review-submit">
            {isComplete ? <Trans>Revoke the certificate and end the custody</Trans> : <Trans>Reject</Trans>}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** The operator's follow-up of cancelled custody (§4 "an agent follows up"). */
export function OperatorKeyRequests() {
  const { t, i18n } = useLingui();
  const [status, setStatus] = useState(String(CUSTODY_REQUEST_STATUS.pending));
  const [review, setReview] = useState<Review>(null);
  const { data: items, reload } = useLoaded(() => fetchCustodyRequests(Number(status) || undefined), [status]);
  const when = (ms: number) => i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack>
      <ReviewQueue
        status={status}
        onStatusChange={setStatus}
        doneLabel={t`Completed`}
        items={items}
        empty={t`No key custody requests.`}
        testId="operator-custody-requests"
        head={
          <Table.Tr>
            <Table.Th>{t`Enterprise`}</Table.Th>
            <Table.Th>{t`Requested by`}</Table.Th>
            <Table.Th>{t`Reason`}</Table.Th>
            <Table.Th>{t`Certificate`}</Table.Th>
            <Table.Th>{t`Status`}</Table.Th>
            <Table.Th />
          </Table.Tr>
        }
        renderRow={(r) => (
          <Table.Tr key={r.id} data-testid={`custody-request-${r.id}`}>
            <Table.Td>{r.enterprise_name}</Table.Td>
            <Table.Td>
              <Text size="sm">{r.requested_by}</Text>
              <Text size="xs" c="dimmed">
                {r.requester_phone} · {when(r.created_at)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {r.reason || '—'}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="xs" ff="monospace">
                {r.certificate_serial ? `${pairs(r.certificate_serial.slice(0, 12))}…` : '—'}
              </Text>
            </Table.Td>
            <Table.Td>
              <ReviewStatus badge={<Badge color={r.status === 1 ? 'orange' : r.status === 2 ? 'red' : 'gray'}>{i18n._(CUSTODY_REQUEST_LABELS[r.status]!)}</Badge>} note={r.review_reason} />
            </Table.Td>
            <Table.Td>
              <ReviewActions isPending={r.status === CUSTODY_REQUEST_STATUS.pending}>
                <Button size="xs" color="red" onClick={() => setReview({ request: r, status: 2 })}>
                  <Trans>Complete</Trans>
                </Button>
                <Button size="xs" variant="light" color="gray" onClick={() => setReview({ request: r, status: 3 })}>
                  <Trans>Reject</Trans>
                </Button>
              </ReviewActions>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <ReviewModal review={review} onClose={() => setReview(null)} onDone={() => { setReview(null); reload(); }} />
    </Stack>
  );
}
