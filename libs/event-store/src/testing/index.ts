export * from './returned-positions-only.store';
