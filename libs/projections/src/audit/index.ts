export * from './audit-fields';
export * from './audit-fields-in-view';
export * from './audit-index-tables';
export * from './audit-index-projector';
export * from './audit-index-reader';
export * from './event-summaries';
export * from './audit-filter-match';
export * from './thread/audit-index-thread';
export type { AuditThreadSettings } from './thread/audit-thread-protocol';
