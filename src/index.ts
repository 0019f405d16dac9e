/**
 * schedlab: simulate cluster and cloud job scheduling, analyse results as
 * dataframes, reproduce published experiments as notebooks.
 */
export * from './util/random';
export * from './util/errors';
export * from './util/invariants';
export { setPolicyBudget, policyBudget, DEFAULT_POLICY_BUDGET } from './util/policy-guard';
export { portable, isPortableRef, PortableRef } from './util/portable';
export { PolicyRef, isPolicyRef } from './util/modules';
export type { DfrsPolicy, DfrsDecisionView, DfrsJobView, DfrsMapping } from './schedulers/dfrs/policy';
export { compareBatchPolicies, batchComparisonSweep, BatchComparisonOptions, ComparisonRow, ComparisonWorkload, ComparisonPolicy, compareDfrsPolicies, dfrsComparisonSweep, DfrsComparisonOptions, DfrsComparisonRow, DfrsComparisonAlgorithm } from './sweep/compare';
export * from './engine/events';
export * from './engine/platform';
export * from './engine/progress';
export * from './engine/profile';
export * from './engine/job';
export * from './workloads/job';
export * from './workloads/lublin';
export * from './workloads/swf';
export * from './workloads/sacct';
export * from './workloads/batsim';
export * from './workloads/traces';
export * from './workloads/filters';
export * from './schedulers/batch';
export * from './metrics';
export * as packing from './schedulers/packing';
export * from './analysis';
export * as bounds from './bounds';
export * as dfrsWorkloads from './workloads/dfrs';
export * as reservation from './schedulers/reservation';
export * as evolving from './schedulers/evolving';
export * as sweep from './sweep';
export * as papers from './sweep/papers';
export * as claims from './claims';
export { claimsSummary, claimsFor, countsLine, headlineChart, claimsMarkdown, claimRows } from './claims';
export * as dfrs from './schedulers/dfrs';
export * as twotier from './schedulers/twotier';
export * as feitelson96 from './workloads/feitelson96';
export * as jann97 from './workloads/jann97';
export * as tsafrir05 from './workloads/tsafrir05';
export * as runtimeEstimates from './workloads/estimates';
export * as vcsched from './schedulers/vcsched';
