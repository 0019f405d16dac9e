/**
 * Two-tier (foreground / background VM) processors and the EASY, KEASY, REASY
 * and MEASY schedulers of the MEASY paper (migration and consolidation based
 * parallel job scheduling).
 */
export * from './progress';
export * from './policies';
export * from './simulator';
export * from './workload';
export * from './experiment';
export * from '../../metrics/twotier';
