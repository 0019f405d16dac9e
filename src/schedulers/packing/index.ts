/**
 * Shared multi-capacity (CPU, memory) vector bin packing: the MCB1..MCB8
 * heuristics and the binary search on the yield. Used by the VCSched
 * heuristics (src/schedulers/vcsched) and by DFRS.
 */
export * from './mcb';
export * from './yield';
export * from './invariants';
