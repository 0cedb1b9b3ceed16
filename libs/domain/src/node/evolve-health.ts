import type { NodeEvent } from './node-events';
import type { NodeState } from './node-state';
import type { NodeHealth } from './health-state';
import type { FaultName } from './health-events';

const withHealth = (state: NodeState, health: Partial<NodeHealth>): NodeState => ({ ...state, health: { ...state.health, ...health } });

const withoutFault = (faults: NodeHealth['faults'], fault: FaultName): NodeHealth['faults'] => {
  const { [fault]: _cleared, ...rest } = faults;
  return rest;
};

/** The deployment under way ends when it finishes or its allocation ends. */
const endDeployment = (state: NodeState, token: string): NodeState =>
  state.health.deployment?.token === token ? withHealth(state, { deployment: null }) : state;

/**
 * The health side of the node's fold: health events, and what allocation events mean
 * for health (a deployment starting or ending, a release leaving cleanup pending).
 * Runs after the allocation side has folded the same event.
 */
export const evolveHealth = (state: NodeState, event: NodeEvent): NodeState => {
  const health = state.health;
  switch (event.type) {
    case 'PowerSyncFailed': {
      const { error, observedAt, consecutive } = event.data;
      const power = { consecutiveFailures: consecutive, firstFailureAt: health.power.firstFailureAt ?? observedAt, lastObservedAt: observedAt };
      const faulted = health.faults.power_failure;
      return withHealth(state, { power, faults: faulted ? { ...health.faults, power_failure: { ...faulted, lastError: error } } : health.faults });
    }
    case 'PowerSyncRecovered':
      return withHealth(state, { power: { consecutiveFailures: 0, firstFailureAt: null, lastObservedAt: event.data.observedAt } });
    case 'NodeFaulted': {
      const { fault, since, error, token } = event.data;
      return withHealth(state, { faults: { ...health.faults, [fault]: { since, lastError: error, token } } });
    }
    case 'FaultCleared':
      return withHealth(state, { faults: withoutFault(health.faults, event.data.fault) });
    case 'MaintenanceStarted': {
      const { reason, by, at } = event.data;
      return withHealth(state, { maintenance: { reason, by, since: at } });
    }
    case 'MaintenanceEnded':
      return withHealth(state, { maintenance: null });
    case 'PendingCleanupDone':
      return health.pendingCleanup?.token === event.data.token ? withHealth(state, { pendingCleanup: null }) : state;
    case 'DeploymentStarted': {
      const { token, epoch, at } = event.data;
      return withHealth(state, { deployment: { token, epoch, startedAt: at } });
    }
    case 'NodeDeployed':
    case 'DeploymentFailed':
    case 'AllocationRevoked':
      return endDeployment(state, event.data.token);
    case 'AllocationReleased': {
      const { token, epoch, pendingCleanup, at } = event.data;
      const ended = endDeployment(state, token);
      return pendingCleanup.length > 0 ? withHealth(ended, { pendingCleanup: { token, epoch, steps: [...pendingCleanup], since: at } }) : ended;
    }
    default:
      return state;
  }
};
