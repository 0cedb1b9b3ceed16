export * from './envelope';
export * from './expected-revision';
export * from './concurrency-error';
export * from './storage-fault';
export * from './event-store.port';
export * from './command-handling';
export * from './embedded';
export * from './eventstoredb';
