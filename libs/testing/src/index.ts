export * from './ledger-process';
export * from './api-contract';
