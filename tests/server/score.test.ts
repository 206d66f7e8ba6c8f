process.env.SCORE_RECOMPUTE_MINUTES = '0'; // the tests drive recompute() themselves

import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { decodeMetricBinary, type BridgePayload, type CommunityPayload, type EnterpriseNode, type GraphPayload, type MetricColumns, type ScorePayload, type StructuralHolePayload, type TimelinePayload } from '../../core/score-api.ts';
import { CAPITAL_RETENTION, ASSET_WEIGHT } from '../../core/score/enterprise-score.ts';
import { weekOf, weekStart } from '../../core/score/weeks.ts';
import { importText, ImportError } from '../../server/score/import.ts';
import { generateDemoData } from '../../server/score/demo.ts';

let h: Harness;
const NOW = Date.parse('2024-07-03T12:00:00Z');
const CURRENT_WEEK = weekOf(NOW);

// Acme: api (alice, bob) and web (bob, carol, dave): bob is the only tie between the
// two repositories, so the graph is a tree; Beta shares carol with Acme (a map link).
const HISTORY = [
  { type: 'enterprise', key: 'acme', name: 'Acme 科技有限公司' },
  { type: 'enterprise', key: 'beta', name: 'Beta Analytics Ltd.' },
  { type: 'repository', key: 'acme/api', enterprise: 'acme', name: 'api', created_at: '2023-06-05' },
  { type: 'repository', key: 'acme/web', enterprise: 'acme', name: 'web', created_at: '2023-06-05' },
  { type: 'repository', key: 'beta/etl', enterprise: 'beta', name: 'etl', created_at: '2024-01-01' },
  { type: 'developer', key: 'alice', name: 'alice' },
  { type: 'developer', key: 'bob', name: 'bob' },
  { type: 'developer', key: 'carol', name: 'carol' },
  { type: 'developer', key: 'dave', name: 'dave' },
  // 2023-06-05 is a Monday: 10 weeks of 10 commits a week.
  { type: 'contribution', repository: 'acme/api', developer: 'alice', from: '2023-06-05', to: '2023-08-13', commits: 100 },
  { type: 'contribution', repository: 'acme/api', developer: 'alice', from: '2023-08-14', to: '2024-07-07', commits: 470 },
  { type: 'contribution', repository: 'acme/api', developer: 'bob', from: '2023-06-05', to: '2024-07-07', commits: 300 },
  { type: 'contribution', repository: 'acme/web', developer: 'bob', from: '2023-06-05', to: '2024-07-07', commits: 300 },
  { type: 'contribution', repository: 'acme/web', developer: 'carol', from: '2023-06-05', to: '2024-07-07', commits: 200 },
  { type: 'contribution', repository: 'acme/web', developer: 'dave', from: '2023-06-05', to: '2024-07-07', commits: 50 },
  { type: 'contribution', repository: 'beta/etl', developer: 'carol', from: '2024-01-01', to: '2024-07-07', commits: 80 },
  { type: 'asset', enterprise: 'acme', kind: 'code', registered_at: '2023-06-07T10:00:00Z' },
  { type: 'asset', enterprise: 'beta', kind: 'data', registered_at: 1_704_200_000 },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

let acme: string;
let beta: string;

beforeAll(async () => {
  h = await startHarness();
  await importText(h.app.score.db, h.dialect, HISTORY);
  await h.app.score.recompute({ now: NOW });
  const metric = (await get('/score-api/v1/metric')).json().data as EnterpriseNode[];
  acme = metric.find((n) => n.name === 'Acme 科技有限公司')!.uuid;
  beta = metric.find((n) => n.name === 'Beta Analytics Ltd.')!.uuid;
});
afterAll(async () => {
  await h?.close();
});

const get = (url: string, headers?: Record<string, string>) => h.request({ method: 'GET', url, headers });
const expect400 = (res: { statusCode: number; json(): unknown }, message: string, field?: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('enterprises and activation', () => {
  it('answers name and activated for a uuid, a clear 400 for a missing or unknown one', async () => {
    const res = await get(`/score-api/v1/enterprise?uuid=${acme}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ name: 'Acme 科技有限公司', activated: false, uuid: acme, is_demo: false });
    expect400(await get('/score-api/v1/enterprise'), 'required', 'uuid');
    expect400(await get('/score-api/v1/enterprise?uuid=%20'), 'required', 'uuid');
    expect400(await get(`/score-api/v1/enterprise?uuid=${UNKNOWN}`), 'enterprise_not_found', 'uuid');
  });

  it('activates by GET (§7) or POST, idempotently, and reports the latest activation', async () => {
    expect((await get('/score-api/v1/enterprise/latest-activate')).json().data).toEqual({ id: 0, updated_at: 0, uuid: null, name: null });
    const first = await get(`/score-api/v1/enterprise/activate/${acme}`);
    expect(first.statusCode).toBe(200);
    const activated = first.json().data;
    expect(activated).toMatchObject({ uuid: acme, activated: true });
    expect(Math.abs(activated.updated_at - Date.now())).toBeLessThan(10_000);
    const again = await h.request({ method: 'POST', url: `/score-api/v1/enterprise/activate/${acme}` });
    expect(again.json().data.updated_at).toBe(activated.updated_at);
    expect((await get(`/score-api/v1/enterprise?uuid=${acme}`)).json().data.activated).toBe(true);
    const latest = (await get('/score-api/v1/enterprise/latest-activate')).json().data;
    expect(latest).toEqual({ id: activated.id, updated_at: activated.updated_at, uuid: acme, name: 'Acme 科技有限公司' });
    expect400(await get(`/score-api/v1/enterprise/activate/${UNKNOWN}`), 'enterprise_not_found', 'uuid');
    expect400(await h.request({ method: 'POST', url: `/score-api/v1/enterprise/activate/${UNKNOWN}` }), 'enterprise_not_found', 'uuid');
  });
});

describe('metric (the map)', () => {
  it('lists every enterprise node and links enterprises that share developers, in JSON, columnar and binary', async () => {
    const res = await get('/score-api/v1/metric');
    expect(res.statusCode).toBe(200);
    const nodes = res.json().data as EnterpriseNode[];
    expect(nodes.map((n) => n.name)).toEqual(['Acme 科技有限公司', 'Beta Analytics Ltd.']);
    expect(Object.keys(nodes[0]).sort()).toEqual(['activated', 'id', 'is_demo', 'name', 'updated_at', 'uuid']);

    const columns = (await get('/score-api/v1/metric?format=columnar')).json().data as MetricColumns;
    expect(columns.count).toBe(2);
    expect(columns.links).toEqual([0, 1]); // carol works for both
    expect(columns.link_weight).toEqual([1]);
    expect(columns.capital[0]).toBeGreaterThan(0);

    const links = (await get('/score-api/v1/metric/links')).json().data;
    expect(links.links).toEqual([nodes[0].id, nodes[1].id]);

    const binary = await get('/score-api/v1/metric?format=binary');
    expect(binary.headers['content-type']).toBe('application/octet-stream');
    const decoded = decodeMetricBinary(binary.rawPayload);
    expect(decoded.uuid).toEqual(columns.uuid);
    expect(decoded.name).toEqual(columns.name);
    expect(Array.from(decoded.links)).toEqual(columns.links);
    expect(Array.from(decoded.updated_at)).toEqual(columns.updated_at);
    expect(decoded.version).toBe(columns.version);

    expect400(await get('/score-api/v1/metric?format=xml'), 'invalid_param', 'format');
  });

  it('compresses on request and answers 304 for an unchanged version', async () => {
    const gz = await get('/score-api/v1/metric', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const etag = String(gz.headers.etag);
    expect((await get('/score-api/v1/metric', { 'if-none-match': etag })).statusCode).toBe(304);
    // An activation changes the version.
    await get(`/score-api/v1/enterprise/activate/${beta}`);
    expect((await get('/score-api/v1/metric', { 'if-none-match': etag })).statusCode).toBe(200);
  });
});

describe('score points', () => {
  it('pages the weekly points with the documented formulas', async () => {
    const all = (await get(`/score-api/v1/score/${acme}?page_size=500`)).json().data as ScorePayload;
    const weeks = CURRENT_WEEK - weekOf(Date.parse('2023-06-05')) + 1;
    expect(all.total).toBe(weeks);
    expect(all.data).toHaveLength(weeks);
    const [first, second] = all.data;
    expect(first.timestamp).toBe(Date.parse('2023-06-05T00:00:00Z'));
    // Week 1: alice 10 + bob 300/57 ×2 + carol 200/57 + dave 50/57 + one registration.
    const spread = (c: number) => c / 57;
    const flow1 = 10 + spread(300) * 2 + spread(200) + spread(50) + ASSET_WEIGHT;
    expect(first.flow).toBeCloseTo(flow1, 1);
    expect(first.capital).toBeCloseTo(flow1, 1);
    expect(second.capital).toBeCloseTo(CAPITAL_RETENTION * first.capital + second.flow, 1);
    expect(first.amount).toBe(3); // 2 repositories + 1 registered asset
    // 2 repos × 4 developers, 5 ties: density 5/8; degrees api 2, web 3, bob 2, others 1 → (6·3 − 10)/(5·4)
    expect(first.density).toBeCloseTo(5 / 8, 4);
    expect(first.centralization).toBeCloseTo((6 * 3 - 10) / 20, 4);

    const page2 = (await get(`/score-api/v1/score/${acme}?page=2&page_size=10`)).json().data as ScorePayload;
    expect(page2.data).toEqual(all.data.slice(10, 20));
    expect(page2.total).toBe(weeks);
    expect((await get(`/score-api/v1/score/${acme}?page=99`)).json().data).toEqual({ data: [], total: weeks });
    expect400(await get(`/score-api/v1/score/${acme}?page=0`), 'gt', 'page');
    expect400(await get(`/score-api/v1/score/${acme}?page_size=501`), 'lt', 'page_size');
    expect400(await get(`/score-api/v1/score/${acme}?page=abc`), 'invalid_param', 'page');
  });

  it('extends the series incrementally a week later, leaving the past as it was', async () => {
    const before = (await get(`/score-api/v1/score/${acme}?page_size=500`)).json().data as ScorePayload;
    const stats = await h.app.score.recompute({ now: NOW + 7 * 86_400_000 });
    expect(stats.incremental).toBe(2);
    expect(stats.full).toBe(0);
    const after = (await get(`/score-api/v1/score/${acme}?page_size=500`)).json().data as ScorePayload;
    expect(after.total).toBe(before.total + 1);
    expect(after.data.slice(0, before.total - 1)).toEqual(before.data.slice(0, before.total - 1));
    const full = await h.app.score.recompute({ now: NOW + 7 * 86_400_000, full: true });
    expect(full.full).toBe(2);
    const again = (await get(`/score-api/v1/score/${acme}?page_size=500`)).json().data as ScorePayload;
    expect(again.data).toEqual(after.data);
  });
});

describe('network analysis', () => {
  it('pages the timeline until all is loaded', async () => {
    const collected: TimelinePayload['data'] = [];
    let total = Infinity;
    for (let page = 1; collected.length < total; page++) {
      const body = (await get(`/score-api/v1/score/timeline/${acme}?page=${page}&page_size=20`)).json().data as TimelinePayload;
      total = body.total;
      collected.push(...body.data);
      expect(page).toBeLessThan(10);
    }
    expect(collected[0]).toMatchObject({ timestamp: Date.parse('2023-06-05T00:00:00Z'), repos: 2, developers: 4, links: 5 });
    expect(collected.at(-1)!.timestamp).toBeGreaterThan(collected[0].timestamp);
  });

  it('gives at most 30 graph snapshots, evenly picked with the last included, within start and end', async () => {
    const all = (await get(`/score-api/v1/score/graph/${acme}`)).json().data as GraphPayload;
    expect(all).toHaveLength(30);
    // Large answers (this one is ~40 KB) come gzip'd when the client accepts it; small ones never.
    const zipped = await get(`/score-api/v1/score/graph/${acme}`, { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString()).data).toEqual(all);
    expect((await get(`/score-api/v1/score/graph/${acme}?page_size=1`, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
    const timeline = (await get(`/score-api/v1/score/timeline/${acme}?page_size=500`)).json().data as TimelinePayload;
    expect(all.at(-1)!.timestamp).toBe(timeline.data.at(-1)!.timestamp);
    const five = (await get(`/score-api/v1/score/graph/${acme}?page_size=5`)).json().data as GraphPayload;
    expect(five.map((s) => s.timestamp)).toEqual([0, 14, 28, 42, 56].map((k) => timeline.data[Math.round((k * (timeline.total - 1)) / 56)].timestamp));
    const snap = five[0];
    expect(snap.nodes.map((n) => n.name).sort()).toEqual(['alice', 'api', 'bob', 'carol', 'dave', 'web']);
    for (const n of snap.nodes) expect(n.id).toMatch(n.category === 'repo' ? /^r\d+$/ : /^d\d+$/);
    const bob = snap.nodes.find((n) => n.name === 'bob')!;
    expect(bob.category).toBe('developer');
    expect(bob.constraint).toBe(0.5); // two equal ties, no third party: Σ p² = ½
    const web = snap.nodes.find((n) => n.name === 'web')!;
    expect(web.category).toBe('repo');
    expect(snap.links).toHaveLength(5);
    // start and end in seconds or ms
    const start = Date.parse('2024-01-01T00:00:00Z');
    const end = Date.parse('2024-02-26T00:00:00Z');
    const ranged = (await get(`/score-api/v1/score/graph/${acme}?start=${start / 1000}&end=${end}`)).json().data as GraphPayload;
    expect(ranged.map((s) => s.timestamp)).toEqual(Array.from({ length: 9 }, (_, k) => weekStart(weekOf(start) + k)));
    expect400(await get(`/score-api/v1/score/graph/${acme}?page_size=31`), 'lt', 'page_size');
    expect400(await get(`/score-api/v1/score/graph/${acme}?start=${end}&end=${start}`), 'invalid_param', 'start');
  });

  it('keeps community ids stable across weeks', async () => {
    const snaps = (await get(`/score-api/v1/score/community/${acme}?page_size=30`)).json().data as CommunityPayload;
    expect(snaps).toHaveLength(30);
    for (const s of snaps) {
      expect(s.communities.flat().sort()).toHaveLength(s.communities.flat().length);
      expect(s.community_ids).toHaveLength(s.communities.length);
    }
    // The structure never changes after the first weeks: neither do the ids.
    const ids = snaps.slice(3).map((s) => JSON.stringify(s.community_ids));
    expect(new Set(ids).size).toBe(1);
  });

  it('lists structural holes (brokers) and bridges, newest week first, paged', async () => {
    const holes = (await get(`/score-api/v1/score/structual_hole/${acme}?page_size=5`)).json().data as StructuralHolePayload;
    expect(holes.structual_holes).toHaveLength(5);
    expect(holes.total).toBeGreaterThan(5);
    const newest = holes.structual_holes[0];
    expect(newest.timestamp).toBeGreaterThanOrEqual(holes.structual_holes[4].timestamp);
    expect(holes.structual_holes.some((x) => x.name === 'bob' && x.constraint === 0.5)).toBe(true);
    for (const x of holes.structual_holes) expect(x.degree).toBeGreaterThanOrEqual(2);

    const bridges = (await get(`/score-api/v1/score/bridge/${acme}?page=1&page_size=4`)).json().data as BridgePayload;
    expect(bridges.total).toBeGreaterThan(0);
    const [b] = bridges.bridges;
    expect(b.link1.target).toBe(b.link2.source);
    expect(b.cut_size).toBeGreaterThanOrEqual(2);
    expect(Object.keys(b).sort()).toEqual(['cut_size', 'link1', 'link2', 'timestamp']);
  });

  it('answers 400 enterprise_not_found for an unknown uuid on every score call', async () => {
    for (const path of ['score', 'score/timeline', 'score/graph', 'score/community', 'score/structual_hole', 'score/bridge']) {
      expect400(await get(`/score-api/v1/${path}/${UNKNOWN}`), 'enterprise_not_found', 'uuid');
      expect400(await get(`/score-api/v1/${path}/${'x'.repeat(65)}`), 'lt', 'uuid');
    }
    // Two first requests at once get the same answer.
    const [a, b] = await Promise.all([get(`/score-api/v1/score/graph/${beta}?page_size=2`), get(`/score-api/v1/score/graph/${beta}?page_size=2`)]);
    expect(a.json()).toEqual(b.json());
  });
});

describe('data sources', () => {
  it('rejects a bad import with line numbers and writes nothing', async () => {
    const before = (await get('/score-api/v1/metric')).json().data.length;
    const bad = [JSON.stringify({ type: 'enterprise', key: 'x', name: 'X' }), 'not json', JSON.stringify({ type: 'contribution', repository: 'nope', developer: 'd', from: '2024-01-01', to: '2023-01-01', commits: 1 })].join('\n');
    await expect(importText(h.app.score.db, h.dialect, bad)).rejects.toThrow(ImportError);
    await expect(importText(h.app.score.db, h.dialect, bad)).rejects.toThrow(/line 2: not JSON/);
    expect((await get('/score-api/v1/metric')).json().data.length).toBe(before);
  });

  it('scores a platform enterprise from its ledger registrations', async () => {
    const db = h.app.db;
    const now = Date.now();
    const user = await db.insertInto('users').values({ phonenumber: '13900009999', login_id: null, name: 'u', password_hash: 'x', icon_color: '#000', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('enterprises')
      .values({ name: '平台测试科技有限公司', license_no: '91110000000000001X', legal_person: '张三', license_image_id: 'x', channel: 1, verify_status: 2, invitation_code: 'ABCD1234', created_by: user.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let k = 0; k < 3; k++) {
      await db
        .insertInto('ledger_entries')
        .values({ dna: `dna-${k}`, record: '{}', leaf_hash: `leaf-${k}`, file_hash: `0x${k}`, salt: 's', kind: 'file', enterprise_name: '平台测试科技有限公司', registrant_user_id: user.id, registered_at: now - k * 86_400_000 * 7, leaf_index: null, block_height: null })
        .execute();
    }
    await h.app.score.recompute();
    const node = ((await get('/score-api/v1/metric')).json().data as EnterpriseNode[]).find((n) => n.name === '平台测试科技有限公司');
    expect(node).toBeDefined();
    const points = (await get(`/score-api/v1/score/${node!.uuid}`)).json().data as ScorePayload;
    expect(points.data.reduce((sum, p) => sum + p.flow, 0)).toBe(3 * ASSET_WEIGHT);
    expect(points.data.at(-1)!.amount).toBe(3);
  });

  it('generates reproducible demo data marked as such', async () => {
    const stats = await generateDemoData(h.app.score.db, h.dialect, { enterprises: 40, seed: 7, now: NOW });
    expect(stats.enterprises).toBe(40);
    await h.app.score.recompute({ now: NOW });
    const nodes = (await get('/score-api/v1/metric')).json().data as EnterpriseNode[];
    const demo = nodes.filter((n) => n.is_demo);
    expect(demo).toHaveLength(40);
    expect(new Set(demo.map((n) => n.name)).size).toBe(40);
    const one = (await get(`/score-api/v1/score/${demo[0].uuid}`)).json().data as ScorePayload;
    expect(one.total).toBeGreaterThan(20);
    const graph = (await get(`/score-api/v1/score/graph/${demo[0].uuid}?page_size=3`)).json().data as GraphPayload;
    expect(graph.length).toBeGreaterThan(0);

  });
});
