export * from './ledger-view';
export * from './runtime';
export * from './reconcile';
export * from './lease-cascade';
export * from './time-travel';
export * from './audit';
export * from './rebuild';
export * from './presentation';
