/**
 * Two-sample Kolmogorov–Smirnov test, and a tiny seeded generator for
 * samplers written from a model's definition (independent of src/util/random).
 */

/** sup |F_a − F_b| over all values (exact for discrete samples: compared after each distinct value). */
export function ksStatistic(a: readonly number[], b: readonly number[]): number {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i], y[j]);
    while (i < x.length && x[i] === v) i++;
    while (j < y.length && y[j] === v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  return d;
}

/**
 * Critical value of the two-sample statistic at significance 0.001:
 * c·sqrt((n+m)/(n·m)) with c = sqrt(−ln(0.001/2)/2) ≈ 1.95. For discrete
 * samples the test is conservative (it rejects less often than 0.1 %).
 */
export function ksCritical001(n: number, m: number): number {
  return Math.sqrt(-Math.log(0.001 / 2) / 2) * Math.sqrt((n + m) / (n * m));
}

/** mulberry32: uniform [0, 1) numbers from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
