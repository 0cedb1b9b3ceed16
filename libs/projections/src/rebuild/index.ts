export * from './diff-values';
export * from './rebuild-read-models';
export * from './verify-read-models';
export * from './monotonic-ms';
