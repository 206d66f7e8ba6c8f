import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { GRAPH_WINDOW_WEEKS, type EnterpriseHistory, type HistoryContribution } from '../../core/score/enterprise-score.ts';
import { weekOf, weekStart } from '../../core/score/weeks.ts';
import type { ScorePoint } from '../../core/score-api.ts';
import { VERIFY_STATUS } from '../../core/enterprise.ts';
import type { Dialect } from '../db/dialect.ts';
import type { ScoreDb, ScoreTables } from './schema.ts';

/** Rows per multi-row INSERT: under SQLite's 32 766 and PostgreSQL's 65 535 bound parameters. */
const PARAMS_PER_INSERT = 30_000;

/** Inserts many rows in batches (inside the caller's transaction when given one). */
export async function insertMany<T extends keyof ScoreTables>(db: ScoreDb, table: T, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const per = Math.max(1, Math.floor(PARAMS_PER_INSERT / Object.keys(rows[0]).length));
  for (let at = 0; at < rows.length; at += per) {
    await db
      .insertInto(table)
      .values(rows.slice(at, at + per) as never)
      .execute();
  }
}

/** After writing explicit ids, PostgreSQL's identity sequences must move past them. */
export async function syncSequences(db: ScoreDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of ['score_enterprises', 'score_repositories', 'score_developers', 'score_contributions', 'score_assets']) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(db);
  }
}

export async function nextIds(db: ScoreDb): Promise<{ enterprise: number; repository: number; developer: number; contribution: number; asset: number }> {
  const max = async (table: 'score_enterprises' | 'score_repositories' | 'score_developers' | 'score_contributions' | 'score_assets') => {
    const row = await db.selectFrom(table).select((eb) => eb.fn.max<number>('id').as('m')).executeTakeFirst();
    return Number(row?.m ?? 0) + 1;
  };
  return {
    enterprise: await max('score_enterprises'),
    repository: await max('score_repositories'),
    developer: await max('score_developers'),
    contribution: await max('score_contributions'),
    asset: await max('score_assets'),
  };
}

/** Bumped by every write that changes scores or links: the metric's ETag and the analysis cache key. */
export async function dataVersion(db: ScoreDb): Promise<number> {
  const row = await db.selectFrom('score_meta').select('value').where('key', '=', 'data_version').executeTakeFirst();
  return Number(row?.value ?? 0);
}

export async function bumpDataVersion(db: ScoreDb): Promise<number> {
  const next = (await dataVersion(db)) + 1;
  await db.updateTable('score_meta').set({ value: String(next) }).where('key', '=', 'data_version').execute();
  return next;
}

/**
 * Every verified platform enterprise gets a score enterprise (a node on the map) the
 * first time the service sees it; renamed enterprises are renamed on the map.
 */
export async function syncPlatformEnterprises(db: ScoreDb): Promise<number> {
  const platform = await db.selectFrom('enterprises').select(['id', 'name', 'created_at']).where('verify_status', '=', VERIFY_STATUS.verified).execute();
  if (platform.length === 0) return 0;
  const known = new Map((await db.selectFrom('score_enterprises').select(['enterprise_id', 'name', 'id']).where('enterprise_id', 'is not', null).execute()).map((r) => [r.enterprise_id, r]));
  const now = Date.now();
  let added = 0;
  for (const e of platform) {
    const row = known.get(e.id);
    if (!row) {
      await db.insertInto('score_enterprises').values({ uuid: randomUUID(), name: e.name, enterprise_id: e.id, created_at: now, updated_at: now }).execute();
      added++;
    } else if (row.name !== e.name) {
      await db.updateTable('score_enterprises').set({ name: e.name, updated_at: now }).where('id', '=', row.id).execute();
    }
  }
  return added;
}

/**
 * Histories of the given score enterprises (all when ids is undefined), read in a few
 * scans. With `sinceWeek`, contributions that ended before week sinceWeek − 12 are left
 * out: they cannot touch the score of week sinceWeek or later (flow needs the week
 * itself, the graph its 13-week window), which is what an incremental run computes.
 */
