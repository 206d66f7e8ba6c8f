/**
 * Partner recruitment (§3 "Partner application", §5 "Partner form", §7):
 * the shapes of GET /api/v1/partners/total and POST /api/v1/partners/contracts, and the
 * rules both the browser form and the server apply.
 */
import { charLength, isPhone } from './validation.ts';

/** §7 body of POST /partners/contracts: contract_number carries the contact's phone. */
export type PartnerContractBody = {
  corporation: string;
  name: string;
  contract_number: string;
  enterprise_name: string;
};

export type PartnerTotalDto = { total: number };

/** What the operator console lists. */
export type PartnerContractDto = PartnerContractBody & { id: number; created_at: number };

export const PARTNER_TEXT_MAX = 100;

/** The fields in the order the form shows them (the first failing one answers). */
export const PARTNER_FIELDS = ['enterprise_name', 'name', 'contract_number', 'corporation'] as const;
export type PartnerField = (typeof PARTNER_FIELDS)[number];

/** §5: all four required; the phone exactly 11 digits; each text at most PARTNER_TEXT_MAX characters. */
export function checkPartnerField(field: PartnerField, raw: string): 'required' | 'phone_invalid' | 'lt' | null {
  const value = raw.trim();
  if (!value) return 'required';
  if (field === 'contract_number') return isPhone(value) ? null : 'phone_invalid';
  return charLength(value) > PARTNER_TEXT_MAX ? 'lt' : null;
}

/** Submissions per address per hour (rate limit of POST /partners/contracts). */
export const PARTNER_SUBMISSIONS_PER_HOUR = 5;
/** How long GET /partners/total and the front-page figures are cached (ms). */
export const PUBLIC_FIGURES_TTL_MS = 60_000;

/** The live figures of the front pages (GET /api/v1/public/figures). */
export type PublicFiguresDto = { registrations: number; enterprises: number; blocks: number };
