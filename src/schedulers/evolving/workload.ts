/**
 * Synthetic evolving-application test cases (section 5): a uniform random
 * number of applications, each with a uniform random number of steps, and
 * uniform random step durations and node counts (all integers, ends
 * included).
 */
import { Rng, createRng, Seed } from '../../util/random';
import { EvolvingApp } from './list';
import { InputError } from '../../util/errors';

/** Size and shape of one generated evolving-applications test: applications, steps, step duration and nodes. */
export interface EvolvingTestOptions {
  /** [min, max] applications per test (default [15, 20]). */
  apps?: [number, number];
  /** [min, max] steps per application (default [1, 10]). */
  steps?: [number, number];
  /** [min, max] step duration in seconds (default [500, 3600]). */
  duration?: [number, number];
  /** [min, max] nodes per step (default [1, 75]). */
  nodes?: [number, number];
}

function range(name: string, r: [number, number] | undefined, dflt: [number, number], min: number): [number, number] {
  const v = r ?? dflt;
  if (!Array.isArray(v) || v.length !== 2 || !Number.isInteger(v[0]) || !Number.isInteger(v[1]) || v[0] > v[1] || v[0] < min) {
    throw new InputError(`evolving test option "${name}" must be [low, high] integers with ${min} <= low <= high, got ${JSON.stringify(r)}`, { source: 'evolving test options', field: name });
  }
  return v;
}

/** One test case drawn from `rng`; ids are 0..napps-1 in queue order. */
export function generateEvolvingTest(rng: Rng, options: EvolvingTestOptions = {}): EvolvingApp[] {
  const apps = range('apps', options.apps, [15, 20], 1);
  const steps = range('steps', options.steps, [1, 10], 1);
  const duration = range('duration', options.duration, [500, 3600], 1);
  const nodes = range('nodes', options.nodes, [1, 75], 1);
  const napps = rng.int(apps[0], apps[1]);
  const out: EvolvingApp[] = [];
  for (let id = 0; id < napps; id++) {
    const nsteps = rng.int(steps[0], steps[1]);
    const profile = [];
    for (let k = 0; k < nsteps; k++) {
      profile.push({ duration: rng.int(duration[0], duration[1]), nodes: rng.int(nodes[0], nodes[1]) });
    }
    out.push({ id, profile });
  }
  return out;
}

/** Test case number `index` of a seeded series: independent of how many other tests are drawn. */
export function evolvingTestCase(seed: Seed, index: number, options: EvolvingTestOptions = {}): EvolvingApp[] {
  return generateEvolvingTest(createRng(seed).fork(`evolving-test-${index}`), options);
}