export async function loadHistories(db: ScoreDb, ids?: number[], sinceWeek?: number): Promise<Map<number, EnterpriseHistory>> {
  const histories = new Map<number, EnterpriseHistory>();
  const only = ids ? new Set(ids) : null;
  let enterpriseQuery = db.selectFrom('score_enterprises').select(['id', 'enterprise_id', 'name']);
  if (ids) enterpriseQuery = enterpriseQuery.where('id', 'in', ids.length ? ids : [-1]);
  const enterprises = await enterpriseQuery.execute();
  for (const e of enterprises) histories.set(e.id, { repos: [], developers: [], contributions: [], assetWeeks: [] });

  let repoQuery = db.selectFrom('score_repositories').select(['id', 'score_enterprise_id', 'name', 'created_at']).orderBy('id');
  if (ids) repoQuery = repoQuery.where('score_enterprise_id', 'in', ids.length ? ids : [-1]);
  const repoIndex = new Map<number, { enterprise: number; index: number }>();
  for (const r of await repoQuery.execute()) {
    const h = histories.get(r.score_enterprise_id);
    if (!h) continue;
    repoIndex.set(r.id, { enterprise: r.score_enterprise_id, index: h.repos.length });
    h.repos.push({ id: r.id, name: r.name, createdWeek: weekOf(Number(r.created_at)) });
  }

  let contributionQuery = db
    .selectFrom('score_contributions as c')
    .innerJoin('score_repositories as r', 'r.id', 'c.repository_id')
    .innerJoin('score_developers as d', 'd.id', 'c.developer_id')
    .select(['c.repository_id', 'c.developer_id', 'c.from_at', 'c.to_at', 'c.commits', 'd.name as developer_name'])
    .orderBy('c.id');
  if (ids) contributionQuery = contributionQuery.where('r.score_enterprise_id', 'in', ids.length ? ids : [-1]);
  if (sinceWeek !== undefined) contributionQuery = contributionQuery.where('c.to_at', '>=', weekStart(sinceWeek - GRAPH_WINDOW_WEEKS + 1));
  const devIndex = new Map<number, Map<number, number>>(); // enterprise → developer id → index
  for (const c of await contributionQuery.execute()) {
    const at = repoIndex.get(c.repository_id);
    if (!at) continue;
    const h = histories.get(at.enterprise)!;
    let devs = devIndex.get(at.enterprise);
    if (!devs) devIndex.set(at.enterprise, (devs = new Map()));
    let d = devs.get(c.developer_id);
    if (d === undefined) {
      d = h.developers.length;
      devs.set(c.developer_id, d);
      h.developers.push({ id: c.developer_id, name: c.developer_name });
    }
    const fromWeek = weekOf(Number(c.from_at));
    const toWeek = Math.max(fromWeek, weekOf(Number(c.to_at)));
    const contribution: HistoryContribution = { repo: at.index, developer: d, fromWeek, toWeek, commits: c.commits };
    h.contributions.push(contribution);
  }

  let assetQuery = db.selectFrom('score_assets').select(['score_enterprise_id', 'registered_at']);
  if (ids) assetQuery = assetQuery.where('score_enterprise_id', 'in', ids.length ? ids : [-1]);
  for (const a of await assetQuery.execute()) histories.get(a.score_enterprise_id)?.assetWeeks.push(weekOf(Number(a.registered_at)));

  // Registrations on the platform's own ledger count for the enterprise that made them.
  const linked = enterprises.filter((e) => e.enterprise_id !== null && (!only || only.has(e.id)));
  if (linked.length) {
    const byName = new Map<string, number>();
    const names = await db.selectFrom('enterprises').select(['id', 'name']).where('id', 'in', linked.map((e) => e.enterprise_id!)).execute();
    const scoreIdOf = new Map(linked.map((e) => [e.enterprise_id!, e.id]));
    for (const n of names) byName.set(n.name, scoreIdOf.get(n.id)!);
    const entries = await db
      .selectFrom('ledger_entries')
      .select(['enterprise_name', 'registered_at'])
      .where('enterprise_name', 'in', [...byName.keys()])
      .execute();
    for (const e of entries) {
      const id = byName.get(e.enterprise_name);
      if (id !== undefined) histories.get(id)?.assetWeeks.push(weekOf(Number(e.registered_at)));
    }
  }
  return histories;
}

/** Stored series: columns to keep 20 000 enterprises × 2 years small (one row each). */
type StoredPoints = { capital: number[]; amount: number[]; flow: number[]; density: number[]; centralization: number[] };

export function encodePoints(points: ScorePoint[]): string {
  const stored: StoredPoints = { capital: [], amount: [], flow: [], density: [], centralization: [] };
  for (const p of points) {
    stored.capital.push(p.capital);
    stored.amount.push(p.amount);
    stored.flow.push(p.flow);
    stored.density.push(p.density);
    stored.centralization.push(p.centralization);
  }
  return JSON.stringify(stored);
}

/**
 * A stored series cut to its first `keep` weeks with `added` appended, without building
 * point objects (an incremental run does this for every enterprise).
 */
export function appendPoints(text: string, keep: number, added: ScorePoint[]): string {
  const s = JSON.parse(text) as StoredPoints;
  const columns = [s.capital, s.amount, s.flow, s.density, s.centralization];
  for (const column of columns) column.length = Math.min(column.length, keep);
  for (const p of added) {
    s.capital.push(p.capital);
    s.amount.push(p.amount);
    s.flow.push(p.flow);
    s.density.push(p.density);
    s.centralization.push(p.centralization);
  }
  return JSON.stringify(s);
}

/** The capital of stored week k (0 before the first), read without decoding the rest into objects. */
export function capitalAt(text: string, k: number): number {
  if (k < 0) return 0;
  const start = text.indexOf('[') + 1;
  let at = start;
  for (let i = 0; i < k; i++) at = text.indexOf(',', at) + 1;
  const end = text.slice(at).search(/[,\]]/);
  return Number(text.slice(at, at + end));
}

export function decodePoints(text: string, timestampOf: (k: number) => number): ScorePoint[] {
  const s = JSON.parse(text) as StoredPoints;
  return s.capital.map((capital, k) => ({ timestamp: timestampOf(k), capital, amount: s.amount[k], flow: s.flow[k], density: s.density[k], centralization: s.centralization[k] }));
}
