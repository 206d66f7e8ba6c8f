import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import { canSeeEnterpriseData } from '../../core/enterprise.ts';
import { EMPLOYEE_STATUS } from '../../core/enterprise.ts';
import { maskPhone } from '../../core/masking.ts';
import type { DisclosureEvent } from '../../core/disclosure.ts';
import type { VaultAction } from '../../core/vault.ts';
import { CONSUMING_KINDS } from '../../core/credits.ts';
import {
  decodeFeedCursor,
  encodeFeedCursor,
  type FeedCursor,
  type HomeActivityDto,
  type HomeCountersDto,
  type HomeEventDto,
  type MemberEventKind,
} from '../../core/home.ts';

/**
 * The dashboard home: counters and the activity feed of an enterprise, as §6 lets
 * the caller see them. Each kind of data is one small function below: a counter adds its
 * numbers, a feed source lists its newest events older than a bound. Adding a source is adding
 * one such function to COUNTERS or FEED_SOURCES.
 */
export type HomeViewer = {
  enterpriseId: number;
  enterpriseName: string;
  userId: number;
  role: number;
  /** §6 roles 1, 2, 3: the enterprise's data; otherwise only the caller's own. */
  seesAll: boolean;
  /** The vault is unlocked in this login session: vault names may be shown. */
  isVaultOpen: boolean;
};

export function homeViewer(input: { enterpriseId: number; enterpriseName: string; userId: number; role: number; isVaultOpen: boolean }): HomeViewer {
  return { ...input, seesAll: canSeeEnterpriseData(input.role) };
}

/** Whether a login session has the vault of this enterprise unlocked now. */
export async function isVaultOpen(db: Db, sessionId: string, enterpriseId: number): Promise<boolean> {
  const row = await db
    .selectFrom('vault_sessions')
    .select('session_id')
    .where('session_id', '=', sessionId)
    .where('enterprise_id', '=', enterpriseId)
    .where('expires_at', '>', Date.now())
    .executeTakeFirst();
  return Boolean(row);
}

const displayName = (real: string | null | undefined, name: string | null | undefined) => real || name || '';
const count = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);

// ---- counters ------------------------------------------------------------------------------

type Counter = (db: Db, v: HomeViewer) => Promise<Partial<HomeCountersDto>>;

