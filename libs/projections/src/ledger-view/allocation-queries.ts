import type { AllocationView, LedgerViewState } from './views';

/** An allocation is current while it is live and still the node's live allocation. */
export const isCurrent = (view: LedgerViewState, allocation: AllocationView): boolean =>
  allocation.live && view.nodes[allocation.nodeId]?.liveToken === allocation.token;

export const liveAllocationsOfModel = (view: LedgerViewState, controller: string, model: string): AllocationView[] =>
  Object.values(view.nodes)
    .map((node) => (node.liveToken ? view.allocations[node.liveToken] : undefined))
    .filter((a): a is AllocationView => !!a && a.consumer.controller === controller && a.consumer.model === model);
