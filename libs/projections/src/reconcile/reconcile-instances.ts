import { isCurrent } from '../ledger-view/allocation-queries';
import type { AllocationView, LedgerViewState } from '../ledger-view/views';
import { SEES_EVERY_ALLOCATION, type AllocationVisibility } from '../presentation/allocation-visibility';

export type Verdict = 'valid' | 'stale' | 'duplicate' | 'foreign' | 'unknown';

export interface InventoryInstance {
  machine: string;
  token?: string;
  /** Legacy records that only kept the provider's node id. */
  nodeId?: string;
}

export interface InstanceVerdict {
  machine: string;
  token: string | null;
  nodeId: string | null;
  verdict: Verdict;
  /** What the consumer should do, safely. */
  action: string;
  reason: string;
}

const ACTIONS: Record<Verdict, string> = {
  valid: 'keep',
  stale: 'forget this machine (remove it keeping the instance); do not release, stop or touch the node',
  duplicate: 'remove this machine keeping the instance; the node belongs to another machine of this model',
  foreign: 'do not touch: this allocation belongs to another controller or model; remove the record keeping the instance',
  unknown: 'investigate: the ledger has no such allocation or node; do not touch any node on its account',
};

type Resolved = { item: InventoryInstance; verdict: Verdict; reason: string; allocation: AllocationView | null };

const resolve = (view: LedgerViewState, consumer: { controller: string; model: string }, item: InventoryInstance, visible: AllocationVisibility): Resolved => {
  const ours = (a: AllocationView) => a.consumer.controller === consumer.controller && a.consumer.model === consumer.model;
  if (item.token !== undefined) {
    const allocation = view.allocations[item.token];
    if (!allocation) return { item, verdict: 'unknown', reason: 'the ledger never issued this token', allocation: null };
    if (!ours(allocation)) {
      // Whose it is, only to a reader who may see it: a consumer key learns no other tenant's model names.
      const whose = visible(allocation.consumer) ? `${allocation.consumer.controller}/${allocation.consumer.model}` : 'another controller or model';
      return { item, verdict: 'foreign', reason: `token belongs to ${whose}`, allocation };
    }
    if (!isCurrent(view, allocation)) {
      return {
        item,
        verdict: 'stale',
        reason: `the allocation ended (${allocation.ending?.kind ?? 'superseded'}); node ${allocation.nodeId} is at epoch ${view.nodes[allocation.nodeId]?.epoch}`,
        allocation,
      };
    }
    return { item, verdict: 'valid', reason: "the token is the node's live allocation", allocation };
  }
  const node = item.nodeId !== undefined ? view.nodes[item.nodeId] : undefined;
  if (!node) return { item, verdict: 'unknown', reason: 'no such node', allocation: null };
  const live = node.liveToken ? view.allocations[node.liveToken] : undefined;
  if (!live) return { item, verdict: 'stale', reason: 'the node is not allocated to anyone', allocation: null };
  if (!ours(live)) return { item, verdict: 'stale', reason: 'the node is now allocated to another consumer', allocation: null };
  return { item, verdict: 'valid', reason: "the node's live allocation belongs to this model", allocation: live };
};

/**
 * A consumer's inventory, judged against the ledger (seed 1): which machine records
 * are valid, which are stale (forget them, never touch the node), which point at a
 * node another record already holds (duplicates), which belong to someone else (named
 * only to a reader who may see that allocation).
 */
export const reconcileInstances = (
  view: LedgerViewState,
  consumer: { controller: string; model: string },
  items: InventoryInstance[],
  visible: AllocationVisibility = SEES_EVERY_ALLOCATION,
): InstanceVerdict[] => {
  const resolved = items.map((item) => resolve(view, consumer, item, visible));
  const claimants = new Map<string, Resolved[]>();
  for (const r of resolved) {
    if (r.verdict === 'valid' && r.allocation) claimants.set(r.allocation.token, [...(claimants.get(r.allocation.token) ?? []), r]);
  }
  for (const [, group] of claimants) {
    if (group.length < 2) continue;
    const machine = group[0].allocation!.consumer.machine;
    const holder = group.find((r) => machine !== undefined && r.item.machine === machine) ?? group.find((r) => r.item.token !== undefined) ?? group[0];
    for (const r of group) {
      if (r === holder) continue;
      r.verdict = 'duplicate';
      r.reason = `machine ${holder.item.machine} holds this allocation`;
    }
  }
  return resolved.map((r) => ({
    machine: r.item.machine,
    token: r.item.token ?? r.allocation?.token ?? null,
    nodeId: r.item.nodeId ?? r.allocation?.nodeId ?? null,
    verdict: r.verdict,
    action: ACTIONS[r.verdict],
    reason: r.reason,
  }));
};
