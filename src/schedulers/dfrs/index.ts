/**
 * Dynamic Fractional Resource Scheduling (Stillwell, Vivien & Casanova):
 * algorithm names, mappers, CPU allocation, the event-driven simulator and
 * the experiment runner that produces one plain record per (trace, algorithm).
 */
export * from './names';
export * from './allocation';
export * from './avg-lp';
export * from './mapping';
export * from './mappers';
export * from './invariants';
export * from './simulator';
export * from './policy';
export * from '../../metrics/dfrs';
export * from './batch';
export * from './experiment';
export * from './published';
export * from './period';
export * from './load';
export * from './ablation';
