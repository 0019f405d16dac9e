/**
 * An indexed, read-only view of a resource EP: absolute step start times so
 * that max/loc queries cost a binary search plus a scan of the steps they
 * touch. The fit functions query the same resource EP many times, so they
 * build one Timeline per call instead of re-summing durations on every query.
 */
import { EvolutionProfile, normalize } from './profile';

/** An indexed read-only view of an evolution profile: max and location queries by binary search. */
export class Timeline {
  /** starts[k] is when step k begins; step k lasts until starts[k + 1] (or `end`). */
  readonly starts: number[];
  readonly nodes: number[];
  /** End of the last step; the profile is 0 from here on (and before 0). */
  readonly end: number;

  constructor(ep: EvolutionProfile) {
    const steps = normalize(ep);
    this.starts = [];
    this.nodes = [];
    let t = 0;
    for (const s of steps) {
      this.starts.push(t);
      this.nodes.push(s.nodes);
      t += s.duration;
    }
    this.end = t;
  }

  private stepEnd(k: number): number {
    return k + 1 < this.starts.length ? this.starts[k + 1] : this.end;
  }

  /** Index of the first step that ends after t (starts.length if none). */
  private firstEndingAfter(t: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.stepEnd(mid) > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** max(ep, t0, t1); 0 when t0 >= t1. */
  max(t0: number, t1: number): number {
    if (!(t0 < t1)) return 0;
    let m = 0;
    for (let k = this.firstEndingAfter(t0); k < this.starts.length && this.starts[k] < t1; k++) {
      if (this.nodes[k] > m) m = this.nodes[k];
    }
    return m;
  }

  /** loc(ep, t0, t1): end of the last step holding the maximum over [t0, t1), clipped to t1 (t0 if the maximum is 0). */
  loc(t0: number, t1: number): number {
    if (!(t0 < t1)) return t0;
    let m = 0;
    let at = t0;
    for (let k = this.firstEndingAfter(t0); k < this.starts.length && this.starts[k] < t1; k++) {
      if (this.nodes[k] > 0 && this.nodes[k] >= m) {
        m = this.nodes[k];
        at = Math.min(this.stepEnd(k), t1);
      }
    }
    return at;
  }

  /**
   * Mirror image of loc used when placing steps right to left: the start of
   * the first step holding the maximum over [t0, t1), clipped to t0 (t1 if
   * the maximum is 0). Anything ending after this point overlaps the maximum.
   */
  firstMaxStart(t0: number, t1: number): number {
    if (!(t0 < t1)) return t1;
    let m = 0;
    let at = t1;
    for (let k = this.firstEndingAfter(t0); k < this.starts.length && this.starts[k] < t1; k++) {
      if (this.nodes[k] > m) {
        m = this.nodes[k];
        at = Math.max(this.starts[k], t0);
      }
    }
    return at;
  }
}
