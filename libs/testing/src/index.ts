export * from './ledger-process';
