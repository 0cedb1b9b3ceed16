export * from './retry-policy';
export * from './stream-state-cache';
export * from './decider-runner';
