import { operatorLogin } from './operator-helpers.ts';
import type { Harness } from './harness.ts';

/**
 * Credits through the real path: an administrator orders a top-up, a platform
 * operator confirms it in the console API, the administrator allocates to the member.
 */

let operatorSeq = 0;
/** A logged-in platform operator's cookie (a new operator each call). */
export async function operatorCookie(h: Harness): Promise<string> {
  operatorSeq += 1;
  const loginId = `ops-credits-${process.pid}-${operatorSeq}`;
  return operatorLogin(h, loginId);
}

/** An administrator's top-up order of `amount`, confirmed by an operator: the pool grows by `amount`. */
export async function topUpPool(h: Harness, admin: { cookie: string }, amount: number, operator?: string): Promise<{ order_id: number; order_no: string }> {
  const order = await h.request({ method: 'POST', url: '/api/v1/credits/orders', cookie: admin.cookie, body: { amount, note: 'test top-up' } });
  if (order.statusCode !== 200) throw new Error(`order failed: ${order.body}`);
  const { order_id: orderId, order_no: orderNo } = order.json().data;
  const confirmed = await h.request({ method: 'PUT', url: `/api/v1/operator/credit-orders/${orderId}`, cookie: operator ?? (await operatorCookie(h)), body: { status: 2 } });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return { order_id: orderId, order_no: orderNo };
}

/** The employee id of the member with this phone, as the credits members list gives it. */
export async function employeeIdOf(h: Harness, admin: { cookie: string }, phone: string): Promise<number> {
  const res = await h.request({ method: 'GET', url: `/api/v1/credits/members?keyword=${phone}`, cookie: admin.cookie });
  const item = res.json().data?.items?.find((m: { phone: string }) => m.phone === phone);
  if (!item) throw new Error(`no member ${phone}: ${res.body}`);
  return item.employee_id;
}

/** Gives a member (the administrator themselves included) `amount` credits: top-up, confirmation, allocation. */
export async function giveCredits(h: Harness, admin: { cookie: string }, member: { phone: string }, amount: number): Promise<void> {
  await topUpPool(h, admin, amount);
  const res = await h.request({ method: 'POST', url: '/api/v1/credits/allocations', cookie: admin.cookie, body: { employee_id: await employeeIdOf(h, admin, member.phone), amount } });
  if (res.statusCode !== 200) throw new Error(`allocation failed: ${res.body}`);
}

/**
 * Registers a file the only way there is: as a digital asset of the caller's enterprise
 * (membership, role and credits checked, the price charged). Returns the ledger entry's
 * DNA, identity and time, as the asset API gives them.
 */
export async function registerAsset(h: Harness, member: { cookie: string }, fileHash: string, name = 'file'): Promise<{ asset_dna: string; file_hash: string; registered_at: number }> {
  const res = await h.request({ method: 'POST', url: '/api/v1/assets', cookie: member.cookie, body: { name, type: 1, file_hash: fileHash, size: 1 } });
  if (res.statusCode !== 200) throw new Error(`asset registration failed: ${res.body}`);
  const a = res.json().data as { dip_id: string; file_hash: string; registered_at: number };
  return { asset_dna: a.dip_id, file_hash: a.file_hash, registered_at: a.registered_at };
}

/** Gives a member (or the owner) credits for `count` asset registrations at the configured price. */
export async function creditsForAssets(h: Harness, admin: { cookie: string }, member: { phone: string }, count: number): Promise<void> {
  const amount = h.app.config.credits.assetRegistration * count;
  if (h.app.config.integralRequired && amount > 0) await giveCredits(h, admin, member, amount);
}
