export * from './views';
export * from './apply-event';
export * from './node-queries';
export * from './allocation-queries';
export * from './ledger-projection';
export * from './node-health-view';
export * from './node-health-queries';
