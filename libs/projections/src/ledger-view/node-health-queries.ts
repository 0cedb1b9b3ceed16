import { deployDeadline, FAULT_NAMES } from '@ledger/domain';
import type { FaultView } from './node-health-view';
import type { LedgerViewState, NodeView } from './views';

/**
 * Health conditions a node list can be filtered by (`?condition=`), whatever its status:
 * - healthy: no fault, no pending cleanup, not in maintenance;
 * - faulted: at least one automatic fault, or cleanup still pending;
 * - maintenance: an operator put it in maintenance.
 * A node both faulted and in maintenance matches both.
 */
export type NodeCondition = 'healthy' | 'faulted' | 'maintenance';
export const NODE_CONDITIONS: readonly NodeCondition[] = ['healthy', 'faulted', 'maintenance'];

export const activeFaultsOf = (node: NodeView): FaultView[] =>
  FAULT_NAMES.map((name) => node.health.faults[name]).filter((fault): fault is FaultView => fault !== undefined);

export const isFaultedNode = (node: NodeView): boolean => activeFaultsOf(node).length > 0 || node.health.pendingCleanup !== null;

export const hasCondition = (node: NodeView, condition: NodeCondition): boolean => {
  switch (condition) {
    case 'faulted':
      return isFaultedNode(node);
    case 'maintenance':
      return node.health.maintenance !== null;
    case 'healthy':
      return !isFaultedNode(node) && node.health.maintenance === null;
  }
};

/** Why a node nobody holds is not ready: maintenance (operator) first, then faults. */
export const healthStatusOf = (node: NodeView): 'maintenance' | 'faulted' | null =>
  node.health.maintenance ? 'maintenance' : isFaultedNode(node) ? 'faulted' : null;

/**
 * Nodes whose deployment looks overdue at `now`, by the read model: candidates only.
 * The node's own stream decides (CheckDeployTimeout), so a stale view costs one no-op.
 */
export const overdueDeployments = (view: LedgerViewState, now: Date, timeoutSeconds: number): string[] =>
  Object.values(view.nodes)
    .filter((node) => {
      const deployment = node.health.deployment;
      return deployment !== null && !node.health.faults.deploy_timeout && Date.parse(deployDeadline(deployment.startedAt, timeoutSeconds)) <= now.getTime();
    })
    .map((node) => node.nodeId)
    .sort();
