/**
 * Scheduling fully-predictably evolving applications (Klein & Pérez,
 * "Towards scheduling evolving applications"): evolution profiles, the base
 * fit with expand limit and compacting, list scheduling, the rigid CBF
 * baseline, synthetic test cases and the system/user-centric metrics.
 */
export * from './profile';
export { Timeline } from './timeline';
export * from './fit';
export * from './list';
export * from './rigid';
export * from './invariants';
export * from './workload';
export * from './experiment';
export * from './chart';
export * from '../../metrics/evolving';
