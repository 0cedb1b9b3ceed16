import { recordedBindingHolds, type LeaseOwner } from '@ledger/domain';
import { isCurrent } from './allocation-queries';
import type { DhcpObservationView, IpLeasesView, LeaseView } from './lease-views';
import type { AllocationView, LedgerViewState } from './views';

export type LeaseStatus = 'valid' | 'orphaned' | 'released' | 'expired';
export const LEASE_STATUSES: readonly LeaseStatus[] = ['valid', 'orphaned', 'released', 'expired'];

/** The allocation an owner belongs to (a device's parent), if the ledger knows it. */
export const allocationOfOwner = (view: LedgerViewState, owner: LeaseOwner): AllocationView | undefined => view.allocations[owner.token];

/** An owner is live while its allocation is the node's live one and, for a device, the device is not removed. */
export const isOwnerLive = (view: LedgerViewState, owner: LeaseOwner): boolean => {
  const allocation = allocationOfOwner(view, owner);
  if (!allocation || !isCurrent(view, allocation)) return false;
  return owner.kind === 'allocation' || view.devices[owner.deviceId]?.removed === null;
};

/** What some DHCP server still holds for this address, if any. */
export const dhcpHolding = (ips: IpLeasesView, now: Date): DhcpObservationView | null =>
  Object.values(ips.dhcp).find((seen) => recordedBindingHolds(seen, now.toISOString())) ?? null;

const isPast = (at: string | null, now: Date) => at !== null && Date.parse(at) <= now.getTime();

/**
 * A lease's status, derived at the time of asking, never stored:
 * - valid: active, not past its expiry, owner live;
 * - orphaned: active with an ended owner (the cascade has not caught up), or released
 *   in the ledger while a DHCP server still holds the address (a leak to clean up);
 * - released; expired (recorded, or past its expiry time).
 */
export const leaseStatus = (view: LedgerViewState, ips: IpLeasesView, lease: LeaseView, now: Date): LeaseStatus => {
  if (lease.ended?.how === 'expired') return 'expired';
  if (lease.ended) {
    const latest = ips.leases[ips.leases.length - 1] === lease;
    return latest && ips.activeLeaseId === null && dhcpHolding(ips, now) ? 'orphaned' : 'released';
  }
  if (isPast(lease.expiresAt, now)) return 'expired';
  return isOwnerLive(view, lease.owner) ? 'valid' : 'orphaned';
};

export type IpStatus = LeaseStatus | 'free';

/** The address's status: its latest lease's, or for an address the ledger never leased, what DHCP says. */
export const ipStatus = (view: LedgerViewState, ips: IpLeasesView, now: Date): IpStatus => {
  const latest = ips.leases[ips.leases.length - 1];
  if (latest) return leaseStatus(view, ips, latest, now);
  return dhcpHolding(ips, now) ? 'orphaned' : 'free';
};

export interface LeaseFilter {
  status?: LeaseStatus;
  ip?: string;
  token?: string;
  nodeId?: string;
  deviceId?: string;
  controller?: string;
  model?: string;
  /** Canonical MAC (as leases store it): find an address by the hardware that held it. */
  mac?: string;
}

export interface LeaseWithStatus {
  lease: LeaseView;
  ips: IpLeasesView;
  status: LeaseStatus;
}

const ownedAsFiltered = (view: LedgerViewState, lease: LeaseView, filter: LeaseFilter): boolean => {
  const { owner } = lease;
  if (filter.mac !== undefined && lease.mac !== filter.mac) return false;
  if (filter.token !== undefined && owner.token !== filter.token) return false;
  if (filter.nodeId !== undefined && owner.nodeId !== filter.nodeId) return false;
  if (filter.deviceId !== undefined && (owner.kind !== 'device' || owner.deviceId !== filter.deviceId)) return false;
  if (filter.controller === undefined && filter.model === undefined) return true;
  const consumer = allocationOfOwner(view, owner)?.consumer;
  return (
    !!consumer &&
    (filter.controller === undefined || consumer.controller === filter.controller) &&
    (filter.model === undefined || consumer.model === filter.model)
  );
};

/** Every lease (history included) matching the filter, by address then age. */
export const listLeases = (view: LedgerViewState, filter: LeaseFilter, now: Date): LeaseWithStatus[] => {
  const addresses = filter.ip !== undefined ? [view.leases[filter.ip]].filter(Boolean) : Object.values(view.leases);
  const found: LeaseWithStatus[] = [];
  for (const ips of addresses) {
    for (const lease of ips.leases) {
      if (!ownedAsFiltered(view, lease, filter)) continue;
      const status = leaseStatus(view, ips, lease, now);
      if (filter.status === undefined || filter.status === status) found.push({ lease, ips, status });
    }
  }
  return found.sort((a, b) => (a.lease.ip < b.lease.ip ? -1 : a.lease.ip > b.lease.ip ? 1 : a.lease.lastPosition - b.lease.lastPosition));
};

/** Addresses a DHCP server holds that the ledger never leased at all: leaks with no owner to name. */
export const unleasedDhcpHoldings = (view: LedgerViewState, now: Date): { ips: IpLeasesView; seen: DhcpObservationView }[] =>
  Object.values(view.leases)
    .filter((ips) => ips.leases.length === 0)
    .map((ips) => ({ ips, seen: dhcpHolding(ips, now) }))
    .filter((entry): entry is { ips: IpLeasesView; seen: DhcpObservationView } => entry.seen !== null)
    .sort((a, b) => (a.ips.ip < b.ips.ip ? -1 : 1));
