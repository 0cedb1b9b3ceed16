import { activeFaultsOf, type NodeView } from '../ledger-view';

/**
 * A node's health as the API shows it (seed 4): automatic faults and operator
 * maintenance side by side, never folded into one flag, plus cleanup a release left
 * pending. Their history is the node stream's events (PowerSyncFailed, NodeFaulted,
 * FaultCleared, MaintenanceStarted, ...).
 */
export const presentNodeHealth = (node: NodeView) => ({
  faults: activeFaultsOf(node).map(({ fault, since, lastError, token }) => ({ name: fault, since, lastError, ...(token ? { token } : {}) })),
  maintenance: node.health.maintenance,
  pendingCleanup: node.health.pendingCleanup,
});
