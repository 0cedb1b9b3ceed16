export * from './sqlite-store-options';
export * from './sqlite-event-store';
export * from './event-id-conflict-error';
export type { CommitObservation, CommitObserver, GroupCommitStats } from './group-commit';
export * from './sqlite-read-only-store';
export { stringAt, type DataPath, type EventFields } from './event-fields';
export * from './data-files';
export * from './group-committing';
export { toWireError, fromWireError, type WireError } from './writer/writer-protocol';
