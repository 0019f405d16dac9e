/**
 * Maximum flow with real-valued capacities (Dinic's algorithm).
 *
 * Used by the offline max-stretch bound, whose feasibility system is a
 * transportation problem; written generally so other bounds can reuse it.
 * Arcs are collected in flat typed arrays, then frozen into a compressed
 * (CSR) adjacency the first time `maxFlow` runs, so graphs with a million
 * arcs build and solve quickly. A network can be `reset` and refilled to reuse
 * its buffers (the bound's binary search builds one graph per target).
 */

import { InvariantError } from '../util/invariants';

export interface MaxFlowOptions {
  /**
   * Residual capacities at or below this value count as zero. Default:
   * 1e-12 times the largest capacity, which keeps floating-point dust from
   * creating endless tiny augmenting paths.
   */
  epsilon?: number;
}

/** A directed graph with arc capacities, on which a maximum flow is computed. */
export class FlowNetwork {
  private nodes = 0;
  // Arc list (arc k: from[k] -> to[k]), in insertion order.
  private arcFrom: Int32Array;
  private arcTo: Int32Array;
  private arcCapacity: Float64Array;
  /** Flow placed with `push` before solving, then the solved flow. */
  private arcFlow: Float64Array;
  private arcs = 0;
  private maxCapacity = 0;
  // Frozen CSR form: slots start[u]..start[u+1]-1 leave node u.
  private frozen = false;
  private start = new Int32Array(0);
  private slotTo = new Int32Array(0);
  private slotRev = new Int32Array(0);
  private slotResidual = new Float64Array(0);
  /** Forward slot of each arc. */
  private arcSlot = new Int32Array(0);

  /**
   * @param nodeCount number of nodes, numbered 0..nodeCount-1
   * @param arcHint expected number of arcs (storage grows as needed)
   */
  constructor(nodeCount: number, arcHint = 16) {
    const size = Math.max(4, Math.ceil(arcHint));
    this.arcFrom = new Int32Array(size);
    this.arcTo = new Int32Array(size);
    this.arcCapacity = new Float64Array(size);
    this.arcFlow = new Float64Array(size);
    this.reset(nodeCount, arcHint);
  }

  /** Empty the network (keeping its buffers) for a new graph with `nodeCount` nodes. */
  reset(nodeCount: number, arcHint = 0): void {
    if (!Number.isInteger(nodeCount) || nodeCount < 2) {
      throw new RangeError(`FlowNetwork: nodeCount must be an integer >= 2, got ${nodeCount}`);
    }
    this.nodes = nodeCount;
    this.arcs = 0;
    this.maxCapacity = 0;
    this.frozen = false;
    if (arcHint > this.arcFrom.length) this.resizeArcs(Math.ceil(arcHint));
  }

  get nodeCount(): number {
    return this.nodes;
  }

  /** Number of arcs added so far. */
  get edgeCount(): number {
    return this.arcs;
  }

  private resizeArcs(size: number): void {
    const from = new Int32Array(size);
    from.set(this.arcFrom.subarray(0, this.arcs));
    const to = new Int32Array(size);
    to.set(this.arcTo.subarray(0, this.arcs));
    const cap = new Float64Array(size);
    cap.set(this.arcCapacity.subarray(0, this.arcs));
    const flow = new Float64Array(size);
    flow.set(this.arcFlow.subarray(0, this.arcs));
    this.arcFrom = from;
    this.arcTo = to;
    this.arcCapacity = cap;
    this.arcFlow = flow;
  }

  /**
   * Add a directed arc; returns its id (use it with `flowOn` / `push`).
   * Capacities must be finite and non-negative. Not allowed after `maxFlow`
   * until `reset`.
   */
  addEdge(from: number, to: number, capacity: number): number {
    if (this.frozen) throw new Error('FlowNetwork.addEdge: the network was solved; call reset() first');
    if (!(from >= 0 && from < this.nodes && to >= 0 && to < this.nodes)) {
      throw new RangeError(`FlowNetwork.addEdge: node out of range (${from} -> ${to}, ${this.nodes} nodes)`);
    }
    if (!(capacity >= 0) || !Number.isFinite(capacity)) {
      throw new RangeError(`FlowNetwork.addEdge: capacity must be finite and >= 0, got ${capacity}`);
    }
    if (this.arcs === this.arcFrom.length) this.resizeArcs(2 * this.arcs);
    const k = this.arcs++;
    this.arcFrom[k] = from;
    this.arcTo[k] = to;
    this.arcCapacity[k] = capacity;
    this.arcFlow[k] = 0;
    if (capacity > this.maxCapacity) this.maxCapacity = capacity;
    return k;
  }

  /** Flow carried by arc `arc` (an id returned by addEdge). */
  flowOn(arc: number): number {
    if (!this.frozen) return this.arcFlow[arc];
    return this.arcCapacity[arc] - this.slotResidual[this.arcSlot[arc]];
  }

  /**
   * Send `amount` along one arc before solving, without checking
   * conservation: seeds the solver with a known feasible flow (the caller
   * keeps it conserved and within capacities); maxFlow then only adds to it.
   */
  push(arc: number, amount: number): void {
    if (this.frozen) throw new Error('FlowNetwork.push: only allowed before maxFlow');
    this.arcFlow[arc] += amount;
  }

