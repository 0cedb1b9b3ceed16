export * from './lease-file-generator';
export * from './lease-file-writers';
