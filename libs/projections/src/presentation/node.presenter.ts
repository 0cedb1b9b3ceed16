import { liveAllocationOf, liveReservationOf, nodeStatus, type LedgerViewState, type NodeView } from '../ledger-view';
import { presentNodeHealth } from './node-health.presenter';

/** The node view as the API shows it. */
export const presentNode = (view: LedgerViewState, node: NodeView, now: Date) => {
  const allocation = liveAllocationOf(view, node);
  return {
    nodeId: node.nodeId,
    hostname: node.hostname,
    arch: node.arch,
    cpuCount: node.cpuCount,
    memoryMb: node.memoryMb,
    tags: node.tags,
    zone: node.zone,
    status: nodeStatus(view, node, now),
    epoch: node.epoch,
    allocation: allocation
      ? { token: allocation.token, epoch: allocation.epoch, consumer: allocation.consumer, status: allocation.status, acquiredAt: allocation.acquiredAt }
      : null,
    reservation: liveReservationOf(node, now),
    ...presentNodeHealth(node),
    enlistedAt: node.enlistedAt,
  };
};
