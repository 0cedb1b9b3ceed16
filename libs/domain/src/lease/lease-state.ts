import type { LeaseKind, LeaseReleaseReason } from './lease-events';
import type { DhcpRecord } from './dhcp-record';
import type { LeaseId } from './lease-id';
import type { LeaseOwner } from './lease-owner';

export interface ActiveLease {
  leaseId: LeaseId;
  mac: string;
  owner: LeaseOwner;
  leaseKind: LeaseKind;
  expiresAt: string | null;
  /** The DHCP server whose binding this lease was learned from; null for a grant. */
  dhcpSource: string | null;
}

export interface EndedLease {
  leaseId: LeaseId;
  mac: string;
  owner: LeaseOwner;
  how: 'released' | 'expired';
  /** Why it was released; null when it expired. */
  reason: LeaseReleaseReason | null;
}

export type DhcpObservation = DhcpRecord;

/** One address: at most one active lease, ever. */
export interface LeaseState {
  ip: string | null;
  /** Leases ever granted on this address; the next one is number granted + 1. */
  granted: number;
  active: ActiveLease | null;
  lastEnded: EndedLease | null;
  /** The last thing each DHCP server said about this address. */
  observations: Record<string, DhcpObservation>;
  /** Per DHCP server: the ended lease whose binding its agent reclaimed last, until the server binds the address again. */
  reclaimed: Record<string, { leaseId: LeaseId; mac: string }>;
}

export interface LeaseReply {
  ip: string;
  leaseId: LeaseId | null;
  status: string;
  expiresAt?: string | null;
  /** A lease closed by this grant because its owner had ended. */
  superseded?: LeaseId;
}

export const initialLeaseState = (): LeaseState => ({ ip: null, granted: 0, active: null, lastEnded: null, observations: {}, reclaimed: {} });

/** Past its expiry time, a lease no longer holds, whether or not its expiry was recorded yet. */
export const isPastExpiry = (lease: { expiresAt: string | null }, now: string): boolean =>
  lease.expiresAt !== null && Date.parse(lease.expiresAt) <= Date.parse(now);
