/**
 * The simplest correct parse of well-formed SWF text (the real traces):
 * split lines on LF and fields on white space, Number() each field, drop the
 * jobs the reader drops. The reader's fast scanner must give the same values
 * (test/workloads/swf-input.test.ts); bench/swf.ts times it as the baseline.
 */
import { WorkloadJob } from '../../src/workloads/job';

const OPTIONAL: [keyof WorkloadJob, number][] = [['avgCpuTime', 5], ['usedMemory', 6], ['requestedProcs', 7], ['requestedTime', 8], ['requestedMemory', 9], ['status', 10], ['userId', 11], ['queue', 14]];

export function referenceJobs(text: string): WorkloadJob[] {
  const jobs: WorkloadJob[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith(';')) continue;
    const v = line.split(/\s+/).map(Number);
    if (v[1] === -1 || v[3] === -1 || v[4] === -1 || v[4] === 0) continue;
    const j: WorkloadJob = { id: v[0], submit: v[1], runtime: v[3], procs: v[4] };
    for (const [k, i] of OPTIONAL) if (v[i] !== -1) (j as unknown as Record<string, number>)[k] = v[i];
    jobs.push(j);
  }
  return jobs;
}
