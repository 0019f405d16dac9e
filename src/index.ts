/**
 * schedlab: simulate cluster and cloud job scheduling, analyse results as
 * dataframes, reproduce published experiments as notebooks.
 */
export * from './util/random';
export * from './engine/heap';
export * from './engine/events';
export * as packing from './schedulers/packing';
