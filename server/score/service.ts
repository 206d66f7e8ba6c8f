import { syncPlatformCode } from './platform-code.ts';
import { gzipSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { eachWeekAnalysis, firstWeek, scorePoints, type EnterpriseHistory, type WeekAnalysis } from '../../core/score/enterprise-score.ts';
import { weekOf, weekStart, WEEK_MS } from '../../core/score/weeks.ts';
import { encodeMetricBinary, type EnterpriseNode, type MetricColumns, type ScorePoint } from '../../core/score-api.ts';
import type { Db } from '../db/database.ts';
import type { Dialect } from '../db/dialect.ts';
import { scoreDb, type ScoreDb } from './schema.ts';
import { appendPoints, bumpDataVersion, capitalAt, dataVersion, decodePoints, encodePoints, insertMany, loadHistories, syncPlatformEnterprises } from './store.ts';

/** Links between enterprises: shared developers over the last 52 weeks, each enterprise keeping its strongest few. */
export const LINK_WINDOW_WEEKS = 52;
export const LINKS_PER_ENTERPRISE = 4;
/** A developer active in more enterprises than this is ignored for links (bots, mass contributors). */
const LINK_MAX_ENTERPRISES_PER_DEVELOPER = 50;

export type RecomputeStats = { enterprises: number; full: number; incremental: number; weeks: number; links: number; ms: number };
export type EnterpriseRow = { id: number; uuid: string; name: string; activated: number; activated_at: number | null; is_demo: number; updated_at: number };

type Analysis = { weeks: WeekAnalysis[]; key: string };
type MetricCache = { version: string; nodes: EnterpriseNode[]; columns: MetricColumns; json: Buffer; columnar: Buffer; binary: Buffer; gz: Map<string, Buffer> };

export type ScoreService = ReturnType<typeof scoreService>;

/**
 * The score service: weekly (incremental) recomputation of every enterprise's series
 * and of the map's links, activation, and cached reads for the routes.
 */
export function scoreService(rawDb: Db, dialect: Dialect, log?: FastifyBaseLogger) {
  const db: ScoreDb = scoreDb(rawDb);
  let running: Promise<RecomputeStats> | null = null;
  const analyses = new Map<number, Analysis>(); // LRU by insertion order
  const ANALYSES_KEPT = 24;
  const computing = new Map<string, Promise<WeekAnalysis[]>>();
  let metric: MetricCache | null = null;
  const buildingMetric = new Map<string, Promise<MetricCache>>();

  async function runRecompute(opts: { now?: number; full?: boolean }): Promise<RecomputeStats> {
    const started = performance.now();
    await syncPlatformEnterprises(db);
    await syncPlatformCode(db);
    const currentWeek = weekOf(opts.now ?? Date.now());
    const stored = new Map((await db.selectFrom('score_series').select(['score_enterprise_id', 'first_week', 'last_week', 'points']).execute()).map((r) => [r.score_enterprise_id, r]));
    // Enterprises with a stored series only need recent contributions; the others their whole history.
    const extendable = opts.full ? [] : [...stored.values()].filter((r) => r.last_week <= currentWeek);
    const allIds = (await db.selectFrom('score_enterprises').select('id').execute()).map((r) => r.id);
    const isExtendable = new Set(extendable.map((r) => r.score_enterprise_id));
    const fresh = allIds.filter((id) => !isExtendable.has(id));
    let histories: Map<number, EnterpriseHistory>;
    if (extendable.length === 0 || fresh.length > allIds.length / 2) {
      histories = await loadHistories(db);
      isExtendable.clear();
    } else {
      histories = await loadHistories(db, undefined, Math.min(...extendable.map((r) => r.last_week)));
      if (fresh.length) for (const [id, h] of await loadHistories(db, fresh)) histories.set(id, h);
    }
    const rows: { score_enterprise_id: number; first_week: number; last_week: number; points: string; capital: number; computed_at: number }[] = [];
    let full = 0;
    let incremental = 0;
    let weeks = 0;
    const computedAt = Date.now();
    let sliceStarted = performance.now();
    for (const [id, history] of histories) {
      // Thousands of enterprises take seconds: let requests through every ~20 ms.
      if (performance.now() - sliceStarted > 20) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
      const old = isExtendable.has(id) ? stored.get(id) : undefined;
      // A trimmed history has no first week of its own: the stored series keeps it.
      const first = old ? old.first_week : firstWeek(history);
      if (first === null || first > currentWeek) continue;
      if (!old) {
        const points = scorePoints(history, first, currentWeek);
        weeks += points.length;
        full++;
        rows.push({ score_enterprise_id: id, first_week: first, last_week: currentWeek, points: encodePoints(points), capital: points[points.length - 1]?.capital ?? 0, computed_at: computedAt });
      } else {
        // The last stored week may have been partial (or gained work since): it is recomputed with the new ones.
        const keep = old.last_week - old.first_week;
        const added = scorePoints(history, old.last_week, currentWeek, capitalAt(old.points, keep - 1));
        weeks += added.length;
        incremental++;
        rows.push({ score_enterprise_id: id, first_week: first, last_week: currentWeek, points: appendPoints(old.points, keep, added), capital: added[added.length - 1]?.capital ?? 0, computed_at: computedAt });
      }
    }
    const links = await computeLinks(currentWeek);
    await db.transaction().execute(async (trx) => {
      const t = trx as unknown as ScoreDb;
      await t.deleteFrom('score_series').execute();
      await insertMany(t, 'score_series', rows);
      await t.deleteFrom('score_links').execute();
      await insertMany(t, 'score_links', links);
      await bumpDataVersion(t);
    });
    analyses.clear();
    const stats = { enterprises: rows.length, full, incremental, weeks, links: links.length, ms: Math.round(performance.now() - started) };
    log?.info({ score: stats }, 'score recomputed');
    return stats;
  }

  async function computeLinks(currentWeek: number): Promise<{ a: number; b: number; weight: number }[]> {
    const cutoff = weekStart(currentWeek - LINK_WINDOW_WEEKS + 1);
    const rows = await db
      .selectFrom('score_contributions as c')
      .innerJoin('score_repositories as r', 'r.id', 'c.repository_id')
      .select(['c.developer_id', 'r.score_enterprise_id'])
      .where('c.to_at', '>=', cutoff)
      .distinct()
      .orderBy('c.developer_id')
      .execute();
    const weight = new Map<number, number>();
    const key = (a: number, b: number) => (a < b ? a * 4_294_967_296 + b : b * 4_294_967_296 + a);
    let i = 0;
    while (i < rows.length) {
      let j = i;
      while (j < rows.length && rows[j].developer_id === rows[i].developer_id) j++;
      if (j - i >= 2 && j - i <= LINK_MAX_ENTERPRISES_PER_DEVELOPER) {
        for (let x = i; x < j; x++) for (let y = x + 1; y < j; y++) {
          const k = key(rows[x].score_enterprise_id, rows[y].score_enterprise_id);
          weight.set(k, (weight.get(k) ?? 0) + 1);
        }
      }
      i = j;
    }
    // Each enterprise keeps its strongest links; a link survives if either end keeps it.
    const byNode = new Map<number, { k: number; w: number }[]>();
    for (const [k, w] of weight) {
      const a = Math.floor(k / 4_294_967_296);
      const b = k % 4_294_967_296;
      for (const n of [a, b]) {
        let list = byNode.get(n);
        if (!list) byNode.set(n, (list = []));
        list.push({ k, w });
      }
    }
    const kept = new Set<number>();
    for (const list of byNode.values()) {
      list.sort((x, y) => y.w - x.w || x.k - y.k);
      for (const { k } of list.slice(0, LINKS_PER_ENTERPRISE)) kept.add(k);
    }
    return [...kept].sort((x, y) => x - y).map((k) => ({ a: Math.floor(k / 4_294_967_296), b: k % 4_294_967_296, weight: weight.get(k)! }));
  }

  async function findByUuid(uuid: string): Promise<EnterpriseRow | undefined> {
    return db.selectFrom('score_enterprises').select(['id', 'uuid', 'name', 'activated', 'activated_at', 'is_demo', 'updated_at']).where('uuid', '=', uuid).executeTakeFirst();
  }

  async function metricCache(): Promise<MetricCache> {
    const summary = await db
      .selectFrom('score_enterprises')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max<number>('updated_at').as('u')])
      .executeTakeFirst();
    const version = `${await dataVersion(db)}-${Number(summary?.n ?? 0)}-${Number(summary?.u ?? 0)}`;
    if (metric?.version === version) return metric;
    // Requests that arrive while a version is being built wait for that build.
    let pending = buildingMetric.get(version);
    if (!pending) {
      pending = buildMetric(version).finally(() => buildingMetric.delete(version));
      buildingMetric.set(version, pending);
    }
    return pending;
  }

  async function buildMetric(version: string): Promise<MetricCache> {
    const rows = await db.selectFrom('score_enterprises').select(['id', 'uuid', 'name', 'activated', 'is_demo', 'updated_at']).orderBy('id').execute();
    const capital = new Map((await db.selectFrom('score_series').select(['score_enterprise_id', 'capital']).execute()).map((r) => [r.score_enterprise_id, Number(r.capital)]));
    const links = await db.selectFrom('score_links').select(['a', 'b', 'weight']).orderBy('a').orderBy('b').execute();
    const rowOf = new Map(rows.map((r, i) => [r.id, i]));
    const columns: MetricColumns = {
      version,
      count: rows.length,
      id: rows.map((r) => r.id),
      uuid: rows.map((r) => r.uuid),
      name: rows.map((r) => r.name),
      activated: rows.map((r) => (r.activated ? 1 : 0)),
      updated_at: rows.map((r) => Number(r.updated_at)),
      is_demo: rows.map((r) => (r.is_demo ? 1 : 0)),
      capital: rows.map((r) => capital.get(r.id) ?? 0),
      links: [],
      link_weight: [],
    };
    for (const l of links) {
      const a = rowOf.get(l.a);
      const b = rowOf.get(l.b);
      if (a === undefined || b === undefined) continue;
      columns.links.push(a, b);
      columns.link_weight.push(l.weight);
    }
    const nodes: EnterpriseNode[] = rows.map((r) => ({ id: r.id, uuid: r.uuid, name: r.name, activated: r.activated === 1, updated_at: Number(r.updated_at), is_demo: r.is_demo === 1 }));
    metric = {
      version,
      nodes,
      columns,
      json: Buffer.from(JSON.stringify({ data: nodes })),
      columnar: Buffer.from(JSON.stringify({ data: columns })),
      binary: Buffer.from(encodeMetricBinary(columns)),
      gz: new Map(),
    };
    return metric;
  }

  return {
    db,
    dialect,

    /**
     * Brings every enterprise's weekly series up to the current week: a new enterprise
     * (or one whose history was rewritten, which deletes its series) is computed from
     * its first week; the others only from their last stored week on. One run at a time.
     */
    recompute(opts: { now?: number; full?: boolean } = {}): Promise<RecomputeStats> {
      const run = (running ?? Promise.resolve()).catch(() => undefined).then(() => runRecompute(opts));
      running = run;
      return run.finally(() => {
        if (running === run) running = null;
      });
    },

    findByUuid,

    /** Activates a node (idempotent: an activated one keeps its first activation time). */
    async activate(uuid: string): Promise<EnterpriseRow | undefined> {
      const now = Date.now();
      await db.updateTable('score_enterprises').set({ activated: 1, activated_at: now, updated_at: now }).where('uuid', '=', uuid).where('activated', '=', 0).execute();
      return findByUuid(uuid);
    },

    async latestActivated(): Promise<EnterpriseRow | undefined> {
      return db
        .selectFrom('score_enterprises')
        .select(['id', 'uuid', 'name', 'activated', 'activated_at', 'is_demo', 'updated_at'])
        .where('activated', '=', 1)
        .orderBy('activated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    metric: metricCache,

    /** A metric body compressed once per version and encoding. */
    async metricBody(format: 'json' | 'columnar' | 'binary', encoding: 'gzip' | null): Promise<{ version: string; body: Buffer }> {
      const m = await metricCache();
      const body = m[format];
      if (!encoding) return { version: m.version, body };
      let gz = m.gz.get(format);
      if (!gz) m.gz.set(format, (gz = gzipSync(body, { level: 6 })));
      return { version: m.version, body: gz };
    },

    async points(id: number): Promise<ScorePoint[]> {
      const row = await db.selectFrom('score_series').select(['first_week', 'points']).where('score_enterprise_id', '=', id).executeTakeFirst();
      if (!row) return [];
      return decodePoints(row.points, (k) => weekStart(row.first_week + k));
    },

    /** The per-week network analysis over the enterprise's whole series, computed once per data version. */
    async analysis(id: number): Promise<WeekAnalysis[]> {
      const series = await db.selectFrom('score_series').select(['first_week', 'last_week', 'computed_at']).where('score_enterprise_id', '=', id).executeTakeFirst();
      if (!series) return [];
      const key = `${series.first_week}-${series.last_week}-${series.computed_at}`;
      const hit = analyses.get(id);
      if (hit?.key === key) {
        analyses.delete(id);
        analyses.set(id, hit);
        return hit.weeks;
      }
      // Concurrent first requests for one enterprise share one computation.
      const pendingKey = `${id}:${key}`;
      let pending = computing.get(pendingKey);
      if (!pending) {
        pending = loadHistories(db, [id]).then(async (histories) => {
          const history = histories.get(id);
          const weeks: WeekAnalysis[] = [];
          if (!history) return weeks;
          // A large enterprise takes a few hundred ms: let other requests through every ~20 ms.
          let sliceStarted = performance.now();
          for (const week of eachWeekAnalysis(history, series.first_week, series.last_week)) {
            weeks.push(week);
            if (performance.now() - sliceStarted > 20) {
              await new Promise((resolve) => setImmediate(resolve));
              sliceStarted = performance.now();
            }
          }
          return weeks;
        });
        computing.set(pendingKey, pending);
        pending.finally(() => computing.delete(pendingKey)).catch(() => undefined);
      }
      const weeks = await pending;
      analyses.set(id, { weeks, key });
      while (analyses.size > ANALYSES_KEPT) analyses.delete(analyses.keys().next().value!);
      return weeks;
    },

    /** Forget caches after a write outside recompute (imports, demo data). */
    invalidate() {
      analyses.clear();
      metric = null;
    },

    weekMs: WEEK_MS,
  };
}
