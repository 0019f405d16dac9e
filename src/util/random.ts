/**
 * Seeded pseudo-random numbers. Every stochastic part of schedlab draws from an
 * `Rng` so that the same seed always gives the same bytes out.
 *
 * Generator: sfc32 (small, fast, passes PractRand to 2^40+), seeded through
 * splitmix32 so that nearby integer seeds give unrelated streams.
 */

/** 32-bit FNV-1a hash of a string: stable seed derivation from text keys. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A seed is a non-negative integer or any string (hashed). */
export type Seed = number | string;

/** A seed (number or string) as the 32-bit integer the generators use. */
export function normalizeSeed(seed: Seed): number {
  if (typeof seed === 'string') return hashString(seed);
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number or a string, got ${seed}`);
  return Math.floor(Math.abs(seed)) >>> 0;
}

/** A seeded pseudo-random generator (same seed, same numbers): uniform, integer, Bernoulli, normal, exponential and gamma draws. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** Cached second normal deviate of the Box–Muller pair. */
  private spareNormal: number | undefined;
  readonly seed: number;

  constructor(seed: Seed = 1) {
    this.seed = normalizeSeed(seed);
    const sm = splitmix32(this.seed);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform on [0, 1), 53 bits of precision. */
  next(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform on [low, high). */
  uniform(low = 0, high = 1): number {
    return low + (high - low) * this.next();
  }

  /** Uniform integer in [low, high], both ends included. */
  int(low: number, high: number): number {
    if (!Number.isInteger(low) || !Number.isInteger(high) || high < low) {
      throw new RangeError(`int(low, high) needs integers with low <= high, got ${low}, ${high}`);
    }
    return low + Math.floor(this.next() * (high - low + 1));
  }

  /** True with probability p. */
  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  /** Normal deviate (Box–Muller, polar form). */
  normal(mean = 0, sd = 1): number {
    if (this.spareNormal !== undefined) {
      const z = this.spareNormal;
      this.spareNormal = undefined;
      return mean + sd * z;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * f;
    return mean + sd * u * f;
  }

  /** Normal deviate redrawn until it falls in [low, high]. */
  truncatedNormal(mean: number, sd: number, low: number, high: number): number {
    if (!(low <= high)) throw new RangeError(`truncatedNormal: low ${low} > high ${high}`);
    if (sd === 0) return Math.min(high, Math.max(low, mean));
    for (let i = 0; i < 10000; i++) {
      const x = this.normal(mean, sd);
      if (x >= low && x <= high) return x;
    }
    // The interval is far in a tail: fall back to uniform rather than loop forever.
    return this.uniform(low, high);
  }

  /** Exponential deviate with the given mean. */
  exponential(mean = 1): number {
    return -mean * Math.log(1 - this.next());
  }

  /** Gamma deviate with shape k and scale theta (Marsaglia–Tsang). Mean k·theta. */
  gamma(shape: number, scale = 1): number {
    if (!(shape > 0) || !(scale > 0)) throw new RangeError(`gamma needs shape > 0 and scale > 0, got ${shape}, ${scale}`);
    if (shape < 1) {
      const u = this.next();
      return this.gamma(1 + shape, scale) * Math.pow(u === 0 ? Number.MIN_VALUE : u, 1 / shape);
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.next();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v * scale;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v * scale;
    }
  }

  /** One element chosen uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Fisher–Yates shuffle of a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** An independent stream derived from this seed and a label. */
  fork(label: string): Rng {
    return new Rng(hashString(`${this.seed}/${label}`));
  }
}

/** Convenience constructor. */
export function createRng(seed: Seed = 1): Rng {
  return new Rng(seed);
}
