/** Lower bounds on scheduling objectives (offline, relaxed problems). */
export * from './maxflow';
export * from './maxstretch';
