/**
 * Credits (§3 credit display, §8 integrals not enough, §9 registration costs and the
 * "integral required" flag), shared by the server and the browser.
 *
 * Each enterprise has a pool account (filled by confirmed top-up orders) and each member
 * an account of their own (filled by administrators from the pool). Registrations are
 * charged to the registering member's account. Every movement is one ledger row.
 */
import type { DeploymentConfig } from './config.ts';
import type { ErrorKey } from './errors.ts';

/** What moved credits: a confirmed top-up into the pool, pool → member, member → pool, a registration's charge. */
export const CREDIT_KINDS = ['top_up', 'allocate', 'reclaim', 'asset_registration', 'vault_file_registration', 'commit_registration', 'application_file_registration'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];
/** The kinds that count as consumed (§3 consumed credits). */
export const CONSUMING_KINDS: readonly CreditKind[] = ['asset_registration', 'vault_file_registration', 'commit_registration', 'application_file_registration'];

/** What a registration is, for its price (§9: 200 per asset, 1000 per vault file, 0 per source-code commit, 10 per application file, by configuration). */
export type RegistrationKind = 'asset' | 'vault_file' | 'commit' | 'application_file';
export const REGISTRATION_CREDIT_KIND: Record<RegistrationKind, CreditKind> = { asset: 'asset_registration', vault_file: 'vault_file_registration', commit: 'commit_registration', application_file: 'application_file_registration' };

/** The price of a registration under this configuration: 0 when the deployment does not require credits. */
export function registrationPrice(config: Pick<DeploymentConfig, 'integralRequired' | 'credits'>, kind: RegistrationKind): number {
  if (!config.integralRequired) return 0;
  return kind === 'asset' ? config.credits.assetRegistration : kind === 'commit' ? config.credits.commit : kind === 'application_file' ? config.credits.applicationFile : config.credits.vaultFile;
}

/** Top-up order states. */
export const ORDER_STATUS = { pending: 1, confirmed: 2, rejected: 3, cancelled: 4 } as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** The most credits one order or one allocation moves (a typing slip of extra zeros is refused). */
export const CREDIT_AMOUNT_MAX = 100_000_000;
/** The most pending orders an enterprise keeps open at once. */
export const PENDING_ORDERS_MAX = 10;
/** A top-up order's note (for the operator) and an operator's rejection reason. */
export const ORDER_NOTE_MAX = 200;
export const ORDER_REASON_MAX = 200;

/** An amount of credits to move: a whole number from 1 to CREDIT_AMOUNT_MAX. */
export function checkCreditAmount(value: unknown): ErrorKey | null {
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return 'required';
  // Typed amounts are plain digits: "1e3", "0x10" or "1,000" are not what a person means by a number of credits.
  if (typeof value === 'string' && !/^\s*\d+\s*$/.test(value)) return 'invalid_param';
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > CREDIT_AMOUNT_MAX) return 'invalid_param';
  return null;
}


/** GET /credits/summary. `enterprise` only for those who see the enterprise's data (§6 roles 1, 2, 3). */
export type CreditSummaryDto = {
  /** §3 available credits of the caller's own account. */
  available: number;
  /** §3 consumed credits: what the caller's registrations were charged. */
  consumed: number;
  integral_required: boolean;
  prices: { asset: number; vault_file: number };
  is_admin: boolean;
  enterprise: null | {
    pool_available: number;
    /** Credits held by members, not yet spent. */
    members_available: number;
    consumed: number;
    topped_up: number;
    pending_orders: number;
  };
};

export type CreditMovementDto = {
  movement_id: number;
  /** Whose account: the enterprise pool, or a member's. */
  account: 'pool' | 'member';
  user_id: number | null;
  user_name: string;
  kind: CreditKind;
  /** Signed: positive into the account, negative out of it. */
  delta: number;
  balance_after: number;
  /** The order number of a top-up, the DNA of a registration. */
  reference: string | null;
  /** The registered file's name, the order's note. */
  detail: string;
  /** For allocations: the other side (a member's name; '' for the pool). */
  counterpart_user_id: number | null;
  counterpart_name: string;
  /** Who did it ('' when a platform operator confirmed a top-up). */
  actor_name: string;
  created_at: number;
};

export type CreditOrderDto = {
  order_id: number;
  /** What the payer writes on the transfer so the operator can match it. */
  order_no: string;
  amount: number;
  note: string;
  status: OrderStatus;
  provider: string;
  created_by_name: string;
  created_at: number;
  decided_at: number | null;
  reason: string;
};

export type OperatorCreditOrderDto = CreditOrderDto & { enterprise_id: number; enterprise_name: string; created_by_phone: string };

export type CreditMemberDto = {
  employee_id: number;
  user_id: number;
  name: string;
  phone: string;
  role: number;
  status: number;
  available: number;
  consumed: number;
};

export type AllocationDirection = 'allocate' | 'reclaim';
export type AllocationResultDto = { pool_available: number; member_available: number; employee_id: number };
