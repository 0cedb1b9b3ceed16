export * from './ledger-upcasters';
