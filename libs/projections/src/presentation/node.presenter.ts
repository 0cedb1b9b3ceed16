import { liveAllocationOf, liveReservationOf, nodeStatus, type LedgerViewState, type NodeView } from '../ledger-view';
import { presentNodeHealth } from './node-health.presenter';
import { SEES_EVERY_ALLOCATION, type AllocationVisibility } from './allocation-visibility';

/** The node view as the API shows it; a live allocation the reader may not see is shown as taken, and nothing more. */
export const presentNode = (view: LedgerViewState, node: NodeView, now: Date, visible: AllocationVisibility = SEES_EVERY_ALLOCATION) => {
  const allocation = liveAllocationOf(view, node);
  return {
    nodeId: node.nodeId,
    hostname: node.hostname,
    arch: node.arch,
    cpuCount: node.cpuCount,
    memoryMb: node.memoryMb,
    tags: node.tags,
    zone: node.zone,
    pool: node.pool ?? null,
    status: nodeStatus(view, node, now),
    epoch: node.epoch,
    allocation: !allocation
      ? null
      : visible(allocation.consumer)
        ? { token: allocation.token, epoch: allocation.epoch, consumer: allocation.consumer, status: allocation.status, acquiredAt: allocation.acquiredAt }
        : { foreign: true as const, status: allocation.status },
    reservation: liveReservationOf(node, now),
    ...presentNodeHealth(view, node, visible),
    enlistedAt: node.enlistedAt,
  };
};
