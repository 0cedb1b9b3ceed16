import { mintToken, type ProvisioningToken } from '../provisioning-token';
import type {
  AcquireNode,
  CheckDeployTimeout,
  EndMaintenance,
  FaultClearedCause,
  FaultName,
  NodeCommand,
  NodeEvent,
  ObservePowerSync,
  ReleaseAllocation,
  StartMaintenance,
} from '../node';

/**
 * Props for the node-health specs (seed 4): one deployed machine whose BMC goes away
 * and comes back, an operator, and builders that default everything a spec does not name.
 */

export const HEALTH_NODE = 'node-7';
export const OPERATOR = 'operator:charlie';
export const FAILURES_FOR_FAULT = 3;
export const DEPLOY_TIMEOUT_SECONDS = 1800;

/** Seconds after an arbitrary midnight, as the ISO instant commands and events carry. */
export const t = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + second * 1000).toISOString();

export const tokenOf = (epoch = 1): ProvisioningToken => mintToken(HEALTH_NODE, epoch, `entropy-of-epoch-${epoch}`.padEnd(16, '0'));

// ---------------------------------------------------------------- a node and its allocation

export const enlisted = (): NodeEvent => ({
  type: 'NodeEnlisted',
  data: { nodeId: HEALTH_NODE, hostname: 'node-7.maas', arch: 'amd64', cpuCount: 8, memoryMb: 16384, tags: [], zone: 'default' },
});

export const acquired = (epoch = 1, at = t(0)): NodeEvent => ({
  type: 'NodeAcquired',
  data: {
    nodeId: HEALTH_NODE,
    token: tokenOf(epoch),
    epoch,
    consumer: { controller: 'fair-clouds', model: 'mobile-app', machine: '87' },
    acquiredAt: at,
    reservationId: null,
    request: { requestId: `acquire-${epoch}`, fingerprint: `digest-${epoch}` },
  },
});

const tokenEvent = (epoch: number, at: string) => ({ nodeId: HEALTH_NODE, token: tokenOf(epoch), epoch, at });
export const deploymentStarted = (at = t(1), epoch = 1): NodeEvent => ({ type: 'DeploymentStarted', data: tokenEvent(epoch, at) });
export const deployed = (at = t(2), epoch = 1): NodeEvent => ({ type: 'NodeDeployed', data: tokenEvent(epoch, at) });

/** A node that a consumer holds, deployed and running. */
export const deployedNode = (): NodeEvent[] => [enlisted(), acquired(), deploymentStarted(), deployed()];

export const released = (
  at: string,
  pendingCleanup: string[] = [],
  epoch = 1,
  request: { requestId: string; fingerprint: string } | null = null,
): NodeEvent => ({
  type: 'AllocationReleased',
  data: { nodeId: HEALTH_NODE, token: tokenOf(epoch), epoch, ending: 'released', at, request, pendingCleanup },
});

// ---------------------------------------------------------------- health events

export const powerSyncFailed = (observedAt: string, consecutive: number, error = 'IPMI timeout'): NodeEvent => ({
  type: 'PowerSyncFailed',
  data: { nodeId: HEALTH_NODE, error, observedAt, consecutive },
});

export const powerSyncRecovered = (observedAt: string, failures: number): NodeEvent => ({
  type: 'PowerSyncRecovered',
  data: { nodeId: HEALTH_NODE, observedAt, failures },
});

export const nodeFaulted = (fault: FaultName, since: string, error: string, token: ProvisioningToken | null = null): NodeEvent => ({
  type: 'NodeFaulted',
  data: { nodeId: HEALTH_NODE, fault, since, error, token },
});

export const faultCleared = (fault: FaultName, at: string, cause: FaultClearedCause): NodeEvent => ({
  type: 'FaultCleared',
  data: { nodeId: HEALTH_NODE, fault, at, cause },
});

export const pendingCleanupDone = (at: string, epoch = 1): NodeEvent => ({
  type: 'PendingCleanupDone',
  data: { nodeId: HEALTH_NODE, token: tokenOf(epoch), epoch, steps: ['power_off', 'wipe_disks'], at },
});

export const maintenanceStarted = (at: string, reason = 'replacing a DIMM', by = OPERATOR): NodeEvent => ({
  type: 'MaintenanceStarted',
  data: { nodeId: HEALTH_NODE, reason, by, at },
});

/** Three failed syncs at t(10), t(20), t(30): the node is faulted since t(10). */
export const powerFaulted = (): NodeEvent[] => [
  powerSyncFailed(t(10), 1),
  powerSyncFailed(t(20), 2),
  powerSyncFailed(t(30), 3, 'BMC unreachable'),
  nodeFaulted('power_failure', t(10), 'BMC unreachable'),
];

// ---------------------------------------------------------------- commands

export const observePower = (
  ok: boolean,
  observedAt: string,
  error: string | null = ok ? null : 'IPMI timeout',
  failuresForFault = FAILURES_FOR_FAULT,
): ObservePowerSync => ({
  type: 'ObservePowerSync',
  nodeId: HEALTH_NODE,
  ok,
  error,
  observedAt,
  failuresForFault,
  now: observedAt,
});

export const checkDeployTimeout = (now: string, timeoutSeconds = DEPLOY_TIMEOUT_SECONDS): CheckDeployTimeout => ({
  type: 'CheckDeployTimeout',
  nodeId: HEALTH_NODE,
  timeoutSeconds,
  now,
});

export const startMaintenance = (now: string, reason = 'replacing a DIMM', by = OPERATOR): StartMaintenance => ({
  type: 'StartMaintenance',
  nodeId: HEALTH_NODE,
  reason,
  by,
  now,
});

export const endMaintenance = (now: string, by = OPERATOR, reason: string | null = null): EndMaintenance => ({
  type: 'EndMaintenance',
  nodeId: HEALTH_NODE,
  reason,
  by,
  now,
});

export const acquire = (now: string, epochEntropy = 2): AcquireNode => ({
  type: 'AcquireNode',
  nodeId: HEALTH_NODE,
  consumer: { controller: 'fair-clouds', model: 'show-me-the-money', machine: '5' },
  request: { requestId: `acquire-at-${now}`, fingerprint: `digest-at-${now}` },
  reservationKeyHash: null,
  tokenEntropy: `entropy-of-epoch-${epochEntropy}`.padEnd(16, '0'),
  now,
});

export const release = (now: string, epoch = 1, overrides: Partial<ReleaseAllocation> = {}): ReleaseAllocation => ({
  type: 'ReleaseAllocation',
  nodeId: HEALTH_NODE,
  token: tokenOf(epoch),
  ending: 'released',
  now,
  request: null,
  ...overrides,
});

export const report = (type: 'StartDeployment' | 'MarkDeployed', now: string, epoch = 1): NodeCommand => ({
  type,
  nodeId: HEALTH_NODE,
  token: tokenOf(epoch),
  now,
  request: null,
});
