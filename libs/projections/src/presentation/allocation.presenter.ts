import { isCurrent, type AllocationView, type LedgerViewState } from '../ledger-view';

export const presentAllocation = (view: LedgerViewState, allocation: AllocationView) => ({
  token: allocation.token,
  nodeId: allocation.nodeId,
  epoch: allocation.epoch,
  consumer: allocation.consumer,
  status: allocation.status,
  live: allocation.live,
  current: isCurrent(view, allocation),
  acquiredAt: allocation.acquiredAt,
  reservationId: allocation.reservationId,
  deploymentFailures: allocation.deploymentFailures,
  ending: allocation.ending,
});
