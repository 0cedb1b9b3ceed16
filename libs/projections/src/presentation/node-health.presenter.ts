import { activeFaultsOf, type LedgerViewState, type NodeView } from '../ledger-view';
import { SEES_EVERY_ALLOCATION, tokenVisible, type AllocationVisibility } from './allocation-visibility';

/**
 * A node's health as the API shows it (seed 4): automatic faults and operator
 * maintenance side by side, never folded into one flag, plus cleanup a release left
 * pending. Their history is the node stream's events (PowerSyncFailed, NodeFaulted,
 * FaultCleared, MaintenanceStarted, ...). A token naming an allocation the reader may not
 * see (another controller's) is left out.
 */
export const presentNodeHealth = (view: LedgerViewState, node: NodeView, visible: AllocationVisibility = SEES_EVERY_ALLOCATION) => {
  const shown = (token: string | null): token is string => token !== null && tokenVisible(view, token, visible);
  const cleanup = node.health.pendingCleanup;
  return {
    faults: activeFaultsOf(node).map(({ fault, since, lastError, token }) => ({ name: fault, since, lastError, ...(shown(token) ? { token } : {}) })),
    maintenance: node.health.maintenance,
    pendingCleanup: cleanup === null || shown(cleanup.token) ? cleanup : { epoch: cleanup.epoch, steps: cleanup.steps, since: cleanup.since },
  };
};
