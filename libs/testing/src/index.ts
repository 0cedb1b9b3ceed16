export * from './ledger-process';
export * from './cli';
export * from './until';
export * from './browser';
