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

export type LeaseEvent = LeaseGranted | LeaseRenewed | LeaseReleased | LeaseExpired | DhcpLeaseObserved;
export type LeaseEventType = LeaseEvent['type'];
