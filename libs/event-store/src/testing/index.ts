export * from './returned-positions-only.store';
export * from './dropping-subscriptions.store';
export * from './forgetful-idempotency.store';
export * from './delegating.store';
export * from './store-holding';
