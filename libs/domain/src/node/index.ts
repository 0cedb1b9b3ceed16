export * from './node-events';
export * from './node-commands';
export * from './node-state';
export * from './evolve-node';
export * from './fence';
export * from './decide-observation';
export * from './node-decider';
