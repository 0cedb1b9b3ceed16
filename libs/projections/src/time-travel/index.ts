export * from './point-in-log';
export * from './state-at';
export * from './scoped-state-at';
