import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Pagination, SegmentedControl, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconBuildingBank } from '@tabler/icons-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useConfig } from '@/config/config-atom.ts';
import { applyServerErrors } from '@/api/apply-server-errors.ts';
import { notifyError } from '@/api/error-messages.ts';
import { ORDER_NOTE_MAX, ORDER_STATUS, type CreditOrderDto, type Paged } from '../../../core/credits.ts';
import { cancelOrder, createOrder, fetchOrders, type CreatedOrder } from './credit-api.ts';
import { OrderStatusBadge, amountProblem, formatTime } from './credit-format.tsx';

function OrderForm({ onCreated }: { onCreated: (order: CreatedOrder) => void }) {
  const { t, i18n } = useLingui();
  const form = useForm({
    mode: 'controlled',
    initialValues: { amount: '', note: '' },
    validate: {
      amount: (v) => amountProblem(i18n, v),
      note: (v) => (Array.from(v.trim()).length > ORDER_NOTE_MAX ? t`At most ${ORDER_NOTE_MAX} characters` : null),
    },
  });
  const onSubmit = form.onSubmit(async (values) => {
    try {
      const order = await createOrder({ amount: Number(values.amount.trim()), note: values.note.trim() });
      form.reset();
      onCreated(order);
    } catch (error) {
      applyServerErrors(form, error, { i18n });
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate data-testid="order-form">
      <Stack gap="sm">
        <TextInput label={t`Credits to top up`} inputMode="numeric" autoComplete="off" withAsterisk {...form.getInputProps('amount')} data-testid="order-amount" />
        <Textarea label={t`Note for the platform (optional)`} autosize minRows={2} maxRows={4} {...form.getInputProps('note')} />
        <Group>
          <Button type="submit" loading={form.submitting} data-testid="order-submit">
            <Trans>Create the top-up order</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Top-up (administrators): an order for the company's pool, paid by bank transfer quoting
 * the order number; a platform operator confirms it when the transfer arrives, and only
 * then are the credits in the pool. Pending orders can be cancelled.
 */
export function CreditTopUp({ onChange, version }: { onChange: () => void; version: number }) {
  const { t, i18n } = useLingui();
  const config = useConfig();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const [status, setStatus] = useState('0');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Paged<CreditOrderDto> | null>(null);
  const [created, setCreated] = useState<CreatedOrder | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchOrders({ page, page_size: config.tablePageSize, status: Number(status) || undefined }, controller.signal)
      .then(setData)
      .catch((e: unknown) => {
        if ((e as Error)?.name !== 'AbortError') notifyError(e, i18n);
      });
    return () => controller.abort();
  }, [page, status, config.tablePageSize, version, i18n]);

  const onCancel = (order: CreditOrderDto) =>
    modals.openConfirmModal({
      title: t`Cancel this order?`,
      children: <Text size="sm">{t`Order ${order.order_no} for ${i18n.number(order.amount)} credits will be cancelled. Do not transfer money for it.`}</Text>,
      labels: { confirm: t`Cancel the order`, cancel: t`Keep it` },
      confirmProps: { color: 'red', 'data-testid': 'confirm-cancel-order' } as Record<string, string>,
      onConfirm: async () => {
        try {
          await cancelOrder(order.order_id);
          if (created?.order_id === order.order_id) setCreated(null);
          onChange();
        } catch (error) {
          notifyError(error, i18n);
        }
      },
    });

  const items = data?.items ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const cancelButton = (o: CreditOrderDto) =>
    o.status === ORDER_STATUS.pending ? (
      <Button size="compact-sm" variant="subtle" color="red" onClick={() => onCancel(o)} data-testid="cancel-order">
        <Trans>Cancel</Trans>
      </Button>
    ) : null;
  const outcome = (o: CreditOrderDto) => (o.status === ORDER_STATUS.rejected && o.reason ? t`Reason: ${o.reason}` : o.note);

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Group gap="xs" wrap="nowrap">
            <IconBuildingBank size={20} />
            <Title order={3} size="h4">
              <Trans>Top up the company's pool</Trans>
            </Title>
          </Group>
          <Text size="sm" c="dimmed">
            <Trans>
              Create an order, then pay it by bank transfer to the platform, writing the order number as the transfer's remark. A platform operator confirms the order when the transfer arrives; the credits are in the pool from then on, and you give them to members in Member top-up.
            </Trans>
          </Text>
          {created && (
            <Alert color="blue" title={t`Order created: awaiting your transfer`} withCloseButton onClose={() => setCreated(null)} data-testid="order-created">
              <Text size="sm">
                <Trans>
                  Transfer the amount for {i18n.number(created.amount)} credits and write <b data-testid="order-reference">{created.payment.reference}</b> as the remark. The platform confirms it once the money has arrived.
                </Trans>
              </Text>
            </Alert>
          )}
          <OrderForm
            onCreated={(order) => {
              setCreated(order);
              setStatus('0');
              setPage(1);
              onChange();
            }}
          />
        </Stack>
      </Card>

      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={3} size="h4">
            <Trans>Orders</Trans>
          </Title>
          <SegmentedControl
            size="xs"
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
            data={[
              { value: '0', label: t`All` },
              { value: String(ORDER_STATUS.pending), label: t`Pending` },
              { value: String(ORDER_STATUS.confirmed), label: t`Confirmed` },
              { value: String(ORDER_STATUS.rejected), label: t`Rejected` },
            ]}
          />
        </Group>
        {data && items.length === 0 && (
          <Text c="dimmed" size="sm" data-testid="orders-empty">
            <Trans>No orders yet.</Trans>
          </Text>
        )}
        {items.length > 0 && isMobile && (
          <Stack gap="sm" data-testid="order-list">
            {items.map((o) => (
              <Card key={o.order_id} withBorder radius="md" padding="md" data-testid={`order-${o.order_no}`}>
                <Stack gap={4}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {t`${i18n.number(o.amount)} credits`}
                    </Text>
                    <OrderStatusBadge status={o.status} />
                  </Group>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {o.order_no}
                  </Text>
                  {outcome(o) && (
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {outcome(o)}
                    </Text>
                  )}
                  <Group justify="space-between" gap="xs">
                    <Text size="xs" c="dimmed">
                      {formatTime(i18n, o.created_at)} · {o.created_by_name}
                    </Text>
                    {cancelButton(o)}
                  </Group>
                </Stack>
              </Card>
            ))}
          </Stack>
        )}
        {items.length > 0 && !isMobile && (
          <Card withBorder radius="md" padding={0}>
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="sm" data-testid="order-list">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t`Order number`}</Table.Th>
                    <Table.Th ta="right">{t`Credits`}</Table.Th>
                    <Table.Th>{t`Status`}</Table.Th>
                    <Table.Th>{t`Created`}</Table.Th>
                    <Table.Th>{t`Note`}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((o) => (
                    <Table.Tr key={o.order_id} data-testid={`order-${o.order_no}`}>
                      <Table.Td ff="monospace">{o.order_no}</Table.Td>
                      <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {i18n.number(o.amount)}
                      </Table.Td>
                      <Table.Td>
                        <OrderStatusBadge status={o.status} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatTime(i18n, o.created_at)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {o.created_by_name}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 260 }}>
                        <Text size="sm">{outcome(o)}</Text>
                      </Table.Td>
                      <Table.Td ta="right">{cancelButton(o)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        )}
        {pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={page} onChange={setPage} size="sm" />
          </Group>
        )}
      </Stack>
    </Stack>
  );
}
