import type { ProvisioningToken } from '../provisioning-token';
import type { FaultName } from './health-events';

export interface ActiveFault {
  since: string;
  lastError: string;
  token: ProvisioningToken | null;
}

export interface Maintenance {
  reason: string;
  by: string;
  since: string;
}

/** Provider-side work a release could not have done while the node was faulted. */
export interface PendingCleanup {
  token: ProvisioningToken;
  epoch: number;
  steps: string[];
  since: string;
}

/**
 * A node's health, kept apart from its allocations: faults (automatic, several at
 * once, keyed by name), operator maintenance, and cleanup left pending by a release.
 */
export interface NodeHealth {
  power: {
    /** Failed syncs since the last success (0: healthy). */
    consecutiveFailures: number;
    /** The first failure of the current run: the power_failure fault's `since`. */
    firstFailureAt: string | null;
    /** The latest recorded observation; anything not newer is late or repeated. */
    lastObservedAt: string | null;
  };
  faults: Partial<Record<FaultName, ActiveFault>>;
  maintenance: Maintenance | null;
  pendingCleanup: PendingCleanup | null;
  /** The live allocation's deployment while it is under way, for deploy_timeout. */
  deployment: { token: ProvisioningToken; epoch: number; startedAt: string } | null;
}

export const initialNodeHealth = (): NodeHealth => ({
  power: { consecutiveFailures: 0, firstFailureAt: null, lastObservedAt: null },
  faults: {},
  maintenance: null,
  pendingCleanup: null,
  deployment: null,
});

/**
 * What the provider does when a machine is released: power it off and erase its disks
 * (MAAS release with erase, Ironic cleaning). While the node is faulted it cannot.
 */
export const RELEASE_CLEANUP_STEPS: readonly string[] = ['power_off', 'wipe_disks'];

/**
 * Faults that stop the provider from working on the machine. A deploy_timeout does not:
 * the BMC answers, and ending the allocation ends the stuck deployment (and the fault).
 */
export const BLOCKS_PROVIDER_WORK: Readonly<Record<FaultName, boolean>> = {
  power_failure: true,
  deploy_timeout: false,
};

export const activeFaults = (health: NodeHealth): FaultName[] => (Object.keys(health.faults) as FaultName[]).sort();

export const isFaulted = (health: NodeHealth): boolean => activeFaults(health).length > 0;

export const blocksProviderWork = (health: NodeHealth): boolean => activeFaults(health).some((fault) => BLOCKS_PROVIDER_WORK[fault]);
