import { describe, expect, it } from 'vitest';
import { QUALITY_MEAN, QUALITY_SPREAD, normalCdf, qualityCurve, qualityDensity, qualityProbability } from './quality.ts';

describe('quality probability (§9)', () => {
  it('is the normal CDF with mean 298.1 and spread 792.3', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 6);
    expect(normalCdf(-1.959963984540054)).toBeCloseTo(0.025, 6);
    expect(qualityProbability(QUALITY_MEAN)).toBeCloseTo(0.5, 7);
    expect(qualityProbability(QUALITY_MEAN + QUALITY_SPREAD)).toBeCloseTo(0.8413447, 6);
    expect(qualityProbability(0)).toBeCloseTo(0.353366, 5); // python: 0.5*(1+math.erf(-298.1/792.3/math.sqrt(2)))
    expect(qualityProbability(Number.POSITIVE_INFINITY)).toBe(1);
  });
  it('gives a curve whose density integrates to about the CDF difference', () => {
    const { x, density, probability } = qualityCurve(601);
    expect(x).toHaveLength(601);
    let area = 0;
    for (let i = 1; i < x.length; i++) area += ((density[i] + density[i - 1]) / 2) * (x[i] - x[i - 1]);
    expect(area).toBeCloseTo(probability[600] - probability[0], 3);
    expect(qualityDensity(QUALITY_MEAN)).toBeCloseTo(1 / (QUALITY_SPREAD * Math.sqrt(2 * Math.PI)), 10);
  });
});