  /**
   * Check the current flow (seeded or solved): every arc carries between 0
   * and its capacity, and every node other than `source` and `sink` has
   * inflow = outflow (up to float rounding relative to the largest
   * capacity). Throws an InvariantError naming the arc or node; returns the
   * flow value (net outflow of `source`). Used by the bounds when invariant
   * checks are on.
   */
  verifyFlow(source: number, sink: number): number {
    const tol = 1e-9 * Math.max(1, this.maxCapacity) * Math.max(1, Math.sqrt(this.arcs));
    const balance = new Float64Array(this.nodes);
    for (let k = 0; k < this.arcs; k++) {
      const f = this.flowOn(k);
      const cap = this.arcCapacity[k];
      if (!(f >= -tol && f <= cap + tol)) {
        throw new InvariantError('maxflow/capacity', `arc ${k} (${this.arcFrom[k]} -> ${this.arcTo[k]}) carries ${f}, capacity ${cap}`, { node: this.arcFrom[k] });
      }
      balance[this.arcFrom[k]] -= f;
      balance[this.arcTo[k]] += f;
    }
    for (let u = 0; u < this.nodes; u++) {
      if (u !== source && u !== sink && Math.abs(balance[u]) > tol) {
        throw new InvariantError('maxflow/conservation', `inflow − outflow = ${balance[u]}`, { node: u });
      }
    }
    return -balance[source];
  }

  /** Build the CSR adjacency (forward and reverse slot for every arc). */
  private freeze(): void {
    const n = this.nodes;
    const m = this.arcs;
    const start = new Int32Array(n + 1);
    for (let k = 0; k < m; k++) {
      start[this.arcFrom[k] + 1]++;
      start[this.arcTo[k] + 1]++;
    }
    for (let u = 0; u < n; u++) start[u + 1] += start[u];
    const fill = start.slice(0, n);
    const slots = 2 * m;
    if (this.slotTo.length < slots) {
      this.slotTo = new Int32Array(slots);
      this.slotRev = new Int32Array(slots);
      this.slotResidual = new Float64Array(slots);
    }
    if (this.arcSlot.length < m) this.arcSlot = new Int32Array(this.arcFrom.length);
    const { slotTo, slotRev, slotResidual, arcSlot } = this;
    for (let k = 0; k < m; k++) {
      const u = this.arcFrom[k];
      const v = this.arcTo[k];
      const a = fill[u]++;
      const b = fill[v]++;
      slotTo[a] = v;
      slotTo[b] = u;
      slotRev[a] = b;
      slotRev[b] = a;
      slotResidual[a] = this.arcCapacity[k] - this.arcFlow[k];
      slotResidual[b] = this.arcFlow[k];
      arcSlot[k] = a;
    }
    this.start = start;
    this.frozen = true;
  }

  /**
   * Increase the flow from `source` to `sink` to a maximum; returns the flow
   * value added by this call (flow seeded with `push` is not counted).
   */
  maxFlow(source: number, sink: number, options: MaxFlowOptions = {}): number {
    if (source === sink) throw new RangeError('FlowNetwork.maxFlow: source and sink must differ');
    if (!this.frozen) this.freeze();
    const eps = options.epsilon ?? this.maxCapacity * 1e-12;
    const n = this.nodes;
    const { start, slotTo: to, slotRev: rev, slotResidual: residual } = this;
    const level = new Int32Array(n);
    const current = new Int32Array(n);
    const queue = new Int32Array(n);
    const path = new Int32Array(n);
    let total = 0;

    const bfs = (): boolean => {
      level.fill(-1);
      level[source] = 0;
      let qh = 0;
      let qt = 0;
      queue[qt++] = source;
      while (qh < qt) {
        const u = queue[qh++];
        const lu = level[u] + 1;
        for (let e = start[u], end = start[u + 1]; e < end; e++) {
          const v = to[e];
          if (level[v] < 0 && residual[e] > eps) {
            level[v] = lu;
            if (v === sink) return true;
            queue[qt++] = v;
          }
        }
      }
      return level[sink] >= 0;
    };

    while (bfs()) {
      current.set(start.subarray(0, n));
      // Iterative blocking-flow search (no recursion: paths can be long).
      let depth = 0;
      let u = source;
      for (;;) {
        if (u === sink) {
          let bottleneck = Infinity;
          for (let i = 0; i < depth; i++) if (residual[path[i]] < bottleneck) bottleneck = residual[path[i]];
          let firstSaturated = -1;
          for (let i = 0; i < depth; i++) {
            const e = path[i];
            residual[e] -= bottleneck;
            residual[rev[e]] += bottleneck;
            if (firstSaturated < 0 && residual[e] <= eps) firstSaturated = i;
          }
          total += bottleneck;
          // Retreat to the tail of the first saturated arc and continue from there.
          depth = firstSaturated < 0 ? 0 : firstSaturated;
          u = depth === 0 ? source : to[path[depth - 1]];
          continue;
        }
        const want = level[u] + 1;
        let e = current[u];
        const end = start[u + 1];
        while (e < end && !(residual[e] > eps && level[to[e]] === want)) e++;
        current[u] = e;
        if (e < end) {
          path[depth++] = e;
          u = to[e];
          continue;
        }
        // Dead end: no more flow can pass through u in this phase.
        if (u === source) break;
        level[u] = -1;
        depth--;
        u = to[rev[path[depth]]];
        current[u]++;
      }
    }
    return total;
  }
}
