import { describe, expect, it } from 'vitest';
import { decideActivation, downsample, lastWindow, nodeRadius, searchEnterprises, SCORE_RANGES } from './asset-map.ts';

describe('score windows', () => {
  const weeks = Array.from({ length: 130 }, (_, i) => i);
  it('6 months is the last 26 points, 2 years the last 104, all is all', () => {
    expect(lastWindow(weeks, SCORE_RANGES.halfYear)).toEqual(weeks.slice(104));
    expect(lastWindow(weeks, SCORE_RANGES.twoYears)).toHaveLength(104);
    expect(lastWindow(weeks, SCORE_RANGES.all)).toHaveLength(130);
  });
  it('downsamples to at most 50 points, keeping the first and the newest', () => {
    const two = downsample(lastWindow(weeks, 104));
    expect(two).toHaveLength(50);
    expect(two[0]).toBe(26);
    expect(two[49]).toBe(129);
    expect(new Set(two).size).toBe(50);
    expect(downsample(weeks.slice(0, 26))).toHaveLength(26);
  });
});

describe('node radius', () => {
  it('repositories reach 40, developers 15, nothing under 5', () => {
    expect(nodeRadius('repo', 10, 10)).toBe(40);
    expect(nodeRadius('developer', 10, 10)).toBe(15);
    expect(nodeRadius('repo', 0, 10)).toBe(5);
    expect(nodeRadius('developer', 1, 0)).toBe(5);
    expect(nodeRadius('repo', 2.5, 10)).toBeCloseTo(5 + 35 * 0.5);
  });
});

describe('§4 activation polling', () => {
  const now = 1_000_000;
  it('does nothing when none is activated yet or the activation was handled', () => {
    expect(decideActivation({ id: 0, updated_at: 0 }, null, null, now).action).toBe('none');
    expect(decideActivation({ id: 3, updated_at: now - 100 }, { id: 3, updated_at: now - 100 }, true, now).action).toBe('none');
  });
  it('focuses and then lights a node still shown pale', () => {
    expect(decideActivation({ id: 3, updated_at: now - 100 }, null, false, now).action).toBe('focus-then-light');
  });
  it('focuses an activated node only within 30 s of its activation', () => {
    expect(decideActivation({ id: 3, updated_at: now - 29_000 }, null, true, now).action).toBe('focus');
    expect(decideActivation({ id: 3, updated_at: now - 31_000 }, null, true, now).action).toBe('none');
  });
  it('ignores an id the map does not know', () => {
    expect(decideActivation({ id: 99, updated_at: now }, null, null, now).action).toBe('none');
  });
});

describe('search', () => {
  const names = ['Alpha Robotics', 'Beta Alpha Labs', 'alpha', 'Gamma'];
  it('matches names containing the text, exact and prefix first', () => {
    expect(searchEnterprises(names, ' ALPHA ')).toEqual([2, 0, 1]);
    expect(searchEnterprises(names, 'zzz')).toEqual([]);
    expect(searchEnterprises(names, '   ')).toEqual([]);
  });
});
