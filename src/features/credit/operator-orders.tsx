import { useState } from 'react';
import { Button, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { Trans, useLingui } from '@lingui/react/macro';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { useLoaded } from '@/api/use-loaded.ts';
import { ListPager } from '@/components/paged-list.tsx';
import { ReviewActions, ReviewQueue, ReviewStatus } from '@/components/review-queue.tsx';
import { ORDER_REASON_MAX, ORDER_STATUS, type OperatorCreditOrderDto } from '../../../core/credits.ts';
import { decideOperatorOrder, fetchOperatorOrders } from './credit-api.ts';
import { OrderStatusBadge, formatTime } from './credit-format.tsx';

const PAGE_SIZE = 20;

function RejectOrderModal({ order, onClose, onDone }: { order: OperatorCreditOrderDto | null; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: { reason: (v) => (!v.trim() ? t`Please give a reason` : Array.from(v.trim()).length > ORDER_REASON_MAX ? t`At most ${ORDER_REASON_MAX} characters` : null) },
  });
  const onSubmit = form.onSubmit(async (values) => {
    if (!order) return;
    try {
      await decideOperatorOrder(order.order_id, ORDER_STATUS.rejected, values.reason.trim());
      form.reset();
      onDone();
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  return (
    <Modal opened={order !== null} onClose={onClose} title={t`Reject the top-up order`} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {order && (
            <Text size="sm">
              {order.order_no} · {order.enterprise_name} · {t`${i18n.number(order.amount)} credits`}
            </Text>
          )}
          <Textarea label={t`Reason (shown to the company)`} autosize minRows={3} {...form.getInputProps('reason')} data-testid="reject-order-reason" />
          <Button type="submit" color="red" loading={form.submitting} data-testid="reject-order-submit">
            <Trans>Reject</Trans>
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The operator console's top-up orders (default payment provider: offline transfer).
 * Confirming says the company's transfer arrived and credits its pool, once; rejecting
 * needs a reason the company sees.
 */
export function OperatorCreditOrders() {
  const { t, i18n } = useLingui();
  const [status, setStatus] = useState(String(ORDER_STATUS.pending));
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<OperatorCreditOrderDto | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const { data, reload } = useLoaded((signal) => fetchOperatorOrders({ page, page_size: PAGE_SIZE, status: Number(status) || undefined }, signal), [page, status]);

  const onConfirm = (o: OperatorCreditOrderDto) => {
    const amount = i18n.number(o.amount);
    modals.openConfirmModal({
      title: t`Confirm the transfer arrived?`,
      children: <Text size="sm">{t`${o.enterprise_name} transferred the money for order ${o.order_no}. Confirming puts ${amount} credits into the company's pool; this cannot be undone.`}</Text>,
      labels: { confirm: t`Confirm the top-up`, cancel: t`Back` },
      confirmProps: { 'data-testid': 'confirm-order-submit' } as Record<string, string>,
      onConfirm: async () => {
        setBusyId(o.order_id);
        try {
          await decideOperatorOrder(o.order_id, ORDER_STATUS.confirmed);
        } catch (error) {
          notifyError(error, i18n);
        } finally {
          setBusyId(null);
          reload();
        }
      },
    });
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        <Trans>Companies pay top-up orders by bank transfer with the order number as the remark. Confirm an order only once its transfer has arrived in full.</Trans>
      </Text>
      <ReviewQueue
        status={status}
        onStatusChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        doneLabel={t`Confirmed`}
        items={data?.items ?? null}
        empty={t`No top-up orders.`}
        emptyTestId="operator-orders-empty"
        testId="operator-credit-orders"
        verticalSpacing="sm"
        head={
          <Table.Tr>
            <Table.Th>{t`Order number`}</Table.Th>
            <Table.Th>{t`Company`}</Table.Th>
            <Table.Th ta="right">{t`Credits`}</Table.Th>
            <Table.Th>{t`Requested by`}</Table.Th>
            <Table.Th>{t`Note`}</Table.Th>
            <Table.Th>{t`Status`}</Table.Th>
            <Table.Th />
          </Table.Tr>
        }
        renderRow={(o) => (
          <Table.Tr key={o.order_id} data-testid={`operator-order-${o.order_no}`}>
            <Table.Td ff="monospace">{o.order_no}</Table.Td>
            <Table.Td>{o.enterprise_name}</Table.Td>
            <Table.Td ta="right" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {i18n.number(o.amount)}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{o.created_by_name}</Text>
              <Text size="xs" c="dimmed">
                {o.created_by_phone} · {formatTime(i18n, o.created_at)}
              </Text>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 240 }}>{o.note}</Table.Td>
            <Table.Td>
              <ReviewStatus badge={<OrderStatusBadge status={o.status} />} note={o.reason} />
            </Table.Td>
            <Table.Td>
              <ReviewActions isPending={o.status === ORDER_STATUS.pending}>
                <Button size="xs" loading={busyId === o.order_id} onClick={() => onConfirm(o)} data-testid="confirm-order">
                  <Trans>Confirm</Trans>
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => setRejecting(o)} data-testid="reject-order">
                  <Trans>Reject</Trans>
                </Button>
              </ReviewActions>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <ListPager data={data} page={page} onChange={setPage} />
      <RejectOrderModal
        order={rejecting}
        onClose={() => setRejecting(null)}
        onDone={() => {
          setRejecting(null);
          reload();
        }}
      />
    </Stack>
  );
}
