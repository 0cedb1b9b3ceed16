import { parseToken } from '@ledger/domain';
import { presentAllocation, presentIp, presentLease, presentNode, type AllocationView, type IpLeasesView, type LedgerViewState } from '@ledger/projections';
import type { HistoryKey } from './scoped-time-travel.service';

/**
 * What one scope's state document shows: the entities it owns, with statuses computed at
 * `now` and the position of the event that last changed each (a diff links to it).
 * Leases of other owners that share an address are left out: their owners were not folded.
 */
export const presentScopedState = (view: LedgerViewState, now: Date, key: HistoryKey) => {
  const addressLeases = 'ip' in key ? (view.leases[key.ip]?.leases ?? []) : [];
  const holders = new Set(addressLeases.map((lease) => lease.owner.token));
  const holderDevices = new Set(addressLeases.flatMap((lease) => (lease.owner.kind === 'device' ? [lease.owner.deviceId] : [])));
  const owns = (allocation: AllocationView) =>
    'nodeId' in key
      ? allocation.nodeId === key.nodeId
      : 'ip' in key
        ? holders.has(allocation.token)
        : allocation.consumer.controller === key.controller && allocation.consumer.model === key.model;
  const allocations = Object.values(view.allocations)
    .filter(owns)
    .sort((a, b) => a.acquiredAt.localeCompare(b.acquiredAt) || a.epoch - b.epoch);
  const tokens = new Set(allocations.map((allocation) => allocation.token));
  const nodeIds = 'nodeId' in key ? new Set([key.nodeId]) : new Set(allocations.map((allocation) => allocation.nodeId));
  const ownLease = (token: string) => tokens.has(token) || holders.has(token) || ('nodeId' in key && parseToken(token)?.nodeId === key.nodeId);
  const addresses = Object.values(view.leases).sort((a, b) => a.ip.localeCompare(b.ip));
  return {
    nodes: Object.values(view.nodes)
      .filter((node) => nodeIds.has(node.nodeId))
      .map((node) => ({ ...presentNode(view, node, now), lastPosition: node.lastPosition })),
    allocations: allocations.map((allocation) => ({ ...presentAllocation(view, allocation), lastPosition: allocation.lastPosition })),
    devices: Object.values(view.devices)
      .filter((device) => ('ip' in key ? holderDevices.has(device.deviceId) : tokens.has(device.token)))
      .sort((a, b) => a.deviceId.localeCompare(b.deviceId)),
    leases: addresses.flatMap((ips: IpLeasesView) =>
      ips.leases.filter((lease) => ownLease(lease.owner.token)).map((lease) => ({ ...presentLease(view, ips, lease, now), lastPosition: lease.lastPosition })),
    ),
    address: 'ip' in key && view.leases[key.ip] ? presentIp(view, view.leases[key.ip], now) : undefined,
  };
};
