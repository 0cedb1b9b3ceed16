import type { RecordedEvent } from '@ledger/event-store';
import type { FaultName, NodeEvent } from '@ledger/domain';
import type { CollectionChanges } from '../runtime/collection-changes';
import type { LedgerViewState } from './views';
import { stamp } from './view-changes';

export interface FaultView {
  fault: FaultName;
  since: string;
  lastError: string;
  /** The allocation a deploy_timeout is about; null for faults of the machine itself. */
  token: string | null;
}

export interface MaintenanceView {
  reason: string;
  by: string;
  since: string;
}

export interface PendingCleanupView {
  token: string;
  epoch: number;
  steps: string[];
  since: string;
}

/** A node's health as the read side shows it: faults and maintenance kept apart (seed 4). */
export interface NodeHealthView {
  faults: Partial<Record<FaultName, FaultView>>;
  maintenance: MaintenanceView | null;
  pendingCleanup: PendingCleanupView | null;
  consecutivePowerFailures: number;
  /** The deployment under way, for the deploy-timeout timer to find candidates. */
  deployment: { token: string; startedAt: string } | null;
}

export const emptyNodeHealthView = (): NodeHealthView => ({
  faults: {},
  maintenance: null,
  pendingCleanup: null,
  consecutivePowerFailures: 0,
  deployment: null,
});

/**
 * The health side of folding a node event, after applyNodeEvent has done the
 * allocation side. Mirrors the domain's evolveHealth over the same events.
 */
export const applyNodeHealthEvent = (view: LedgerViewState, recorded: RecordedEvent, event: NodeEvent, changes: CollectionChanges): void => {
  const node = view.nodes[event.data.nodeId];
  if (!node) return;
  const health = node.health;
  const touch = (): void => stamp(changes, 'nodes', node, recorded.position);
  const endDeployment = (token: string) => {
    if (health.deployment?.token === token) health.deployment = null;
  };
  switch (event.type) {
    case 'PowerSyncFailed': {
      health.consecutivePowerFailures = event.data.consecutive;
      const fault = health.faults.power_failure;
      if (fault) fault.lastError = event.data.error;
      return touch();
    }
    case 'PowerSyncRecovered':
      health.consecutivePowerFailures = 0;
      return touch();
    case 'NodeFaulted': {
      const { fault, since, error, token } = event.data;
      health.faults[fault] = { fault, since, lastError: error, token };
      return touch();
    }
    case 'FaultCleared':
      delete health.faults[event.data.fault];
      return touch();
    case 'MaintenanceStarted': {
      const { reason, by, at } = event.data;
      health.maintenance = { reason, by, since: at };
      return touch();
    }
    case 'MaintenanceEnded':
      health.maintenance = null;
      return touch();
    case 'PendingCleanupDone':
      if (health.pendingCleanup?.token === event.data.token) health.pendingCleanup = null;
      return touch();
    case 'DeploymentStarted':
      health.deployment = { token: event.data.token, startedAt: event.data.at };
      return;
    case 'NodeDeployed':
    case 'DeploymentFailed':
    case 'AllocationRevoked':
      return endDeployment(event.data.token);
    case 'AllocationReleased': {
      const { token, epoch, pendingCleanup, at } = event.data;
      endDeployment(token);
      if (pendingCleanup.length > 0) health.pendingCleanup = { token, epoch, steps: [...pendingCleanup], since: at };
      return;
    }
    default:
      return;
  }
};