/** Vault projects and files: a plain member's are those of the projects they own (as the vault shows them). */
const vaultCounter: Counter = async (db, v) => {
  let projects = db.selectFrom('vault_projects').select((eb) => eb.fn.countAll().as('n')).where('enterprise_id', '=', v.enterpriseId);
  let files = db
    .selectFrom('vault_files as f')
    .innerJoin('vault_projects as p', 'p.id', 'f.project_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('f.enterprise_id', '=', v.enterpriseId);
  if (!v.seesAll) {
    projects = projects.where('owner_user_id', '=', v.userId);
    files = files.where('p.owner_user_id', '=', v.userId);
  }
  const [p, f] = await Promise.all([projects.executeTakeFirst(), files.executeTakeFirst()]);
  return { vault_projects: count(p), vault_files: count(f) };
};

/** Digital assets: a plain member's are those they registered (as the asset list shows them). */
const assetCounter: Counter = async (db, v) => {
  let q = db.selectFrom('assets').select((eb) => eb.fn.countAll().as('n')).where('enterprise_id', '=', v.enterpriseId);
  if (!v.seesAll) q = q.where('user_id', '=', v.userId);
  return { assets: count(await q.executeTakeFirst()) };
};

/**
 * §3 credit display: the caller's own available credits; consumed, what the registrations in
 * scope were charged (the caller's, or the enterprise's); the pool for roles 1–3.
 */
const creditCounter: Counter = async (db, v) => {
  const own = db.selectFrom('credit_accounts').select('balance').where('enterprise_id', '=', v.enterpriseId).where('user_id', '=', v.userId).executeTakeFirst();
  const pool = v.seesAll ? db.selectFrom('credit_accounts').select('balance').where('enterprise_id', '=', v.enterpriseId).where('user_id', 'is', null).executeTakeFirst() : Promise.resolve(null);
  let spent = db
    .selectFrom('credit_movements')
    .select((eb) => eb.fn.sum<number>('delta').as('n'))
    .where('enterprise_id', '=', v.enterpriseId)
    .where('kind', 'in', CONSUMING_KINDS);
  if (!v.seesAll) spent = spent.where('user_id', '=', v.userId);
  const [o, p, c] = await Promise.all([own, pool, spent.executeTakeFirst()]);
  return { credits: { available: Number(o?.balance ?? 0), consumed: -Number(c?.n ?? 0), pool: p === null ? null : Number(p?.balance ?? 0) } };
};

const disclosureCounter: Counter = async (db, v) => {
  let q = db.selectFrom('disclosures').select((eb) => eb.fn.countAll().as('n')).where('enterprise_id', '=', v.enterpriseId);
  if (!v.seesAll) q = q.where('sender_user_id', '=', v.userId);
  return { disclosures: count(await q.executeTakeFirst()) };
};

/** Members and waiting applications, only for those who may see the member list (§6). */
const memberCounter: Counter = async (db, v) => {
  if (!v.seesAll) return { members: null, pending_applications: null };
  const rows = await db
    .selectFrom('employees')
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .where('enterprise_id', '=', v.enterpriseId)
    .groupBy('status')
    .execute();
  const of = (status: number) => count(rows.find((r) => r.status === status));
  return { members: of(EMPLOYEE_STATUS.confirmed) + of(EMPLOYEE_STATUS.frozen), pending_applications: of(EMPLOYEE_STATUS.applied) };
};

const COUNTERS: readonly Counter[] = [assetCounter, vaultCounter, creditCounter, disclosureCounter, memberCounter];

export async function homeCounters(db: Db, v: HomeViewer): Promise<HomeCountersDto> {
  const base: HomeCountersDto = {
    assets: 0,
    vault_projects: 0,
    vault_files: 0,
    disclosures: 0,
    credits: { available: 0, consumed: 0, pool: null },
    members: null,
    pending_applications: null,
  };
  const parts = await Promise.all(COUNTERS.map((counter) => counter(db, v)));
  return Object.assign(base, ...parts);
}

// ---- the feed ------------------------------------------------------------------------------

/**
 * Which of a source's rows come after the cursor in feed order (time desc, source rank asc,
 * id desc): a source ranked before the cursor's has shown all rows at the cursor's time, the
 * cursor's own source those with a smaller id, a later source none of them yet.
 */
type Bound = { at: number; mode: 'before' } | { at: number; mode: 'through' } | { at: number; mode: 'tie'; id: number };

function boundFor(cursor: FeedCursor | null, rank: number): Bound | null {
  if (!cursor) return null;
  if (rank < cursor.rank) return { at: cursor.at, mode: 'before' };
  if (rank > cursor.rank) return { at: cursor.at, mode: 'through' };
  return { at: cursor.at, mode: 'tie', id: cursor.id };
}

function olderThan(atColumn: string, idColumn: string, b: Bound): RawBuilder<SqlBool> {
  const at = sql.ref(atColumn);
  if (b.mode === 'before') return sql<SqlBool>`${at} < ${b.at}`;
  if (b.mode === 'through') return sql<SqlBool>`${at} <= ${b.at}`;
  return sql<SqlBool>`(${at} < ${b.at} or (${at} = ${b.at} and ${sql.ref(idColumn)} < ${b.id}))`;
}

type FeedRow = { at: number; id: number; event: HomeEventDto };
type FeedSource = (db: Db, v: HomeViewer, bound: Bound | null, limit: number) => Promise<FeedRow[]>;

/**
 * What every feed item has: its place in the feed (time, row id) and the event's head (source,
 * id, time, who acted). `actor` null: nobody of the enterprise acted (a receiver, the system).
 */
function feedItem<S extends HomeEventDto['source']>(source: S, id: unknown, at: unknown, actor: { id: number; name: string } | null, v: HomeViewer) {
  const when = Number(at);
  return {
    at: when,
    id: Number(id),
    head: { source, event_id: `${source}:${id}`, at: when, actor_user_id: actor?.id ?? null, actor_name: actor?.name ?? '', is_mine: actor !== null && actor.id === v.userId },
  };
}

const parseDetail = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};
const str = (d: Record<string, unknown>, key: string) => (typeof d[key] === 'string' ? (d[key] as string) : null);

/** Vault actions on projects (unlocking and locking stay in the vault log); names only while the vault is open. */
const HOME_VAULT_ACTIONS: readonly VaultAction[] = ['project_created', 'project_updated', 'file_registered', 'proof_downloaded'];

