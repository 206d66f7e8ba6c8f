process.env.SCORE_RECOMPUTE_MINUTES = '0'; // the test drives recompute() itself
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { fakeRecord } from './repo-helpers.ts';
import type { GraphPayload } from '../../core/score-api.ts';
import { syncPlatformCode } from '../../server/score/platform-code.ts';

/**
 * Registered source code feeds the enterprise score graph: projects are repo nodes, commit
 * authors (by e-mail digest) developer nodes, and one author committing in two enterprises
 * links them on the map.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
});
afterAll(async () => h?.close());

const email = (address: string) => createHash('sha256').update(address).digest('hex');
const person = (name: string, address: string, time: number) => ({ name, email_sha256: email(address), time, tz: '+0800' });
const WEEK_S = 7 * 24 * 3600;
const now = Math.floor(Date.now() / 1000);

async function project(cookie: string, name: string): Promise<number> {
  const res = await h.request({ method: 'POST', url: '/api/v1/repos', cookie, body: { name } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.project_id as number;
}
async function push(cookie: string, projectId: number, authors: [string, string, number][]) {
  const commits = authors.map(([name, address, time]) => fakeRecord({ author: person(name, address, time), committer: person(name, address, time) }));
  const res = await h.request({ method: 'POST', url: `/api/v1/repos/${projectId}/commits`, cookie, body: { commits } });
  expect(res.statusCode, res.body).toBe(200);
}
const nodeOf = async (enterpriseName: string) => {
  const e = await h.app.db.selectFrom('enterprises').select('id').where('name', '=', enterpriseName).executeTakeFirstOrThrow();
  return h.app.score.db.selectFrom('score_enterprises').select(['id', 'uuid']).where('enterprise_id', '=', e.id).executeTakeFirstOrThrow();
};
let ownerB = '';
let portal = 0;

describe('source-code projects in the score graph', () => {
  it('projects become repo nodes, authors developer nodes, and a shared author links two enterprises', async () => {
    const a = await ownerWithEnterprise(h, '图谱甲科技有限公司');
    const b = await ownerWithEnterprise(h, '图谱乙科技有限公司');
    const engine = await project(a.cookie, '甲引擎');
    portal = await project(b.cookie, '乙门户');
    ownerB = b.cookie;
    await push(a.cookie, engine, [
      ['alice', 'alice@example.com', now - 3 * WEEK_S],
      ['alice', 'alice@example.com', now - 3 * WEEK_S + 60],
      ['Alice L.', 'alice@example.com', now - 2 * WEEK_S],
      ['bob', 'bob@example.com', now - 2 * WEEK_S],
    ]);
    await push(b.cookie, portal, [['alice', 'alice@example.com', now - WEEK_S]]);
    await h.app.score.recompute();

    const nodeA = await nodeOf('图谱甲科技有限公司');
    const nodeB = await nodeOf('图谱乙科技有限公司');
    const graph = (await h.request({ method: 'GET', url: `/score-api/v1/score/graph/${nodeA.uuid}?page_size=30` })).json().data as GraphPayload;
    const last = graph.at(-1)!;
    // One developer per address (two names in A), named by the newest name it committed under (B's, a week ago).
    expect(last.nodes.map((n) => `${n.category}:${n.name}`).sort()).toEqual(['developer:alice', 'developer:bob', 'repo:甲引擎']);
    expect(last.links).toHaveLength(2);
    // alice committed in both enterprises: the map links them.
    const links = await h.app.score.db.selectFrom('score_links').selectAll().execute();
    expect(links.some((l) => (l.a === nodeA.id && l.b === nodeB.id) || (l.a === nodeB.id && l.b === nodeA.id))).toBe(true);
    // Weekly stretches: alice's three commits in A are two weeks, 2 + 1.
    const rows = await h.app.score.db.selectFrom('score_contributions as c').innerJoin('score_repositories as r', 'r.id', 'c.repository_id').innerJoin('score_developers as d', 'd.id', 'c.developer_id').select(['r.name as repo', 'd.email_sha256 as email', 'c.commits as commits']).execute();
    expect(rows.filter((r) => r.repo === '甲引擎' && r.email === email('alice@example.com')).map((r) => r.commits).sort()).toEqual([1, 2]);
  });

  it('a new push is in the graph after the next recompute; an enterprise without changes keeps its series', async () => {
    const computedAt = async (name: string) => {
      const node = await nodeOf(name);
      return Number((await h.app.score.db.selectFrom('score_series').select('computed_at').where('score_enterprise_id', '=', node.id).executeTakeFirstOrThrow()).computed_at);
    };
    const first = await computedAt('图谱甲科技有限公司');
    await push(ownerB, portal, [['carol', 'carol@example.com', now - WEEK_S]]);
    // Only B's contributions changed: only B's stored series is dropped (computed again from its first week).
    expect(await syncPlatformCode(h.app.score.db)).toMatchObject({ repositories: 2, developers: 3, enterprisesChanged: 1 });
    const hasSeries = async (name: string) => (await h.app.score.db.selectFrom('score_series').select('score_enterprise_id').where('score_enterprise_id', '=', (await nodeOf(name)).id).executeTakeFirst()) !== undefined;
    expect(await hasSeries('图谱甲科技有限公司')).toBe(true);
    expect(await hasSeries('图谱乙科技有限公司')).toBe(false);
    expect(await syncPlatformCode(h.app.score.db)).toMatchObject({ enterprisesChanged: 0 });
    await h.app.score.recompute();
    const nodeB = await nodeOf('图谱乙科技有限公司');
    const graph = (await h.request({ method: 'GET', url: `/score-api/v1/score/graph/${nodeB.uuid}` })).json().data as GraphPayload;
    expect(graph.at(-1)!.nodes.map((n) => n.name).sort()).toEqual(['alice', 'carol', '乙门户']);
    expect(await computedAt('图谱甲科技有限公司')).toBeGreaterThanOrEqual(first);
  });
});
