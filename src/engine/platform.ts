/**
 * Platform: a cluster of homogeneous nodes, each with a CPU capacity and a
 * memory capacity (both in arbitrary units; default 1 and 1, so allocations
 * are fractions of a node).
 *
 * The platform records where each task is placed and what CPU fraction and
 * memory it holds, and refuses anything that would exceed a node's
 * capacity. It knows nothing about time or scheduling policy: fractional CPU
 * shares that change over time (`setCpu`), preemption (`remove`) and
 * migration (`move`) are operations a scheduler calls; their time cost
 * (e.g. a rescheduling penalty) is accounted for by {@link ProgressTracker}.
 */

/** Identifies one task of one job. */
export interface TaskRef {
  job: number | string;
  task: number;
}

/** Resources held by a task on its node. */
export interface TaskShare {
  cpu: number;
  memory: number;
}

/** One task's share of a node: which node, and the CPU fraction it gets there. */
export interface Placement extends TaskShare {
  ref: TaskRef;
  node: number;
}

/** Capacity of each node of a `Platform`: CPU and memory. */
export interface PlatformOptions {
  /** CPU capacity of one node (default 1). */
  cpu?: number;
  /** Memory capacity of one node (default 1). */
  memory?: number;
}

/** Tolerance for floating-point sums of fractional shares. */
export const CAPACITY_EPSILON = 1e-9;

const keyOf = (ref: TaskRef): string => `${ref.job}#${ref.task}`;

/** A cluster of identical multi-core nodes with CPU and memory capacity, tracking which tasks are placed where. */
export class Platform {
  readonly nodeCount: number;
  readonly cpuCapacity: number;
  readonly memoryCapacity: number;
  private readonly usedCpu: Float64Array;
  private readonly usedMemory: Float64Array;
  private readonly placements = new Map<string, Placement>();
  private readonly byNode: Set<string>[];
  private readonly byJob = new Map<number | string, Set<string>>();

  constructor(nodes: number, options: PlatformOptions = {}) {
    if (!Number.isInteger(nodes) || nodes < 1) throw new RangeError(`Platform: node count must be a positive integer, got ${nodes}`);
    this.nodeCount = nodes;
    this.cpuCapacity = options.cpu ?? 1;
    this.memoryCapacity = options.memory ?? 1;
    if (!(this.cpuCapacity > 0)) throw new RangeError(`Platform: cpu capacity must be > 0, got ${this.cpuCapacity}`);
    if (!(this.memoryCapacity > 0)) throw new RangeError(`Platform: memory capacity must be > 0, got ${this.memoryCapacity}`);
    this.usedCpu = new Float64Array(nodes);
    this.usedMemory = new Float64Array(nodes);
    this.byNode = Array.from({ length: nodes }, () => new Set<string>());
  }

