export * from './point-in-log';
export * from './state-at';
