export * from './simulate';
export * from './conservative';
