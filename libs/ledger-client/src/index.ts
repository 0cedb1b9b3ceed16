export { createLedgerClient, type LedgerApi, type LedgerClientOptions } from './ledger-client';
export type { components, operations, paths } from './ledger-api';
