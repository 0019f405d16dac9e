/**
 * Invariants of a VCSched allocation, checked by every heuristic and by the
 * MILP when invariant checks are on (`invariantChecksEnabled()`,
 * util/invariants.ts; SCHEDLAB_CHECK_INVARIANTS=1). A violation throws an
 * {@link InvariantError} naming the invariant and the job or host.
 */
import { InvariantError } from '../../util/invariants';
import { vcschedRelaxedMinYield } from '../../bounds/vcsched';
import { FEASIBILITY_TOLERANCE, VcAllocation, VcInstance, instanceTasks } from './model';

/**
 * Check an allocation against the problem's constraints:
 *  - every task on an existing host (`vcsched/host`);
 *  - 0 ≤ CPU fraction ≤ need for every task (`vcsched/need`);
 *  - all tasks of a job get the same fraction (`vcsched/equal-share`);
 *  - memory ≤ 1 and CPU ≤ 1 on every host (`vcsched/memory`, `vcsched/cpu`);
 *  - every job yield in [0, 1] (`vcsched/yield`);
 *  - with `minYield`: the reported minimum yield is the allocation's
 *    (`vcsched/min-yield`) and no higher than the LP-relaxation optimum, an
 *    upper bound on every allocation (`vcsched/relaxation`).
 */
export function verifyVcAllocation(inst: VcInstance, alloc: VcAllocation, reported?: { minYield?: number; algorithm?: string }): void {
  const tol = FEASIBILITY_TOLERANCE;
  const who = reported?.algorithm ? `${reported.algorithm}: ` : '';
  const tasks = instanceTasks(inst);
  if (alloc.host.length !== tasks.length || alloc.cpu.length !== tasks.length) {
    throw new InvariantError('vcsched/host', `${who}allocation has ${alloc.host.length} hosts and ${alloc.cpu.length} fractions for ${tasks.length} tasks`);
  }
  const mem = new Float64Array(inst.hosts);
  const cpu = new Float64Array(inst.hosts);
  const jobCpu = new Float64Array(inst.jobs.length);
  const first = new Array<number | undefined>(inst.jobs.length).fill(undefined);
  tasks.forEach((t, i) => {
    const h = alloc.host[i];
    const a = alloc.cpu[i];
    if (!(Number.isInteger(h) && h >= 0 && h < inst.hosts)) throw new InvariantError('vcsched/host', `${who}task ${i} on host ${h}, outside 0..${inst.hosts - 1}`, { job: t.job });
    if (!(a >= -tol && a <= t.cpuNeed + tol)) throw new InvariantError('vcsched/need', `${who}task ${i} gets CPU ${a}, outside [0, need ${t.cpuNeed}]`, { job: t.job, node: h });
    const f = first[t.job];
    if (f === undefined) first[t.job] = a;
    else if (Math.abs(f - a) > tol) throw new InvariantError('vcsched/equal-share', `${who}tasks get CPU ${f} and ${a}`, { job: t.job, node: h });
    mem[h] += t.mem;
    cpu[h] += a;
    jobCpu[t.job] += a;
  });
  for (let h = 0; h < inst.hosts; h++) {
    if (mem[h] > 1 + tol) throw new InvariantError('vcsched/memory', `${who}host memory ${mem[h]} > 1`, { node: h });
    if (cpu[h] > 1 + tol) throw new InvariantError('vcsched/cpu', `${who}host CPU ${cpu[h]} > 1`, { node: h });
  }
  let minYield = 1;
  inst.jobs.forEach((j, k) => {
    const need = j.cpuNeed * (j.tasks ?? 1);
    const y = need > 0 ? jobCpu[k] / need : 1;
    if (!(y >= -tol && y <= 1 + tol)) throw new InvariantError('vcsched/yield', `${who}yield ${y} outside [0, 1]`, { job: k });
    minYield = Math.min(minYield, y);
  });
  if (reported?.minYield !== undefined) {
    if (Math.abs(reported.minYield - minYield) > tol) {
      throw new InvariantError('vcsched/min-yield', `${who}reported minimum yield ${reported.minYield}, the allocation gives ${minYield}`);
    }
    const bound = vcschedRelaxedMinYield(inst);
    if (bound === null || minYield > bound + tol) {
      throw new InvariantError('vcsched/relaxation', `${who}minimum yield ${minYield} above the LP-relaxation optimum ${bound}`);
    }
  }
}
