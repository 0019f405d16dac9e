/**
 * Invariants of a vector packing and of a yield placement, checked by
 * `packVectors` and `maximizeMinYield` when invariant checks are on
 * (`invariantChecksEnabled()`, util/invariants.ts). A violation throws an
 * {@link InvariantError} naming the invariant and the task (job) or host.
 */
import { InvariantError } from '../../util/invariants';
import type { YieldTask } from './yield';

/** Slack of the checks: the packer's capacity slack (CAPACITY_EPSILON = 1e-9, mcb.ts) plus float round-off of the sums. */
const SLACK = 2e-9;

/**
 * Check that every item sits in a bin of 0..binCount−1 (`packing/placed`) and
 * that no bin holds more than capacity 1 of CPU or memory, counting the
 * preload (`packing/cpu`, `packing/memory`).
 */
export function verifyPacking(
  cpu: ArrayLike<number>,
  mem: ArrayLike<number>,
  placement: ArrayLike<number>,
  binCount: number,
  preload?: { cpu: ArrayLike<number>; mem: ArrayLike<number> },
): void {
  const usedCpu = new Float64Array(binCount);
  const usedMem = new Float64Array(binCount);
  if (preload) {
    for (let b = 0; b < binCount; b++) {
      usedCpu[b] = preload.cpu[b];
      usedMem[b] = preload.mem[b];
    }
  }
  if (placement.length !== cpu.length) throw new InvariantError('packing/placed', `${placement.length} placements for ${cpu.length} items`);
  for (let i = 0; i < cpu.length; i++) {
    const b = placement[i];
    if (!(Number.isInteger(b) && b >= 0 && b < binCount)) throw new InvariantError('packing/placed', `item ${i} is in bin ${b}, outside 0..${binCount - 1}`, { job: i });
    usedCpu[b] += cpu[i];
    usedMem[b] += mem[i];
  }
  for (let b = 0; b < binCount; b++) {
    if (usedCpu[b] > 1 + SLACK * (1 + cpu.length)) throw new InvariantError('packing/cpu', `bin holds CPU ${usedCpu[b]} > 1`, { node: b });
    if (usedMem[b] > 1 + SLACK * (1 + cpu.length)) throw new InvariantError('packing/memory', `bin holds memory ${usedMem[b]} > 1`, { node: b });
  }
}

/**
 * Check a placement found for a yield: every task on a host (`packing/placed`),
 * memory ≤ 1 per host (`packing/memory`), the yield in [0, 1]
 * (`packing/yield`) and, at that yield, CPU = yield × Σ needs ≤ 1 per host
 * (`packing/cpu`): every task then gets yield × need ≤ its need.
 */
export function verifyYieldPlacement(tasks: readonly YieldTask[], placement: ArrayLike<number>, hosts: number, yieldValue: number): void {
  if (!(yieldValue >= 0 && yieldValue <= 1)) throw new InvariantError('packing/yield', `yield ${yieldValue} outside [0, 1]`);
  const load = new Float64Array(hosts);
  const mem = new Float64Array(hosts);
  if (placement.length !== tasks.length) throw new InvariantError('packing/placed', `${placement.length} placements for ${tasks.length} tasks`);
  for (let i = 0; i < tasks.length; i++) {
    const h = placement[i];
    if (!(Number.isInteger(h) && h >= 0 && h < hosts)) throw new InvariantError('packing/placed', `task ${i} is on host ${h}, outside 0..${hosts - 1}`, { job: tasks[i].job });
    load[h] += tasks[i].cpuNeed;
    mem[h] += tasks[i].mem;
  }
  const slack = SLACK * (1 + tasks.length);
  for (let h = 0; h < hosts; h++) {
    if (mem[h] > 1 + slack) throw new InvariantError('packing/memory', `host memory ${mem[h]} > 1`, { node: h });
    if (yieldValue * load[h] > 1 + slack) throw new InvariantError('packing/cpu', `host CPU ${yieldValue * load[h]} > 1 at yield ${yieldValue}`, { node: h });
  }
}
