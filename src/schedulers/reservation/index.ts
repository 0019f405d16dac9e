/**
 * Advance reservation of parallel jobs with deadlines (Li et al.): the
 * slot-based availability structure, the seven allocation policies, request
 * generation from the Lublin model or a trace, the online admission
 * simulation and the paper's experiments.
 */
export * from './pe-set';
export * from './policies';
export * from './availability';
export * from './simulate';
export * from './workload';
export * from './experiment';
export * from '../../metrics/reservation';
export * from './invariants';
