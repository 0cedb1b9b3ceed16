export * from './reconcile-instances';
