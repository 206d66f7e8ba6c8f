import { Badge, Text } from '@mantine/core';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CREDIT_AMOUNT_MAX, checkCreditAmount, type CreditMovementDto, type OrderStatus } from '../../../core/credits.ts';
import { ORDER_STATUS_COLORS, ORDER_STATUS_LABELS } from './credit-labels.ts';

/** A change of credits: signed, coloured (green in, red out), in the reader's number format. */
export function SignedAmount({ value, size = 'sm' }: { value: number; size?: string }) {
  const { i18n } = useLingui();
  const sign = value > 0 ? '+' : value < 0 ? '−' : '';
  return (
    <Text span size={size} fw={600} c={value > 0 ? 'teal.8' : value < 0 ? 'red.7' : undefined} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid="movement-delta" data-value={value}>
      {sign}
      {i18n.number(Math.abs(value))}
    </Text>
  );
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { i18n } = useLingui();
  return (
    <Badge color={ORDER_STATUS_COLORS[status] ?? 'gray'} variant="light" tt="none" data-testid="order-status" data-status={status}>
      {i18n._(ORDER_STATUS_LABELS[status] ?? msg`Unknown`)}
    </Badge>
  );
}

export function formatTime(i18n: I18n, ms: number): string {
  return i18n.date(new Date(ms), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The message for a typed amount of credits, or null when it is fine: a whole number from
 * 1 up, and not more than `limit` (what the giving side holds) when one is given.
 */
export function amountProblem(i18n: I18n, raw: string, limit?: { available: number; message: (available: string) => string }): string | null {
  const key = checkCreditAmount(raw);
  if (key === 'required') return i18n._(msg`Please enter a number of credits`);
  const max = i18n.number(CREDIT_AMOUNT_MAX);
  if (key) return i18n._(msg`Enter a whole number of credits from 1 to ${max}`);
  if (limit && Number(raw.trim()) > limit.available) return limit.message(i18n.number(limit.available));
  return null;
}

/** What a movement was about, in a line: the order, the other side of an allocation, the registered file. */
export function movementDetail(i18n: I18n, m: CreditMovementDto): string {
  const counterpart = m.counterpart_name;
  switch (m.kind) {
    case 'top_up':
      return m.detail ? i18n._(msg`Order ${m.reference ?? ''} · ${m.detail}`) : i18n._(msg`Order ${m.reference ?? ''}`);
    case 'allocate':
      return m.account === 'pool' ? i18n._(msg`To ${counterpart}`) : i18n._(msg`From the enterprise pool`);
    case 'reclaim':
      return m.account === 'pool' ? i18n._(msg`From ${counterpart}`) : i18n._(msg`Back to the enterprise pool`);
    default:
      return [m.detail, m.reference].filter(Boolean).join(' · ');
  }
}
