/**
 * Maximum flow with real-valued capacities (Dinic's algorithm).
 *
 * Used by the offline max-stretch bound, whose feasibility system is a
 * transportation problem; written generally so other bounds can reuse it.
 * Storage is flat typed arrays (edge e and its reverse e ^ 1 side by side) so
 * graphs with a few hundred thousand edges build and solve quickly.
 */

export interface MaxFlowOptions {
  /**
   * Residual capacities at or below this value count as zero. Default:
   * 1e-12 times the largest capacity, which keeps floating-point dust from
   * creating endless tiny augmenting paths.
   */
  epsilon?: number;
}

/** A directed graph with edge capacities, on which a maximum flow is computed. */
export class FlowNetwork {
  readonly nodeCount: number;
  private head: Int32Array;
  private next: Int32Array;
  private to: Int32Array;
  /** Residual capacity of each edge (reverse edges start at 0). */
  private residual: Float64Array;
  /** Original capacity of each forward edge (reverse edges: 0). */
  private capacity: Float64Array;
  private edges = 0;
  private maxCapacity = 0;

  /**
   * @param nodeCount number of nodes, numbered 0..nodeCount-1
   * @param edgeHint expected number of edges (storage grows as needed)
   */
  constructor(nodeCount: number, edgeHint = 16) {
    if (!Number.isInteger(nodeCount) || nodeCount < 2) {
      throw new RangeError(`FlowNetwork: nodeCount must be an integer >= 2, got ${nodeCount}`);
    }
    this.nodeCount = nodeCount;
    this.head = new Int32Array(nodeCount).fill(-1);
    const slots = Math.max(2, 2 * Math.ceil(edgeHint));
    this.next = new Int32Array(slots);
    this.to = new Int32Array(slots);
    this.residual = new Float64Array(slots);
    this.capacity = new Float64Array(slots);
  }

  /** Number of (forward) edges added so far. */
  get edgeCount(): number {
    return this.edges / 2;
  }

  private grow(): void {
    const size = this.to.length * 2;
    const growInt = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    const growFloat = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.next = growInt(this.next);
    this.to = growInt(this.to);
    this.residual = growFloat(this.residual);
    this.capacity = growFloat(this.capacity);
  }

  /**
   * Add a directed edge; returns its id (use it with `flowOn` / `push`).
   * Capacities must be finite and non-negative.
   */
  addEdge(from: number, to: number, capacity: number): number {
    if (!(from >= 0 && from < this.nodeCount && to >= 0 && to < this.nodeCount)) {
      throw new RangeError(`FlowNetwork.addEdge: node out of range (${from} -> ${to}, ${this.nodeCount} nodes)`);
    }
    if (!(capacity >= 0) || !Number.isFinite(capacity)) {
      throw new RangeError(`FlowNetwork.addEdge: capacity must be finite and >= 0, got ${capacity}`);
    }
    if (this.edges + 2 > this.to.length) this.grow();
    const e = this.edges;
    this.to[e] = to;
    this.residual[e] = capacity;
    this.capacity[e] = capacity;
    this.next[e] = this.head[from];
    this.head[from] = e;
    this.to[e + 1] = from;
    this.residual[e + 1] = 0;
    this.capacity[e + 1] = 0;
    this.next[e + 1] = this.head[to];
    this.head[to] = e + 1;
    this.edges += 2;
    if (capacity > this.maxCapacity) this.maxCapacity = capacity;
    return e;
  }

  /** Flow currently carried by edge `edge` (an id returned by addEdge). */
  flowOn(edge: number): number {
    return this.capacity[edge] - this.residual[edge];
  }

  /**
   * Send `amount` along one edge without checking conservation. Used to seed
   * the solver with a known feasible flow (the caller keeps it conserved);
   * maxFlow then only adds to it.
   */
  push(edge: number, amount: number): void {
    this.residual[edge] -= amount;
    this.residual[edge ^ 1] += amount;
  }

  /**
   * Increase the flow from `source` to `sink` to a maximum; returns the flow
   * value added by this call (flow seeded with `push` is not counted).
   */
  maxFlow(source: number, sink: number, options: MaxFlowOptions = {}): number {
    if (source === sink) throw new RangeError('FlowNetwork.maxFlow: source and sink must differ');
    const eps = options.epsilon ?? this.maxCapacity * 1e-12;
    const n = this.nodeCount;
    const level = new Int32Array(n);
    const current = new Int32Array(n);
    const queue = new Int32Array(n);
    const pathEdges = new Int32Array(n);
    const { head, next, to, residual } = this;
    let total = 0;

    const bfs = (): boolean => {
      level.fill(-1);
      level[source] = 0;
      let qh = 0;
      let qt = 0;
      queue[qt++] = source;
      while (qh < qt) {
        const u = queue[qh++];
        for (let e = head[u]; e !== -1; e = next[e]) {
          const v = to[e];
          if (level[v] < 0 && residual[e] > eps) {
            level[v] = level[u] + 1;
            queue[qt++] = v;
          }
        }
      }
      return level[sink] >= 0;
    };

    while (bfs()) {
      current.set(head);
      // Iterative blocking-flow search (no recursion: paths can be long).
      let depth = 0;
      let u = source;
      for (;;) {
        if (u === sink) {
          let bottleneck = Infinity;
          for (let i = 0; i < depth; i++) bottleneck = Math.min(bottleneck, residual[pathEdges[i]]);
          let firstSaturated = -1;
          for (let i = 0; i < depth; i++) {
            const e = pathEdges[i];
            residual[e] -= bottleneck;
            residual[e ^ 1] += bottleneck;
            if (firstSaturated < 0 && residual[e] <= eps) firstSaturated = i;
          }
          total += bottleneck;
          // Retreat to the tail of the first saturated edge and continue from there.
          depth = firstSaturated < 0 ? 0 : firstSaturated;
          u = depth === 0 ? source : to[pathEdges[depth - 1]];
          continue;
        }
        let e = current[u];
        while (e !== -1 && !(residual[e] > eps && level[to[e]] === level[u] + 1)) e = next[e];
        current[u] = e;
        if (e !== -1) {
          pathEdges[depth++] = e;
          u = to[e];
          continue;
        }
        // Dead end: no more flow can pass through u in this phase.
        if (u === source) break;
        level[u] = -1;
        depth--;
        const back = pathEdges[depth];
        u = to[back ^ 1];
        current[u] = next[current[u]];
      }
    }
    return total;
  }
}
