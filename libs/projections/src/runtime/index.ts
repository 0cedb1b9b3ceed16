export * from './checkpoint-store';
export * from './position-waiters';
export * from './projection';
export * from './projection-runner';
