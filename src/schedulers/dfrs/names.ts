// DFRS algorithm names (Stillwell, Vivien & Casanova, "Dynamic Fractional
// Resource Scheduling vs. Batch Scheduling", Table 1 and section 4.5).
// (Line comments here: the names contain "*" followed by "/", which would end a block comment.)
//
// A name has '/'-separated parts:
//   1. the action on submission: '' (none), Greedy, GreedyP, GreedyPM or MCB8,
//      followed by ' *' when jobs are also scheduled opportunistically on job
//      completion (with MCB8 after MCB8, with Greedy after any greedy variant);
//   2. optionally 'per' (MCB8 applied periodically) or 'stretch-per'
//      (MCB8-stretch applied periodically);
//   3. parameters: opt=min|avg|max, minvt=<s> or minft=<s>, period=<s>.
//
// Examples: "GreedyPM */per/opt=min/minvt=600", "MCB8 */opt=avg/minft=300",
// "/stretch-per/opt=max/minvt=600".

import { InputError } from '../../util/errors';

/** What a DFRS algorithm does when a job arrives: nothing, Greedy, GreedyP, GreedyPM or MCB8. */
export type SubmitAction = 'none' | 'Greedy' | 'GreedyP' | 'GreedyPM' | 'MCB8';
/** What a DFRS algorithm does when a job completes: nothing, Greedy or MCB8 on the waiting jobs. */
export type CompletionAction = 'none' | 'Greedy' | 'MCB8';
/** What a DFRS algorithm does every period: nothing, MCB8, or MCB8 by stretch. */
export type PeriodicAction = 'none' | 'MCB8' | 'MCB8-stretch';
/** How leftover CPU is shared once the mapping is fixed (section 4.6, 4.7). */
export type OptMode = 'min' | 'avg' | 'max';

/** A DFRS algorithm parsed from its name (as the paper writes it): actions on submission, completion and period, and options. */
export interface DfrsAlgorithm {
  /** Canonical name, as the paper writes it. */
  name: string;
  onSubmit: SubmitAction;
  onCompletion: CompletionAction;
  periodic: PeriodicAction;
  opt: OptMode;
  /** Remapping limit for MCB8 / MCB8-stretch (section 4.3, "Limiting Migration"). */
  limit?: { kind: 'minvt' | 'minft'; seconds: number };
  /** Scheduling period in seconds when given in the name (`period=<s>`); else the run option decides. */
  period?: number;
}

const SUBMIT_NAMES: Record<string, SubmitAction> = {
  '': 'none',
  Greedy: 'Greedy',
  GreedyP: 'GreedyP',
  GreedyPM: 'GreedyPM',
  MCB8: 'MCB8',
};

/**
 * Parse an algorithm name. Whitespace around '*' is optional ("Greedy*" and
 * "Greedy *" are the same); "stretch-per/opt=max" without the leading '/' is
 * accepted (the paper's Table 3 writes it that way).
 *
 * Defaults (the paper always states them, we do not require it): opt=min for
 * yield-based algorithms, opt=max for /stretch-per.
 *
 * @throws InputError naming the offending token (`field`) when the name is not one of the
 *   paper's combinations (Table 1) or a parameter is malformed.
 */
