import type { AllocationView, LedgerViewState } from './views';

/** An allocation is current while it is live and still the node's live allocation. */
export const isCurrent = (view: LedgerViewState, allocation: AllocationView): boolean =>
  allocation.live && view.nodes[allocation.nodeId]?.liveToken === allocation.token;

/** By node id: the order a view's collections come in depends on how it was loaded (a checkpoint stores them by key). */
export const liveAllocationsOfModel = (view: LedgerViewState, controller: string, model: string): AllocationView[] =>
  Object.values(view.nodes)
    .map((node) => (node.liveToken ? view.allocations[node.liveToken] : undefined))
    .filter((a): a is AllocationView => !!a && a.consumer.controller === controller && a.consumer.model === model)
    .sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
