import type { RecordedEvent } from '@ledger/event-store';
import type { AuditFields } from './audit-fields';
import type { AuditFilter } from './audit-index-reader';

/** The filter fields a live stream applies (paging fields have no meaning there). */
export type LiveAuditFilter = Omit<AuditFilter, 'after' | 'until' | 'limit'>;

/**
 * Whether an event passes an audit filter: the same fields and the same equality the
 * audit index's queries use, for a stream that is fed events one at a time.
 */
export const matchesAuditFilter = (event: RecordedEvent, fields: AuditFields, filter: LiveAuditFilter): boolean => {
  if (filter.nodeId !== undefined && fields.nodeId !== filter.nodeId) return false;
  if (filter.token !== undefined && fields.token !== filter.token) return false;
  if (filter.ip !== undefined && fields.ip !== filter.ip) return false;
  if (filter.controller !== undefined && fields.controller !== filter.controller) return false;
  if (filter.model !== undefined && fields.model !== filter.model) return false;
  if (filter.types?.length && !filter.types.includes(event.type)) return false;
  if (filter.from && Date.parse(event.recordedAt) < filter.from.getTime()) return false;
  if (filter.to && Date.parse(event.recordedAt) > filter.to.getTime()) return false;
  return true;
};