export function parseAlgorithm(name: string): DfrsAlgorithm {
  if (typeof name !== 'string') throw new InputError(`parseAlgorithm: algorithm name must be a string, got ${typeof name}`, { source: 'parseAlgorithm', field: 'name' });
  const where = `algorithm name "${name}"`;
  // Every error names the whole name (source) and the offending part (field).
  const bad = (message: string, part: string) => new InputError(message, { source: where, field: part });
  let parts = name.trim().split('/').map((p) => p.trim());
  if (parts.length > 0 && (parts[0] === 'per' || parts[0] === 'stretch-per')) parts = ['', ...parts];
  const head = parts[0];
  const star = /\*\s*$/.test(head);
  const base = head.replace(/\s*\*\s*$/, '').trim();
  if (!(base in SUBMIT_NAMES)) {
    throw bad(`${where}: unknown submission policy "${base}" (expected one of Greedy, GreedyP, GreedyPM, MCB8, or nothing before the first '/')`, head);
  }
  if (base.includes('*')) throw bad(`${where}: misplaced '*' in "${head}"`, head);
  const onSubmit = SUBMIT_NAMES[base];
  if (star && onSubmit === 'none') throw bad(`${where}: '*' (schedule on completion) needs a submission policy before it`, head);
  const onCompletion: CompletionAction = !star ? 'none' : onSubmit === 'MCB8' ? 'MCB8' : 'Greedy';

  let periodic: PeriodicAction = 'none';
  let opt: OptMode | undefined;
  let limit: DfrsAlgorithm['limit'];
  let period: number | undefined;
  const seen = new Set<string>();
  for (let i = 1; i < parts.length; i++) {
    const tok = parts[i];
    if (tok === 'per' || tok === 'stretch-per') {
      if (i !== 1) throw bad(`${where}: "${tok}" must be the second part of the name`, tok);
      periodic = tok === 'per' ? 'MCB8' : 'MCB8-stretch';
      continue;
    }
    const m = /^([a-z]+)\s*=\s*(.+)$/.exec(tok);
    if (!m) throw bad(`${where}: unknown part "${tok}" (expected per, stretch-per, opt=..., minvt=..., minft=... or period=...)`, tok);
    const [, key, value] = m;
    if (seen.has(key) || (key === 'minvt' && seen.has('minft')) || (key === 'minft' && seen.has('minvt'))) {
      throw bad(`${where}: "${tok}" repeats or conflicts with an earlier parameter`, tok);
    }
    seen.add(key);
    if (key === 'opt') {
      if (value !== 'min' && value !== 'avg' && value !== 'max') throw bad(`${where}: "${tok}": opt must be min, avg or max`, tok);
      opt = value;
    } else if (key === 'minvt' || key === 'minft' || key === 'period') {
      const seconds = Number(value);
      if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0) || !Number.isFinite(seconds)) throw bad(`${where}: "${tok}": ${key} must be a positive number of seconds`, tok);
      if (key === 'period') period = seconds;
      else limit = { kind: key, seconds };
    } else {
      throw bad(`${where}: unknown parameter "${tok}" (expected opt, minvt, minft or period)`, tok);
    }
  }

  // Only the combinations of Table 1.
  if (onSubmit === 'none' && periodic === 'none') throw bad(`${where}: no action at all (add a submission policy or "per")`, head);
  if (periodic === 'MCB8-stretch' && (onSubmit !== 'none' || star)) {
    throw bad(`${where}: "stretch-per" is only defined without submission/completion actions ("/stretch-per")`, head);
  }
  if (onSubmit !== 'none' && !star && periodic === 'none') {
    throw bad(`${where}: "${base}" alone is not a Table 1 algorithm (add " *", "/per" or both)`, head);
  }
  const stretch = periodic === 'MCB8-stretch';
  if (opt === undefined) opt = stretch ? 'max' : 'min';
  if (stretch && opt === 'min') throw bad(`${where}: "opt=min" is not defined for stretch-per (use opt=max or opt=avg)`, 'opt=min');
  if (!stretch && opt === 'max') throw bad(`${where}: "opt=max" is only defined for stretch-per (use opt=min or opt=avg)`, 'opt=max');
  const usesMcb = onSubmit === 'MCB8' || periodic !== 'none';
  if (limit && !usesMcb) throw bad(`${where}: "${limit.kind}=${limit.seconds}" only affects MCB8, which this algorithm never runs`, `${limit.kind}=${limit.seconds}`);
  if (period !== undefined && periodic === 'none') throw bad(`${where}: "period=${period}" given but the algorithm is not periodic`, `period=${period}`);

  const alg: DfrsAlgorithm = { name: '', onSubmit, onCompletion, periodic, opt };
  if (limit) alg.limit = limit;
  if (period !== undefined) alg.period = period;
  alg.name = formatAlgorithm(alg);
  return alg;
}

/** The canonical name of an algorithm (the paper's spelling). */
export function formatAlgorithm(a: Omit<DfrsAlgorithm, 'name'>): string {
  let head = a.onSubmit === 'none' ? '' : a.onSubmit;
  if (a.onCompletion !== 'none') head += ' *';
  const parts = [head];
  if (a.periodic === 'MCB8') parts.push('per');
  else if (a.periodic === 'MCB8-stretch') parts.push('stretch-per');
  parts.push(`opt=${a.opt}`);
  if (a.limit) parts.push(`${a.limit.kind}=${a.limit.seconds}`);
  if (a.period !== undefined) parts.push(`period=${a.period}`);
  return parts.join('/');
}

