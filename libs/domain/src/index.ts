export * from './core';
export * from './consumer';
export * from './provisioning-token';
export * from './streams';
export * from './node';
