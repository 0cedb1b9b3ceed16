import { holderOf } from '@ledger/domain';
import { allocationOfOwner, dhcpHolding, leaseStatus } from '../ledger-view/lease-queries';
import type { LedgerViewState } from '../ledger-view/views';
import { SEES_EVERY_ALLOCATION, type AllocationVisibility } from '../presentation/allocation-visibility';

export type IpVerdict = 'valid' | 'orphaned' | 'foreign' | 'unknown';

export interface IpVerdictReport {
  ip: string;
  verdict: IpVerdict;
  /** What the consumer should do, safely. */
  action: string;
  reason: string;
  leaseId: string | null;
  token?: string;
  deviceId?: string;
}

const ACTIONS: Record<IpVerdict, string> = {
  valid: 'keep',
  orphaned: 'stop using this address and release it at the DHCP server; the ledger no longer leases it to a live owner of yours',
  foreign: 'do not touch: this address is leased to another controller or model; remove it from your inventory',
  unknown: "investigate: the ledger never leased this address; do not release it on anyone's behalf",
};

const report = (ip: string, verdict: IpVerdict, reason: string, extra: Partial<IpVerdictReport> = {}): IpVerdictReport => ({
  ip,
  verdict,
  action: ACTIONS[verdict],
  reason,
  leaseId: null,
  ...extra,
});

/**
 * The addresses a consumer believes it uses, judged against the ledger (seed 2): valid
 * only if its live allocation or device holds the address's valid lease. Addresses are
 * canonical (the caller normalises them). Another owner is named only to a reader who may
 * see its allocation.
 */
export const reconcileIps = (
  view: LedgerViewState,
  consumer: { controller: string; model: string },
  ips: string[],
  now: Date,
  visible: AllocationVisibility = SEES_EVERY_ALLOCATION,
): IpVerdictReport[] =>
  ips.map((ip) => {
    const entry = view.leases[ip];
    const lease = entry?.leases[entry.leases.length - 1];
    if (!entry || !lease) {
      const held = entry ? dhcpHolding(entry, now) : null;
      return report(
        ip,
        'unknown',
        held ? `the ledger never leased this address; DHCP server ${held.source} holds it for ${held.mac}` : 'the ledger never leased this address',
      );
    }
    const owner = allocationOfOwner(view, lease.owner)?.consumer;
    const found = { leaseId: lease.leaseId, ...holderOf(lease.owner) };
    if (!owner || owner.controller !== consumer.controller || owner.model !== consumer.model) {
      const whose = !owner ? 'an unknown owner' : visible(owner) ? `${owner.controller}/${owner.model}` : 'another controller or model';
      return report(ip, 'foreign', `lease ${lease.leaseId} belongs to ${whose}`, {
        leaseId: lease.leaseId,
      });
    }
    const status = leaseStatus(view, entry, lease, now);
    if (status === 'valid') return report(ip, 'valid', `lease ${lease.leaseId} of a live ${lease.owner.kind}`, found);
    const why = status === 'orphaned' && lease.ended === null ? 'its owner has ended' : `the lease is ${lease.ended?.how ?? status}`;
    return report(ip, 'orphaned', `lease ${lease.leaseId}: ${why}`, found);
  });
