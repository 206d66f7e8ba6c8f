import { api } from '@/api/client.ts';
import type {
  AllocationDirection,
  AllocationResultDto,
  CreditKind,
  CreditMemberDto,
  CreditMovementDto,
  CreditOrderDto,
  CreditSummaryDto,
  OperatorCreditOrderDto,
} from '../../../core/credits.ts';
import type { Paged } from '../../../core/api-types.ts';

/** The /api/v1/credits calls and the operator console's top-up orders. */

export type MovementQuery = { page: number; page_size: number; kind?: CreditKind[]; from?: number; to?: number; user_id?: number; account?: 'pool' | 'member' };
export type CreatedOrder = CreditOrderDto & { payment: { reference: string; pay_url: string | null } };

export const fetchCreditSummary = (signal?: AbortSignal) => api.get<CreditSummaryDto>('/v1/credits/summary', { signal });
export const fetchMovements = (query: MovementQuery, signal?: AbortSignal) => api.get<Paged<CreditMovementDto>>('/v1/credits/movements', { query, signal });
export const fetchCreditMembers = (query: { page: number; page_size: number; keyword?: string }, signal?: AbortSignal) =>
  api.get<Paged<CreditMemberDto>>('/v1/credits/members', { query, signal });
export const allocateCredits = (input: { employee_id: number; amount: number; direction: AllocationDirection }) => api.post<AllocationResultDto>('/v1/credits/allocations', input);

export const fetchOrders = (query: { page: number; page_size: number; status?: number }, signal?: AbortSignal) => api.get<Paged<CreditOrderDto>>('/v1/credits/orders', { query, signal });
export const createOrder = (input: { amount: number; note: string }) => api.post<CreatedOrder>('/v1/credits/orders', input);
export const cancelOrder = (orderId: number) => api.put<CreditOrderDto>(`/v1/credits/orders/${orderId}`, { status: 4 });

export const fetchOperatorOrders = (query: { page: number; page_size: number; status?: number }, signal?: AbortSignal) =>
  api.get<Paged<OperatorCreditOrderDto>>('/v1/operator/credit-orders', { query, signal });
export const decideOperatorOrder = (orderId: number, status: 2 | 3, reason = '') => api.put<CreditOrderDto>(`/v1/operator/credit-orders/${orderId}`, { status, reason });
