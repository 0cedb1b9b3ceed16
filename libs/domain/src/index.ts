export * from './core';
export * from './consumer';
export * from './provisioning-token';
export * from './streams';
export * from './node';
export * from './ip-address';
export * from './mac-address';
export * from './lease';
