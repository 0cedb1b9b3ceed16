import type { OwnerKey } from '@ledger/domain';

/**
 * What the lease cascade remembers, folded from the ordered log alone (never from a
 * read model, so it cannot depend on another projection's timing): the owners that are
 * live, and the active leases they hold. Ended owners are forgotten, so the state stays
 * as small as what is live; a lease granted to an owner it does not know has ended.
 */
export interface CascadeState {
  /** Global position of the last event folded in. */
  position: number;
  owners: Record<OwnerKey, { leases: string[]; devices: OwnerKey[] }>;
  leases: Record<string, { ip: string; owner: OwnerKey }>;
}

export const initialCascadeState = (): CascadeState => ({ position: 0, owners: {}, leases: {} });

/** One release the cascade must make: `cause` is the id of the event that made it necessary. */
export interface CascadeRelease {
  ip: string;
  leaseId: string;
  cause: string;
}
