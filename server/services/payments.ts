/**
 * How top-up orders are paid. An order is created pending; the provider says how
 * the payer pays it and how the platform learns that it was paid. Crediting the pool is
 * never the provider's business: `decideOrder` (services/credits.ts) does it exactly once,
 * whether an operator confirms in the console or a provider's callback does.
 *
 * The default provider is an offline bank transfer: the payer writes the order number on
 * the transfer, a platform operator sees the money arrive and confirms the order in the
 * operator console (/operator). Nothing in the product pretends that a payment happened.
 */
export type PaymentInstructions = {
  /** What the payer quotes with the payment (the transfer's remark), so that it can be matched. */
  reference: string;
  /** Where the payer pays online, for providers that have such a page; null for an offline transfer. */
  pay_url: string | null;
};

export type PaymentProvider = {
  /** Stored with each order. */
  readonly name: string;
  /** `operator`: confirmed or rejected by a platform operator in the console; `callback`: by the provider's notification. */
  readonly confirmation: 'operator' | 'callback';
  /** Starts paying a new order. */
  begin(order: { order_no: string; amount: number; enterprise_id: number }): Promise<PaymentInstructions>;
};

export const offlineTransferProvider: PaymentProvider = {
  name: 'offline_transfer',
  confirmation: 'operator',
  async begin(order) {
    return { reference: order.order_no, pay_url: null };
  },
};
