export * from './cascade-state';
export * from './cascade-step';
export * from './lease-cascade-runner';
export * from './cascade-fold';
