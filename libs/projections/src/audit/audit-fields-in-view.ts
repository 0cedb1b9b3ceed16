import { parseToken } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import type { LedgerViewState } from '../ledger-view/views';
import { deriveAuditFields, ownerlessLeaseOf, type AuditFields } from './audit-fields';

export interface AuditFieldsInView {
  fields: AuditFields;
  /** The view lacked the lease's owner or the token's allocation: a view folded further may have them. */
  missing: boolean;
}

/**
 * An event's audit fields completed from the ledger view where the event itself does not
 * say: the consumer its token was issued to, and for a lease's renewal, release or expiry
 * the owner that was granted the lease. This is how the live stream files events; the
 * audit index files them the same way from its own tables (audit-index-projector.ts).
 * Owners and tokens never change, so any view that has folded the event gives the answer.
 */
export const auditFieldsInView = (view: LedgerViewState, event: RecordedEvent): AuditFieldsInView => {
  const fields = deriveAuditFields(event);
  const lease = ownerlessLeaseOf(event, fields);
  const needsConsumer = fields.controller === null && (fields.token !== null || lease !== null);
  if (lease === null && !needsConsumer) return { fields, missing: false };
  const token = lease ? (view.leases[lease.ip]?.leases.find((held) => held.leaseId === lease.leaseId)?.owner.token ?? null) : fields.token;
  if (token === null) return { fields, missing: true };
  const allocation = view.allocations[token];
  return {
    fields: {
      ...fields,
      token,
      nodeId: fields.nodeId ?? parseToken(token)?.nodeId ?? null,
      controller: allocation?.consumer.controller ?? null,
      model: allocation?.consumer.model ?? null,
    },
    missing: allocation === undefined,
  };
};