const vaultSource: FeedSource = async (db, v, bound, limit) => {
  let q = db
    .selectFrom('vault_logs as l')
    .leftJoin('vault_projects as p', 'p.id', 'l.project_id')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.id', 'l.project_id', 'p.name as project_name', 'l.user_id', 'u.real_name', 'u.name as user_name', 'l.action', 'l.detail', 'l.created_at'])
    .where('l.enterprise_id', '=', v.enterpriseId)
    .where('l.action', 'in', HOME_VAULT_ACTIONS);
  // §6 as the vault log has it: a plain member sees what happened in the projects they own.
  if (!v.seesAll) q = q.where('p.owner_user_id', '=', v.userId);
  if (bound) q = q.where(olderThan('l.created_at', 'l.id', bound));
  const rows = await q.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    const d = parseDetail(r.detail);
    const isFile = r.action === 'file_registered' || r.action === 'proof_downloaded';
    const { head, ...item } = feedItem('vault', r.id, r.created_at, { id: Number(r.user_id), name: displayName(r.real_name, r.user_name) }, v);
    return {
      ...item,
      event: {
        ...head,
        kind: r.action as VaultAction,
        project_id: r.project_id === null ? null : Number(r.project_id),
        project_name: v.isVaultOpen ? (r.project_name ?? str(d, 'name')) : null,
        file_name: v.isVaultOpen && isFile ? str(d, 'name') : null,
        dip_id: v.isVaultOpen && isFile ? str(d, 'dip_id') : null,
        credits: r.action === 'file_registered' && typeof d.credits === 'number' ? d.credits : null,
      },
    };
  });
};

/** Membership history: the whole enterprise's for those who see members, a plain member's own otherwise. */
const memberSource: FeedSource = async (db, v, bound, limit) => {
  let q = db
    .selectFrom('member_events as m')
    .innerJoin('users as s', 's.id', 'm.user_id')
    .leftJoin('users as a', 'a.id', 'm.actor_user_id')
    .select(['m.id', 'm.user_id', 'm.actor_user_id', 'm.kind', 'm.role', 'm.created_at', 's.real_name as subject_real_name', 's.name as subject_name', 'a.real_name as actor_real_name', 'a.name as actor_name'])
    .where('m.enterprise_id', '=', v.enterpriseId);
  if (!v.seesAll) q = q.where('m.user_id', '=', v.userId);
  if (bound) q = q.where(olderThan('m.created_at', 'm.id', bound));
  const rows = await q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    const actor = r.actor_user_id === null ? null : { id: Number(r.actor_user_id), name: displayName(r.actor_real_name, r.actor_name) };
    const { head, ...item } = feedItem('member', r.id, r.created_at, actor, v);
    return {
      ...item,
      event: {
        ...head,
        kind: r.kind as MemberEventKind,
        member_user_id: Number(r.user_id),
        member_name: displayName(r.subject_real_name, r.subject_name),
        role: r.role === null ? null : Number(r.role),
        is_about_me: Number(r.user_id) === v.userId,
      },
    };
  });
};

/** A disclosure's history: sent by a member, then the receiver's steps (an outsider: the masked phone), expiry, revocation. */
const disclosureSource: FeedSource = async (db, v, bound, limit) => {
  let q = db
    .selectFrom('disclosure_events as e')
    .innerJoin('disclosures as d', 'd.id', 'e.disclosure_id')
    .innerJoin('users as s', 's.id', 'd.sender_user_id')
    .select(['e.id', 'e.kind', 'e.at', 'd.id as disclosure_id', 'd.name', 'd.received_phone', 'd.sender_user_id', 's.real_name', 's.name as sender_name'])
    .where('d.enterprise_id', '=', v.enterpriseId);
  if (!v.seesAll) q = q.where('d.sender_user_id', '=', v.userId);
  if (bound) q = q.where(olderThan('e.at', 'e.id', bound));
  const rows = await q.orderBy('e.at', 'desc').orderBy('e.id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    // Only sending is known to be the sender's act; a revocation may be an administrator's.
    const sender = r.kind === 'sent' ? { id: Number(r.sender_user_id), name: displayName(r.real_name, r.sender_name) } : null;
    const { head, ...item } = feedItem('disclosure', r.id, r.at, sender, v);
    return {
      ...item,
      event: {
        ...head,
        kind: r.kind as DisclosureEvent,
        disclosure_id: r.disclosure_id,
        file_name: r.name,
        receiver_phone: maskPhone(r.received_phone),
      },
    };
  });
};

/**
 * Registrations on the ledger that no other source shows (vault files and receipts have
 * theirs). An entry names its enterprise as text, so it counts only when its registrant is a
 * member of the enterprise too: nobody outside can write into an enterprise's feed.
 */
const LEDGER_KINDS_SHOWN_ELSEWHERE = ['vault', 'receipt', 'asset'];

const ledgerSource: FeedSource = async (db, v, bound, limit) => {
  let q = db
    .selectFrom('ledger_entries as e')
    .innerJoin('employees as m', (join) => join.onRef('m.user_id', '=', 'e.registrant_user_id').on('m.enterprise_id', '=', v.enterpriseId))
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['e.id', 'e.dna', 'e.kind', 'e.registered_at', 'm.user_id', 'u.real_name', 'u.name'])
    .where('e.enterprise_name', '=', v.enterpriseName)
    .where('e.kind', 'not in', LEDGER_KINDS_SHOWN_ELSEWHERE);
  if (!v.seesAll) q = q.where('e.registrant_user_id', '=', v.userId);
  if (bound) q = q.where(olderThan('e.registered_at', 'e.id', bound));
  const rows = await q.orderBy('e.registered_at', 'desc').orderBy('e.id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    const { head, ...item } = feedItem('ledger', r.id, r.registered_at, { id: Number(r.user_id), name: displayName(r.real_name, r.name) }, v);
    return { ...item, event: { ...head, kind: 'registered', dip_id: r.dna, entry_kind: r.kind } };
  });
};

