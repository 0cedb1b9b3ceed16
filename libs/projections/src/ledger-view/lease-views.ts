import type { DhcpRecord, LeaseKind, LeaseOwner, LeaseReleaseReason } from '@ledger/domain';

/**
 * A lease as folded from its address's stream. Its status (valid, orphaned, released,
 * expired) is never stored: lease-queries derive it from this, the owner's allocation
 * or device, the DHCP observations and the time of asking.
 */
export interface LeaseView {
  leaseId: string;
  ip: string;
  mac: string;
  owner: LeaseOwner;
  kind: LeaseKind;
  expiresAt: string | null;
  /** The DHCP server whose binding this lease was learned from; null for a lease granted through the API. Absent in views folded before it existed. */
  dhcpSource?: string | null;
  grantedAt: string;
  renewedAt: string | null;
  ended: {
    how: 'released' | 'expired';
    reason: LeaseReleaseReason | null;
    /** For cascade releases: the event that ended the owner; for superseded orphans: the new lease. */
    cause: string | null;
    at: string;
    position: number;
  } | null;
  lastPosition: number;
}

export type DhcpObservationView = DhcpRecord & { observedAt: string; position: number };

/** Everything about one address: its leases, oldest first, and what DHCP servers last said. */
export interface IpLeasesView {
  ip: string;
  leases: LeaseView[];
  activeLeaseId: string | null;
  dhcp: Record<string, DhcpObservationView>;
  lastPosition: number;
}
