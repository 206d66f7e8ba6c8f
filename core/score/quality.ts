/**
 * §9 quality probability: derived from an enterprise's capital under a normal model
 * with mean ≈ 298.1 and spread (standard deviation) ≈ 792.3, fitted to the weekly
 * capital of the reference population. The probability is the normal CDF at the
 * capital: the share of that population an enterprise's capital exceeds
 * (docs/score.md, "Quality probability"). The browser draws the density curve and
 * marks the enterprise on it.
 */
export const QUALITY_MEAN = 298.1;
export const QUALITY_SPREAD = 792.3;

/** erf from the Numerical Recipes erfc approximation (Chebyshev fit), error < 1.2e-7. */
function erf(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - r : r - 1;
}

/** Standard normal CDF Φ(z). */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

/** Quality probability of a capital value, 0–1. */
export function qualityProbability(capital: number, mean = QUALITY_MEAN, spread = QUALITY_SPREAD): number {
  if (!Number.isFinite(capital)) return capital > 0 ? 1 : 0;
  return normalCdf((capital - mean) / spread);
}

/** Normal density at x (the curve's height). */
export function qualityDensity(x: number, mean = QUALITY_MEAN, spread = QUALITY_SPREAD): number {
  const z = (x - mean) / spread;
  return Math.exp(-0.5 * z * z) / (spread * Math.sqrt(2 * Math.PI));
}

/**
 * Points of the curve for a chart: `count` x values evenly from `from` to `to`
 * (default mean ± 3 spreads), each with its density and cumulative probability.
 */
export function qualityCurve(count = 121, from = QUALITY_MEAN - 3 * QUALITY_SPREAD, to = QUALITY_MEAN + 3 * QUALITY_SPREAD): { x: number[]; density: number[]; probability: number[] } {
  const n = Math.max(2, Math.floor(count));
  const x: number[] = [];
  const density: number[] = [];
  const probability: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = from + ((to - from) * i) / (n - 1);
    x.push(v);
    density.push(qualityDensity(v));
    probability.push(qualityProbability(v));
  }
  return { x, density, probability };
}
