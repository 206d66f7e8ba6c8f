import { describe, expect, it } from 'vitest';
import { quantileRadius } from './graph-scene.ts';

/** The sorted reference fitAll used before: the distance at rank floor(q × (n − 1)). */
function sortedQuantile(p: Float32Array, n: number, c: [number, number, number], q: number): number {
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = Math.hypot(p[3 * i] - c[0], p[3 * i + 1] - c[1], p[3 * i + 2] - c[2]);
  d.sort();
  return d[Math.floor(q * (n - 1))];
}

describe('quantileRadius (the map fitting the graph on every layout frame)', () => {
  it('is never below the exact quantile and at most 1/4096 of the largest distance above it', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const n of [1, 2, 3, 10, 1000, 50_000]) {
      const p = new Float32Array(3 * n);
      for (let i = 0; i < p.length; i++) p[i] = random() * 500 * (i % 7 === 0 ? 4 : 1);
      const c: [number, number, number] = [3, -2, 1];
      const exact = sortedQuantile(p, n, c, 0.98);
      let max = 0;
      for (let i = 0; i < n; i++) max = Math.max(max, Math.hypot(p[3 * i] - c[0], p[3 * i + 1] - c[1], p[3 * i + 2] - c[2]));
      const got = quantileRadius(p, n, c[0], c[1], c[2], 0.98, new Float32Array(n));
      expect(got).toBeGreaterThanOrEqual(exact * (1 - 1e-6));
      expect(got - exact).toBeLessThanOrEqual(max / 4096 + 1e-3);
    }
  });

  it('handles every node on the centre', () => {
    expect(quantileRadius(new Float32Array(9), 3, 0, 0, 0, 0.98, new Float32Array(3))).toBe(0);
  });

  it('takes linear time: 200 000 nodes well under a frame', () => {
    const n = 200_000;
    const p = new Float32Array(3 * n).map((_, i) => Math.sin(i) * 1000);
    const scratch = new Float32Array(n);
    quantileRadius(p, n, 0, 0, 0, 0.98, scratch);
    const start = performance.now();
    for (let i = 0; i < 5; i++) quantileRadius(p, n, 0, 0, 0, 0.98, scratch);
    const linear = (performance.now() - start) / 5;
    expect(linear).toBeLessThan(50);
  });
});
