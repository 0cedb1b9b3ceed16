export * from './ledger-process';
export * from './api-contract';
export * from './cli';
export * from './until';
