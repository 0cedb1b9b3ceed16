import type { AllocationView, LedgerViewState, NodeView, ReservationView } from './views';
import { healthStatusOf } from './node-health-queries';

/** A held node shows its allocation's status; a free one shows why it is not ready (maintenance, faulted) if it is not. */
export type NodeStatus = 'ready' | 'reserved' | 'allocated' | 'deploying' | 'deployed' | 'failed_deployment' | 'faulted' | 'maintenance';
export const NODE_STATUSES: readonly NodeStatus[] = ['ready', 'reserved', 'allocated', 'deploying', 'deployed', 'failed_deployment', 'faulted', 'maintenance'];

export interface NodeConstraints {
  arch?: string;
  minCpu?: number;
  minMemoryMb?: number;
  tags?: string[];
  /** None of these tags may be on the node. */
  notTags?: string[];
  zone?: string;
  /** The provider's resource pool: a node enlisted without one is in none. */
  pool?: string;
}

/** A reservation past its expiry no longer holds, whether or not its expiry was recorded yet. */
export const liveReservationOf = (node: NodeView, now: Date): ReservationView | null =>
  node.reservation && Date.parse(node.reservation.expiresAt) > now.getTime() ? node.reservation : null;

export const liveAllocationOf = (view: LedgerViewState, node: NodeView): AllocationView | null =>
  node.liveToken ? (view.allocations[node.liveToken] ?? null) : null;

export const nodeStatus = (view: LedgerViewState, node: NodeView, now: Date): NodeStatus => {
  const allocation = liveAllocationOf(view, node);
  if (allocation) return allocation.status as NodeStatus;
  const unhealthy = healthStatusOf(node);
  if (unhealthy) return unhealthy;
  return liveReservationOf(node, now) ? 'reserved' : 'ready';
};

export const matchesConstraints = (node: NodeView, constraints: NodeConstraints): boolean =>
  (constraints.arch === undefined || node.arch === constraints.arch) &&
  (constraints.minCpu === undefined || node.cpuCount >= constraints.minCpu) &&
  (constraints.minMemoryMb === undefined || node.memoryMb >= constraints.minMemoryMb) &&
  (constraints.zone === undefined || node.zone === constraints.zone) &&
  (constraints.pool === undefined || node.pool === constraints.pool) &&
  (constraints.tags ?? []).every((tag) => node.tags.includes(tag)) &&
  !(constraints.notTags ?? []).some((tag) => node.tags.includes(tag));

/** Nodes a constraint-based acquire may pick: ready (not reserved, not held, not faulted, not in maintenance) and matching. */
export const acquirableNodes = (view: LedgerViewState, constraints: NodeConstraints, now: Date): NodeView[] =>
  Object.values(view.nodes)
    .filter((node) => nodeStatus(view, node, now) === 'ready' && matchesConstraints(node, constraints))
    .sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));

export const listNodes = (view: LedgerViewState, status: NodeStatus | undefined, now: Date): NodeView[] =>
  Object.values(view.nodes)
    .filter((node) => status === undefined || nodeStatus(view, node, now) === status)
    .sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