  private checkNode(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.nodeCount) {
      throw new RangeError(`Platform: node ${node} does not exist (nodes 0..${this.nodeCount - 1})`);
    }
  }

  private checkShare(share: TaskShare, what: string): void {
    if (!(share.cpu >= 0) || !Number.isFinite(share.cpu)) throw new RangeError(`Platform: ${what}: cpu must be finite and >= 0, got ${share.cpu}`);
    if (!(share.memory >= 0) || !Number.isFinite(share.memory)) throw new RangeError(`Platform: ${what}: memory must be finite and >= 0, got ${share.memory}`);
  }

  /** CPU still free on a node. */
  freeCpu(node: number): number {
    this.checkNode(node);
    return this.cpuCapacity - this.usedCpu[node];
  }

  /** Memory still free on a node. */
  freeMemory(node: number): number {
    this.checkNode(node);
    return this.memoryCapacity - this.usedMemory[node];
  }

  /** CPU allocated on a node (sum of task shares). */
  cpuLoad(node: number): number {
    this.checkNode(node);
    return this.usedCpu[node];
  }

  /** Memory allocated on a node. */
  memoryLoad(node: number): number {
    this.checkNode(node);
    return this.usedMemory[node];
  }

  /** Whether a share fits on a node next to what is there (optionally ignoring one task, e.g. the one being resized). */
  fits(node: number, share: TaskShare, ignore?: TaskRef): boolean {
    this.checkNode(node);
    let cpu = this.usedCpu[node];
    let mem = this.usedMemory[node];
    if (ignore) {
      const p = this.placements.get(keyOf(ignore));
      if (p && p.node === node) {
        cpu -= p.cpu;
        mem -= p.memory;
      }
    }
    return cpu + share.cpu <= this.cpuCapacity + CAPACITY_EPSILON && mem + share.memory <= this.memoryCapacity + CAPACITY_EPSILON;
  }

  /** Place a task on a node. Throws if it is already placed or does not fit. */
  place(ref: TaskRef, node: number, share: TaskShare): Placement {
    this.checkShare(share, `place ${keyOf(ref)}`);
    const key = keyOf(ref);
    const old = this.placements.get(key);
    if (old) throw new Error(`Platform: task ${key} is already placed on node ${old.node}`);
    if (!this.fits(node, share)) {
      throw new RangeError(
        `Platform: task ${key} (cpu ${share.cpu}, memory ${share.memory}) does not fit on node ${node} ` +
          `(free cpu ${this.freeCpu(node)}, free memory ${this.freeMemory(node)})`,
      );
    }
    const p: Placement = { ref: { ...ref }, node, cpu: share.cpu, memory: share.memory };
    this.placements.set(key, p);
    this.byNode[node].add(key);
    let js = this.byJob.get(ref.job);
    if (!js) this.byJob.set(ref.job, (js = new Set()));
    js.add(key);
    this.usedCpu[node] += share.cpu;
    this.usedMemory[node] += share.memory;
    return { ...p };
  }

  /** Change a placed task's CPU share (a new yield). Throws if the node would be over capacity. */
  setCpu(ref: TaskRef, cpu: number): void {
    const p = this.get(ref);
    this.checkShare({ cpu, memory: p.memory }, `setCpu ${keyOf(ref)}`);
    if (!this.fits(p.node, { cpu, memory: p.memory }, ref)) {
      throw new RangeError(`Platform: cpu ${cpu} for task ${keyOf(ref)} exceeds node ${p.node} capacity (other tasks use ${this.usedCpu[p.node] - p.cpu})`);
    }
    this.usedCpu[p.node] += cpu - p.cpu;
    p.cpu = cpu;
  }

  /** Move a task to another node, keeping its share (migration). */
  move(ref: TaskRef, node: number): void {
    const p = this.get(ref);
    if (p.node === node) return;
    if (!this.fits(node, p)) throw new RangeError(`Platform: cannot move task ${keyOf(ref)} to node ${node}: does not fit`);
    const key = keyOf(ref);
    this.usedCpu[p.node] -= p.cpu;
    this.usedMemory[p.node] -= p.memory;
    this.byNode[p.node].delete(key);
    p.node = node;
    this.usedCpu[node] += p.cpu;
    this.usedMemory[node] += p.memory;
    this.byNode[node].add(key);
  }

  /** Remove a task (completion or preemption). Returns its last placement. */
  remove(ref: TaskRef): Placement {
    const p = this.get(ref);
    const key = keyOf(ref);
    this.usedCpu[p.node] -= p.cpu;
    this.usedMemory[p.node] -= p.memory;
    // Avoid drift: an empty node is exactly empty.
    this.byNode[p.node].delete(key);
    if (this.byNode[p.node].size === 0) {
      this.usedCpu[p.node] = 0;
      this.usedMemory[p.node] = 0;
    }
    this.placements.delete(key);
    const js = this.byJob.get(p.ref.job);
    if (js) {
      js.delete(key);
      if (js.size === 0) this.byJob.delete(p.ref.job);
    }
    return { ...p, ref: { ...p.ref } };
  }

  /** Remove every task of a job; returns the removed placements. */
  removeJob(job: number | string): Placement[] {
    return this.tasksOf(job).map((p) => this.remove(p.ref));
  }

  private get(ref: TaskRef): Placement {
    const p = this.placements.get(keyOf(ref));
    if (!p) throw new Error(`Platform: task ${keyOf(ref)} is not placed`);
    return p;
  }

  /** Placement of a task, or undefined. */
  placementOf(ref: TaskRef): Placement | undefined {
    const p = this.placements.get(keyOf(ref));
    return p ? { ...p, ref: { ...p.ref } } : undefined;
  }

  /** Placements of all tasks of a job, by task index. */
  tasksOf(job: number | string): Placement[] {
    const out: Placement[] = [];
    for (const k of this.byJob.get(job) ?? []) {
      const p = this.placements.get(k) as Placement;
      out.push({ ...p, ref: { ...p.ref } });
    }
    return out.sort((a, b) => a.ref.task - b.ref.task);
  }

  /** Placements on one node. */
  tasksOn(node: number): Placement[] {
    this.checkNode(node);
    return [...this.byNode[node]].map((k) => {
      const p = this.placements.get(k) as Placement;
      return { ...p, ref: { ...p.ref } };
    });
  }

  /** Nodes with no task. */
  idleNodes(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.nodeCount; i++) if (this.byNode[i].size === 0) out.push(i);
    return out;
  }

  /** Number of placed tasks. */
  get taskCount(): number {
    return this.placements.size;
  }

  /** Throw if any node's recorded load differs from the sum of its placements or exceeds capacity. */
  validate(): void {
    for (let n = 0; n < this.nodeCount; n++) {
      let cpu = 0;
      let mem = 0;
      for (const k of this.byNode[n]) {
        const p = this.placements.get(k) as Placement;
        cpu += p.cpu;
        mem += p.memory;
      }
      if (Math.abs(cpu - this.usedCpu[n]) > 1e-6 || Math.abs(mem - this.usedMemory[n]) > 1e-6) throw new Error(`Platform: node ${n} bookkeeping drifted`);
      if (cpu > this.cpuCapacity + CAPACITY_EPSILON || mem > this.memoryCapacity + CAPACITY_EPSILON) throw new Error(`Platform: node ${n} over capacity`);
    }
  }
}
