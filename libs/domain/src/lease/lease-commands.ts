import type { LeaseKind } from './lease-events';
import type { DhcpRecord } from './dhcp-record';
import type { LeaseId } from './lease-id';
import type { LeaseOwner, OwnerLivenessReport } from './lease-owner';

/**
 * Commands on one address's `ip-{ip}` stream. IPs and MACs arrive normalised.
 * `liveness` must cover the new owner and the owner of the address's active lease, as
 * read from their node streams; a decision that needs an owner it does not cover is
 * refused with `details.missingLiveness`, and the application asks again.
 */
export type GrantLease = {
  type: 'GrantLease';
  ip: string;
  mac: string;
  owner: LeaseOwner;
  leaseKind: LeaseKind;
  expiresAt: string | null;
  liveness: OwnerLivenessReport;
  now: string;
};

export type RenewLease = {
  type: 'RenewLease';
  ip: string;
  /** When given, only this lease is renewed. */
  leaseId: LeaseId | null;
  expiresAt: string | null;
  liveness: OwnerLivenessReport;
  now: string;
};

export type ReleaseLease = {
  type: 'ReleaseLease';
  ip: string;
  /** When given, only this lease is released: never one a newer owner holds. */
  leaseId: LeaseId | null;
  reason: 'released' | 'owner_ended';
  /** For the cascade: the id of the event that ended the owner. */
  cause: string | null;
  now: string;
};

export type ExpireLease = { type: 'ExpireLease'; ip: string; leaseId: LeaseId; now: string };

/**
 * A DHCP server's record of one address. `candidate` is the device registered with the
 * record's MAC, if exactly one live device is (found by the application; its liveness,
 * read from its node stream, travels in `liveness` with that of the address's active lease).
 */
export type ObserveDhcpLease = DhcpRecord & {
  type: 'ObserveDhcpLease';
  ip: string;
  candidate: LeaseOwner | null;
  liveness: OwnerLivenessReport;
  now: string;
};

/**
 * The agent following `source` deleted, at its DHCP server, the binding of the ended lease
 * `leaseId` for `mac`. `liveness` must cover that lease's owner when its owner ended it.
 */
export type RecordDhcpReclaim = {
  type: 'RecordDhcpReclaim';
  ip: string;
  leaseId: LeaseId;
  mac: string;
  source: string;
  liveness: OwnerLivenessReport;
  now: string;
};

export type LeaseCommand = GrantLease | RenewLease | ReleaseLease | ExpireLease | ObserveDhcpLease | RecordDhcpReclaim;
