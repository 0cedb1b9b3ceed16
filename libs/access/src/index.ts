export * from './principal';
export * from './api-key';
export * from './keys-file';
export * from './rate-limiter';
export * from './maas-key';
