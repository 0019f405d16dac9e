/**
 * VCSched: resource allocation with virtual clusters (Stillwell, Schanzenbach,
 * Vivien, Casanova). Problem model, MILP and LP relaxation, exact search,
 * heuristics (RRND, RRNZ, GR, SG, GB, SGB, MCB1..MCB8), average-yield
 * improvement, instance generator and experiment runner.
 */
export * from './model';
export * from './improve';
export * from './milp';
export * from './exact';
export * from './heuristics';
export * from './generator';
export * from './experiment';
export { runLp, lpValue, lpSolutionViolation, lpObjective, setLpSolverForTesting, loadLpEngine, LP_ENGINES, ColumnLpBuilder, columnsFromLpModel, lpModelFromColumns } from './lpsolver';
export type { LpModel, ColumnLpModel, LpRun, LpStatus, LpEngine, RunLpOptions } from './lpsolver';
export { vcschedRelaxedMinYield, vcschedRelaxedAverageYield } from '../../bounds/vcsched';
export * from './analysis';
export * from './invariants';
