import type { DomainEvent } from '../core';
import type { ProvisioningToken } from '../provisioning-token';

/**
 * Automatic faults: set by what the ledger observes, cleared by what it observes next.
 * They are never maintenance (seed 4): no fault needs an operator to go away.
 * - power_failure: N consecutive failed power syncs; the provider cannot reach the BMC.
 * - deploy_timeout: a deployment reported started has not finished in time.
 */
export const FAULT_NAMES = ['power_failure', 'deploy_timeout'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** Why a fault cleared itself. */
export type FaultClearedCause = 'power_sync_succeeded' | 'deployment_finished' | 'allocation_ended';

/** A failed power sync, with how many failed in a row up to and including this one. */
export type PowerSyncFailed = DomainEvent<'PowerSyncFailed', { nodeId: string; error: string; observedAt: string; consecutive: number }>;

/** The first successful power sync after failures; successes with no failure pending are not recorded. */
export type PowerSyncRecovered = DomainEvent<'PowerSyncRecovered', { nodeId: string; observedAt: string; failures: number }>;

export type NodeFaulted = DomainEvent<
  'NodeFaulted',
  {
    nodeId: string;
    fault: FaultName;
    /** When the condition began: the first failed sync, or the deployment's deadline. */
    since: string;
    error: string;
    /** The allocation a deploy_timeout is about; null for faults of the machine itself. */
    token: ProvisioningToken | null;
  }
>;

export type FaultCleared = DomainEvent<'FaultCleared', { nodeId: string; fault: FaultName; at: string; cause: FaultClearedCause }>;

/** Operator maintenance: only ever the result of an operator's command, with who and why. */
export type MaintenanceStarted = DomainEvent<'MaintenanceStarted', { nodeId: string; reason: string; by: string; at: string }>;
export type MaintenanceEnded = DomainEvent<'MaintenanceEnded', { nodeId: string; reason: string | null; by: string; at: string }>;

/** The provider-side work a release left pending (node faulted) can run again: it is done. */
export type PendingCleanupDone = DomainEvent<'PendingCleanupDone', { nodeId: string; token: ProvisioningToken; epoch: number; steps: string[]; at: string }>;

export type NodeHealthEvent = PowerSyncFailed | PowerSyncRecovered | NodeFaulted | FaultCleared | MaintenanceStarted | MaintenanceEnded | PendingCleanupDone;

export const NODE_HEALTH_EVENT_TYPES: ReadonlySet<string> = new Set<NodeHealthEvent['type']>([
  'PowerSyncFailed',
  'PowerSyncRecovered',
  'NodeFaulted',
  'FaultCleared',
  'MaintenanceStarted',
  'MaintenanceEnded',
  'PendingCleanupDone',
]);
