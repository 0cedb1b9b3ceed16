export * from './reconcile-instances';
export * from './reconcile-ips';
