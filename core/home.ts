/**
 * The dashboard home (§2 "a dashboard with counters and an activity feed"): the API
 * shapes of GET /api/v1/home/summary and GET /api/v1/home/activity, shared by server and browser.
 *
 * §6: a plain member (roles 0, 4) sees counters and events of their own data; the super
 * administrator, administrators and the confidentiality officer (1, 2, 3) see the enterprise's.
 */
import type { DisclosureEvent } from './disclosure.ts';
import type { VaultAction } from './vault.ts';
import type { CreditKind } from './credits.ts';

/** Membership history (table member_events): what happened to whom in an enterprise. */
export const MEMBER_EVENT_KINDS = ['created', 'applied', 'approved', 'rejected', 'joined', 'added', 'invited', 'frozen', 'unfrozen', 'role_changed'] as const;
export type MemberEventKind = (typeof MEMBER_EVENT_KINDS)[number];

/** Whose data the caller's home shows (§6). */
export type HomeScope = 'own' | 'enterprise';

export type HomeCountersDto = {
  /** Registered digital assets. */
  assets: number;
  vault_projects: number;
  vault_files: number;
  /** Disclosures sent. */
  disclosures: number;
  credits: {
    /** §3 available credits of the caller's own account. */
    available: number;
    /** §3 consumed credits: what the registrations in scope were charged. */
    consumed: number;
    /** The enterprise's pool, for those who see the enterprise's data; null otherwise. */
    pool: number | null;
  };
  /** Members (confirmed and frozen); null for a caller who may not see the member list (§6). */
  members: number | null;
  /** Applications waiting for an administrator; null for a caller who may not see them. */
  pending_applications: number | null;
};

export type HomeSummaryDto = {
  enterprise_id: number;
  enterprise_name: string;
  role: number;
  scope: HomeScope;
  /** Whether this login session has the vault unlocked: vault names are shown only then. */
  is_vault_open: boolean;
  counters: HomeCountersDto;
};

type EventBase = {
  /** Unique in the feed: `${source}:${row id}`. */
  event_id: string;
  at: number;
  /** Who did it; null for the platform (an expiry) or an outside receiver. */
  actor_user_id: number | null;
  actor_name: string;
  /** The caller did it. */
  is_mine: boolean;
};

export type VaultEventDto = EventBase & {
  source: 'vault';
  kind: VaultAction;
  project_id: number | null;
  /** Null while the vault is locked in this session (names of trade secrets stay behind the unlock). */
  project_name: string | null;
  file_name: string | null;
  dip_id: string | null;
  /** What registering the file was charged (file_registered), else null. */
  credits: number | null;
};

export type MemberEventDto = EventBase & {
  source: 'member';
  kind: MemberEventKind;
  member_user_id: number;
  member_name: string;
  /** The role given (created, joined, added, invited, role_changed). */
  role: number | null;
  /** The event is about the caller. */
  is_about_me: boolean;
};

export type DisclosureFeedEventDto = EventBase & {
  source: 'disclosure';
  kind: DisclosureEvent;
  disclosure_id: string;
  file_name: string;
  /** First 3 and last 4 digits (§2 masking). */
  receiver_phone: string;
};

/** A registration on the ledger that no other source shows (vault files, receipts and assets have their own). */
export type LedgerEventDto = EventBase & {
  source: 'ledger';
  kind: 'registered';
  dip_id: string;
  entry_kind: string;
};

export type AssetEventDto = EventBase & {
  source: 'asset';
  kind: 'registered';
  dip_id: string;
  asset_name: string;
  /** §3 asset type (core/assets.ts). */
  asset_type: number;
  /** What the registration was charged. */
  credits: number;
};

/**
 * Credits moved: a confirmed top-up of the pool (for those who see the enterprise's data), an
 * allocation to a member or one taken back (the member's own, or all for roles 1–3). Charges
 * are shown on the registrations that caused them (VaultEventDto, AssetEventDto `credits`).
 */
export type CreditEventDto = EventBase & {
  source: 'credit';
  kind: Extract<CreditKind, 'top_up' | 'allocate' | 'reclaim'>;
  /** Credits moved (positive). */
  amount: number;
  /** The member whose account changed; null for the pool (top_up). */
  member_user_id: number | null;
  member_name: string;
  /** The top-up order's number. */
  reference: string | null;
};

export type HomeEventDto = VaultEventDto | MemberEventDto | DisclosureFeedEventDto | LedgerEventDto | AssetEventDto | CreditEventDto;
export type HomeEventSource = HomeEventDto['source'];

export type HomeActivityDto = {
  items: HomeEventDto[];
  /** Pass as `cursor` for the next (older) page; null at the end. */
  next_cursor: string | null;
};

/** Feed page sizes. */
export const HOME_FEED_DEFAULT_LIMIT = 20;
export const HOME_FEED_MAX_LIMIT = 50;

/**
 * The feed's position: the last event shown, in feed order (time desc, source rank asc, id
 * desc). Opaque to clients; `${at}.${rank}.${id}`.
 */
export type FeedCursor = { at: number; rank: number; id: number };

export function encodeFeedCursor(c: FeedCursor): string {
  return `${c.at}.${c.rank}.${c.id}`;
}

export function decodeFeedCursor(text: string): FeedCursor | null {
  const m = /^(\d{1,16})\.(\d{1,3})\.(\d{1,16})$/.exec(text);
  if (!m) return null;
  const [at, rank, id] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return Number.isSafeInteger(at) && Number.isSafeInteger(id) ? { at, rank, id } : null;
}
