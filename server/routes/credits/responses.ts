import { bool, nullableNum, nullableObj, nullableStr, num, obj, pageSchema, str } from '../schemas.ts';

/** core/credits.ts CreditSummaryDto. */
export const creditSummary = obj({
  available: num,
  consumed: num,
  integral_required: bool,
  prices: obj({ asset: num, vault_file: num }),
  is_admin: bool,
  enterprise: nullableObj({ pool_available: num, members_available: num, consumed: num, topped_up: num, pending_orders: num }),
});

/** core/credits.ts CreditMovementDto. */
export const creditMovement = obj({
  movement_id: num,
  account: str,
  user_id: nullableNum,
  user_name: str,
  kind: str,
  delta: num,
  balance_after: num,
  reference: nullableStr,
  detail: str,
  counterpart_user_id: nullableNum,
  counterpart_name: str,
  actor_name: str,
  created_at: num,
});

/** core/credits.ts CreditMemberDto. */
export const creditMember = obj({ employee_id: num, user_id: num, name: str, phone: str, role: num, status: num, available: num, consumed: num });

/** core/credits.ts AllocationResultDto. */
export const allocationResult = obj({ pool_available: num, member_available: num, employee_id: num });

const orderFields = {
  order_id: num,
  order_no: str,
  amount: num,
  note: str,
  status: num,
  provider: str,
  created_by_name: str,
  created_at: num,
  decided_at: nullableNum,
  reason: str,
} as const;

/** core/credits.ts CreditOrderDto. */
export const creditOrder = obj(orderFields);
/** A new order with what the payer quotes (services/payments.ts PaymentInstructions). */
export const newCreditOrder = obj({ ...orderFields, payment: obj({ reference: str, pay_url: nullableStr }) });
/** core/credits.ts OperatorCreditOrderDto. */
export const operatorCreditOrder = obj({ ...orderFields, enterprise_id: num, enterprise_name: str, created_by_phone: str });

export const movementPage = pageSchema(creditMovement);
export const memberPage = pageSchema(creditMember);
export const orderPage = pageSchema(creditOrder);
export const operatorOrderPage = pageSchema(operatorCreditOrder);
