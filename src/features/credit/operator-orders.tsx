import { useCallback, useEffect, useState } from 'react';
import { Button, Group, Modal, Pagination, SegmentedControl, Stack, Table, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { Trans, useLingui } from '@lingui/react/macro';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { PageLoader } from '@/components/page-loader.tsx';
import { ORDER_REASON_MAX, ORDER_STATUS, type OperatorCreditOrderDto, type Paged } from '../../../core/credits.ts';
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
  const [data, setData] = useState<Paged<OperatorCreditOrderDto> | null>(null);
  const [rejecting, setRejecting] = useState<OperatorCreditOrderDto | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      setData(await fetchOperatorOrders({ page, page_size: PAGE_SIZE, status: Number(status) || undefined }));
    } catch (error) {
      notifyError(error, i18n);
    }
  }, [page, status, i18n]);
  useEffect(() => {
    void load();
  }, [load]);

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
          void load();
        }
      },
    });
  };

  const items = data?.items ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        <Trans>Companies pay top-up orders by bank transfer with the order number as the remark. Confirm an order only once its transfer has arrived in full.</Trans>
      </Text>
      <SegmentedControl
        w="fit-content"
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        data={[
          { value: String(ORDER_STATUS.pending), label: t`Pending` },
          { value: String(ORDER_STATUS.confirmed), label: t`Confirmed` },
          { value: String(ORDER_STATUS.rejected), label: t`Rejected` },
          { value: '0', label: t`All` },
        ]}
      />
      {data === null ? (
        <PageLoader />
      ) : items.length === 0 ? (
        <Text c="dimmed" data-testid="operator-orders-empty">{t`No top-up orders.`}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="sm" data-testid="operator-credit-orders">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Order number`}</Table.Th>
                <Table.Th>{t`Company`}</Table.Th>
                <Table.Th ta="right">{t`Credits`}</Table.Th>
                <Table.Th>{t`Requested by`}</Table.Th>
                <Table.Th>{t`Note`}</Table.Th>
                <Table.Th>{t`Status`}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((o) => (
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
                    <OrderStatusBadge status={o.status} />
                    {o.reason && (
                      <Text size="xs" c="dimmed">
                        {o.reason}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {o.status === ORDER_STATUS.pending && (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" loading={busyId === o.order_id} onClick={() => onConfirm(o)} data-testid="confirm-order">
                          <Trans>Confirm</Trans>
                        </Button>
                        <Button size="xs" variant="light" color="red" onClick={() => setRejecting(o)} data-testid="reject-order">
                          <Trans>Reject</Trans>
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
      <RejectOrderModal
        order={rejecting}
        onClose={() => setRejecting(null)}
        onDone={() => {
          setRejecting(null);
          void load();
        }}
      />
    </Stack>
  );
}
