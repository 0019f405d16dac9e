/** Metrics: per-job and per-run measures of a schedule. */
export * from './jobs';
