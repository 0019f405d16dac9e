export * from './simulate';
export * from './conservative';
export * from './invariants';
export * from './policies';
