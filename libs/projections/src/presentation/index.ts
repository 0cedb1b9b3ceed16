export * from './allocation-visibility';
export * from './node.presenter';
export * from './node-health.presenter';
export * from './allocation.presenter';
export * from './lease.presenter';
export * from './present-state';
