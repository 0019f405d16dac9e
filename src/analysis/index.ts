export * from './paths';
export * from './frame';
export * from './summarize';
export * from './table';
export * from './display';
export * from './charts';
export * from './render';
export * from './show';