/** The 14 combinations of Table 1 (without parameters), in the paper's order. */
export const TABLE1_COMBINATIONS: readonly string[] = [
  'Greedy *',
  'GreedyP *',
  'GreedyPM *',
  'Greedy/per',
  'GreedyP/per',
  'GreedyPM/per',
  'Greedy */per',
  'GreedyP */per',
  'GreedyPM */per',
  'MCB8 *',
  'MCB8/per',
  'MCB8 */per',
  '/per',
  '/stretch-per',
];

/**
 * Every algorithm of the appendix tables (116 names): the 3 purely greedy
 * combinations with opt=avg|min, and the 11 MCB8-based ones with two opt modes
 * (avg|min, or avg|max for stretch-per) times five remapping limits
 * (none, minft=300, minft=600, minvt=300, minvt=600).
 */
export function allAlgorithmNames(): string[] {
  const out: string[] = [];
  for (const combo of TABLE1_COMBINATIONS) {
    const pureGreedy = !combo.includes('per') && !combo.startsWith('MCB8');
    const opts = combo === '/stretch-per' ? ['avg', 'max'] : ['avg', 'min'];
    const limits = pureGreedy ? [''] : ['', 'minft=300', 'minft=600', 'minvt=300', 'minvt=600'];
    for (const o of opts) for (const l of limits) out.push(`${combo}/opt=${o}${l ? '/' + l : ''}`);
  }
  return out;
}

/** The 18 DFRS rows of Table 2, in the paper's order (FCFS and EASY come first there). */
export const TABLE2_DFRS_ALGORITHMS: readonly string[] = [
  'Greedy */opt=min',
  'GreedyP */opt=min',
  'GreedyPM */opt=min',
  'Greedy/per/opt=min',
  'GreedyP/per/opt=min',
  'GreedyPM/per/opt=min',
  'Greedy */per/opt=min',
  'GreedyP */per/opt=min',
  'GreedyPM */per/opt=min',
  'GreedyP/per/opt=min/minvt=600',
  'GreedyPM/per/opt=min/minvt=600',
  'GreedyP */per/opt=min/minvt=600',
  'GreedyPM */per/opt=min/minvt=600',
  'MCB8 */opt=min/minvt=600',
  'MCB8/per/opt=min/minvt=600',
  'MCB8 */per/opt=min/minvt=600',
  '/per/opt=min/minvt=600',
  '/stretch-per/opt=max/minvt=600',
];

/** Figure 1's algorithms (scaled set, average degradation against the load), EASY drawn for reference. */
export const FIGURE1_ALGORITHMS: readonly string[] = [
  'EASY', 'Greedy */opt=min', 'GreedyPM */opt=min', 'Greedy/per/opt=min', 'GreedyPM/per/opt=min', 'Greedy */per/opt=min',
  'GreedyPM */per/opt=min', 'GreedyPM/per/opt=min/minvt=600', 'GreedyPM */per/opt=min/minvt=600', 'MCB8 */opt=min/minvt=600',
  'MCB8/per/opt=min/minvt=600', 'MCB8 */per/opt=min/minvt=600', '/per/opt=min/minvt=600', '/stretch-per/opt=max/minvt=600',
];

/** The two batch baselines of Table 2. */
export const BATCH_ALGORITHMS: readonly string[] = ['FCFS', 'EASY'];

/** The two batch baselines as the paper's own simulator ran them (see simulateDfrsBatch). */
export const PUBLISHED_BATCH_ALGORITHMS: readonly string[] = ['FCFS (as published)', 'EASY (as published)'];

/** The batch rows of notebook 01: textbook FCFS and EASY, and both as the DFRS paper's own simulator ran them. */
export type BatchAlgorithm = 'FCFS' | 'EASY' | 'FCFS (as published)' | 'EASY (as published)';

/** True for 'FCFS' / 'EASY' and their '(as published)' forms (case-sensitive, as in the paper). */
export function isBatchAlgorithm(name: string): name is BatchAlgorithm {
  return name === 'FCFS' || name === 'EASY' || name === 'FCFS (as published)' || name === 'EASY (as published)';
}
