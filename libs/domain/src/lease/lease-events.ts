import type { DomainEvent } from '../core';
import type { LeaseId } from './lease-id';
import type { LeaseOwner } from './lease-owner';
import type { DhcpRecord } from './dhcp-record';

export type LeaseKind = 'dhcp' | 'static';

/**
 * Why a lease ended early: its holder released it (or, for a lease learned from a DHCP
 * server, the server recorded the client's release); the cascade released it because its
 * owner ended; a new grant closed it because its owner had ended (an orphan); or the DHCP
 * server that bound it bound the address to another MAC (`rebound`).
 */
export type LeaseReleaseReason = 'released' | 'owner_ended' | 'superseded_orphan' | 'rebound';

/** The binding states a DHCP server reports (ISC dhcpd's names; Kea's states map onto them). */
export const DHCP_BINDING_STATES = ['active', 'free', 'expired', 'released', 'abandoned', 'backup'] as const;
export type DhcpBindingState = (typeof DHCP_BINDING_STATES)[number];

export type LeaseGranted = DomainEvent<
  'LeaseGranted',
  {
    ip: string;
    leaseId: LeaseId;
    mac: string;
    owner: LeaseOwner;
    leaseKind: LeaseKind;
    expiresAt: string | null;
    /** Set when the lease was learned from this DHCP server's binding rather than granted by a client of the ledger. */
    dhcpSource?: string;
  }
>;
export type LeaseRenewed = DomainEvent<'LeaseRenewed', { ip: string; leaseId: LeaseId; expiresAt: string | null }>;
export type LeaseReleased = DomainEvent<'LeaseReleased', { ip: string; leaseId: LeaseId; reason: LeaseReleaseReason; cause?: string }>;
export type LeaseExpired = DomainEvent<'LeaseExpired', { ip: string; leaseId: LeaseId }>;

/** What a DHCP server said about this address, recorded only when it changed. */
export type DhcpLeaseObserved = DomainEvent<'DhcpLeaseObserved', DhcpRecord & { ip: string; observedAt: string }>;

/** How a ledger lease had ended when a DHCP server's binding of it was reclaimed. */
export type ReclaimReason = LeaseReleaseReason | 'expired';

/**
 * A DHCP server's binding of an ended lease, deleted at the server by the agent that
 * follows it (a reclaim), recorded by that agent: the server fires no hook for such a
 * deletion. It says why the binding was an orphan: how the ledger lease ended and, when
 * its owner ended, how the owner did (a released or torn-down machine, a removed device).
 * The server's own record of the deletion, read later from its lease file, says nothing new.
 */
export type DhcpLeaseReclaimed = DomainEvent<
  'DhcpLeaseReclaimed',
  {
    ip: string;
    leaseId: LeaseId;
    mac: string;
    source: string;
    reason: ReclaimReason;
    /** How the lease's owner ended (e.g. force_released, device removed) when that is what ended the lease; else null. */
    ownerEnding: string | null;
    reclaimedAt: string;
  }
>;

export type LeaseEvent = LeaseGranted | LeaseRenewed | LeaseReleased | LeaseExpired | DhcpLeaseObserved | DhcpLeaseReclaimed;
export type LeaseEventType = LeaseEvent['type'];