/** Digital assets registered: the whole enterprise's for roles 1–3, a plain member's own otherwise. */
const assetSource: FeedSource = async (db, v, bound, limit) => {
  let q = db
    .selectFrom('assets as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.name', 'a.type', 'a.dna', 'a.credits', 'a.user_id', 'a.created_at', 'u.real_name', 'u.name as user_name'])
    .where('a.enterprise_id', '=', v.enterpriseId);
  if (!v.seesAll) q = q.where('a.user_id', '=', v.userId);
  if (bound) q = q.where(olderThan('a.created_at', 'a.id', bound));
  const rows = await q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    const { head, ...item } = feedItem('asset', r.id, r.created_at, { id: Number(r.user_id), name: displayName(r.real_name, r.user_name) }, v);
    return {
      ...item,
      event: {
        ...head,
        kind: 'registered',
        dip_id: r.dna,
        asset_name: r.name,
        asset_type: Number(r.type),
        credits: Number(r.credits),
      },
    };
  });
};

/**
 * Credits moved into the pool (top-ups, for roles 1–3) and between the pool and a member (one
 * row per transfer: the member's side). Registration charges show on their registrations.
 */
const creditSource: FeedSource = async (db, v, bound, limit) => {
  let q = db
    .selectFrom('credit_movements as c')
    .leftJoin('users as m', 'm.id', 'c.user_id')
    .leftJoin('users as a', 'a.id', 'c.actor_user_id')
    .select(['c.id', 'c.kind', 'c.delta', 'c.user_id', 'c.actor_user_id', 'c.reference', 'c.created_at', 'm.real_name as member_real_name', 'm.name as member_name', 'a.real_name as actor_real_name', 'a.name as actor_name'])
    .where('c.enterprise_id', '=', v.enterpriseId)
    .where((eb) => eb.or([eb.and([eb('c.kind', '=', 'top_up'), eb('c.user_id', 'is', null)]), eb.and([eb('c.kind', 'in', ['allocate', 'reclaim']), eb('c.user_id', 'is not', null)])]));
  if (!v.seesAll) q = q.where('c.user_id', '=', v.userId);
  if (bound) q = q.where(olderThan('c.created_at', 'c.id', bound));
  const rows = await q.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(limit).execute();
  return rows.map((r) => {
    const actor = r.actor_user_id === null ? null : { id: Number(r.actor_user_id), name: displayName(r.actor_real_name, r.actor_name) };
    const { head, ...item } = feedItem('credit', r.id, r.created_at, actor, v);
    return {
      ...item,
      event: {
        ...head,
        kind: r.kind as 'top_up' | 'allocate' | 'reclaim',
        amount: Math.abs(Number(r.delta)),
        member_user_id: r.user_id === null ? null : Number(r.user_id),
        member_name: r.user_id === null ? '' : displayName(r.member_real_name, r.member_name),
        reference: r.reference,
      },
    };
  });
};

/** The feed's sources; a source's place in this list is its rank in the cursor (append new ones). */
const FEED_SOURCES: readonly FeedSource[] = [vaultSource, memberSource, disclosureSource, ledgerSource, assetSource, creditSource];

export function parseCursor(text: string | undefined): FeedCursor | null | 'invalid' {
  if (text === undefined || text === '') return null;
  const cursor = decodeFeedCursor(text);
  return cursor && cursor.rank < FEED_SOURCES.length ? cursor : 'invalid';
}

/**
 * One page of the feed, newest first: each source gives its newest `limit + 1` rows past the
 * cursor, the rows are merged in feed order, and the page ends where `limit` does.
 */
export async function homeActivity(db: Db, v: HomeViewer, cursor: FeedCursor | null, limit: number): Promise<HomeActivityDto> {
  const lists = await Promise.all(FEED_SOURCES.map((source, rank) => source(db, v, boundFor(cursor, rank), limit + 1).then((rows) => rows.map((row) => ({ ...row, rank })))));
  const merged = lists.flat().sort((a, b) => b.at - a.at || a.rank - b.rank || b.id - a.id);
  const page = merged.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => row.event),
    next_cursor: merged.length > limit && last ? encodeFeedCursor({ at: last.at, rank: last.rank, id: last.id }) : null,
  };
}
