/**
 * Sweeps: many independent simulation cells (parameters × algorithms ×
 * replications), run on all cores, on shards across machines (Slurm job
 * arrays), with resumable, checksummed JSON-lines results.
 */
export * from './grid';
export * from './store';
export * from './run';
export * from './merge';
export * from './slurm';
export * from './load';
export * from './progress';
export { resolveCellModule, resolveModulePath, TOOLKIT_ROOT } from './cellmodule';
export * from './compare';
