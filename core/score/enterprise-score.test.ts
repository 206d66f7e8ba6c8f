import { describe, expect, it } from 'vitest';
import { analyzeWeeks, scorePoints, type EnterpriseHistory } from './enterprise-score.ts';
import { decodeMetricBinary, encodeMetricBinary, type MetricColumns } from '../score-api.ts';

// r0: d0, d1; r1: d1, d2 — d1 is the only tie between the repositories (a path r0–d1–r1).
const history: EnterpriseHistory = {
  repos: [
    { id: 10, name: 'api', createdWeek: 100 },
    { id: 11, name: 'web', createdWeek: 100 },
  ],
  developers: [
    { id: 1, name: 'ann' },
    { id: 2, name: 'bo' },
    { id: 3, name: 'cy' },
  ],
  contributions: [
    { repo: 0, developer: 0, fromWeek: 100, toWeek: 119, commits: 40 },
    { repo: 0, developer: 1, fromWeek: 100, toWeek: 119, commits: 20 },
    { repo: 1, developer: 1, fromWeek: 100, toWeek: 119, commits: 20 },
    { repo: 1, developer: 2, fromWeek: 110, toWeek: 119, commits: 10 },
  ],
  assetWeeks: [100, 105],
};

describe('weekly score of one enterprise', () => {
  it('computes flow, capital, amount, density and centralization by the documented formulas', () => {
    const points = scorePoints(history, 100, 119);
    expect(points).toHaveLength(20);
    // Week 100: r0–d0, r0–d1, r1–d1 (cy starts at 110): density 3/(2·2); degrees 2,1,1,2 → (4·2 − 6)/(3·2).
    expect(points[0]).toMatchObject({ flow: 2 + 1 + 1 + 10, capital: 14, amount: 3, density: 0.75, centralization: 0.3333 });
    expect(points[1].capital).toBeCloseTo(0.98 * 14 + 4, 2);
    expect(points[5].amount).toBe(4);
    // Week 110: a path of 5 nodes r0–d1–r1 plus d0, d2: 2 × 3 ties 4, degrees 2,2,1,2,1 → (5·2 − 8)/(4·3)
    expect(points[10].density).toBeCloseTo(4 / 6, 4);
    expect(points[10].centralization).toBeCloseTo((5 * 2 - 8) / 12, 4);
  });

  it('extends a series week by week exactly as a full run', () => {
    const full = scorePoints(history, 100, 125);
    const head = scorePoints(history, 100, 111);
    const tail = scorePoints(history, 111, 125, head[10].capital);
    expect(head.slice(0, 11).concat(tail)).toEqual(full);
  });

  it('finds the broker, the bridges and keeps community ids through the weeks', () => {
    const weeks = analyzeWeeks(history, 100, 125);
    const w110 = weeks[10];
    const bo = w110.snapshot.nodes.find((n) => n.id === 'd2')!;
    // Window 98…110 holds 11 weeks of bo's 1 + 1 commits a week.
    expect(bo).toMatchObject({ category: 'developer', name: 'bo', constraint: 0.5, weight: 22 });
    expect(w110.holes.map((x) => x.id)).toContain('d2');
    // Every edge of a path is a bridge; those cutting off ≥ 2 nodes are listed.
    expect(w110.bridges.length).toBe(2);
    for (const b of w110.bridges) expect(b.link1.target).toBe(b.link2.source);
    expect(w110.timeline).toMatchObject({ repos: 2, developers: 3, links: 4 });
    const ids = weeks.slice(10, 20).map((w) => JSON.stringify(w.communities.community_ids));
    expect(new Set(ids).size).toBe(1);
    // After week 119 + 12 the window is empty.
    expect(weeks.at(-1)!.snapshot.nodes.length).toBeGreaterThan(0);
    expect(analyzeWeeks(history, 140, 140)[0].snapshot.nodes).toEqual([]);
  });
});

describe('binary metric', () => {
  it('round-trips every column', () => {
    const columns: MetricColumns = {
      version: '3-2-99',
      count: 2,
      id: [7, 9],
      uuid: ['a-1', 'b-2'],
      name: ['杭州星辰数据科技有限公司', 'Tab\there'],
      activated: [1, 0],
      updated_at: [1_700_000_000_123, 5],
      is_demo: [0, 1],
      capital: [12.5, 0],
      links: [0, 1],
      link_weight: [3],
    };
    const decoded = decodeMetricBinary(encodeMetricBinary(columns));
    expect(decoded.name).toEqual(['杭州星辰数据科技有限公司', 'Tab here']);
    expect(decoded.uuid).toEqual(columns.uuid);
    expect(Array.from(decoded.id)).toEqual(columns.id);
    expect(Array.from(decoded.updated_at)).toEqual(columns.updated_at);
    expect(Array.from(decoded.capital)).toEqual(columns.capital);
    expect(Array.from(decoded.activated)).toEqual(columns.activated);
    expect(Array.from(decoded.is_demo)).toEqual(columns.is_demo);
    expect(Array.from(decoded.links)).toEqual(columns.links);
    expect(Array.from(decoded.link_weight)).toEqual(columns.link_weight);
    expect(decoded.version).toBe('3-2-99');
    expect(() => decodeMetricBinary(new Uint8Array(20))).toThrow();
  });
});
