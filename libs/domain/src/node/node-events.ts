import type { Consumer } from '../consumer';
import type { DomainEvent } from '../core';
import type { ProvisioningToken } from '../provisioning-token';
import type { NodeHealthEvent } from './health-events';
import type { DeviceEvent } from './device-events';

/** The idempotency key of the command that caused an event, and a digest of its body. */
export interface RequestStamp {
  requestId: string;
  fingerprint: string;
}

export interface NodeProfile {
  hostname: string;
  arch: string;
  cpuCount: number;
  memoryMb: number;
  tags: string[];
  zone: string;
  /** The provider's resource pool (MAAS's `pool.name`); absent when the provider has none or did not say. */
  pool?: string;
}

export type AllocationEnding = 'released' | 'force_released' | 'model_released' | 'revoked';

export type NodeEnlisted = DomainEvent<'NodeEnlisted', { nodeId: string } & NodeProfile>;

export type NodeReserved = DomainEvent<
  'NodeReserved',
  { nodeId: string; reservationId: string; agentName: string; owner: string | null; keyHash: string; expiresAt: string }
>;
export type ReservationCancelled = DomainEvent<'ReservationCancelled', { nodeId: string; reservationId: string }>;
export type ReservationExpired = DomainEvent<'ReservationExpired', { nodeId: string; reservationId: string; expiredAt: string }>;

export type NodeAcquired = DomainEvent<
  'NodeAcquired',
  {
    nodeId: string;
    token: ProvisioningToken;
    epoch: number;
    consumer: Consumer;
    acquiredAt: string;
    /** The reservation this acquire consumed, if any. */
    reservationId: string | null;
    request: RequestStamp;
  }
>;

type TokenEventData = { nodeId: string; token: ProvisioningToken; epoch: number };

/** The report's requestId, when it carried one (absent otherwise, and from provider observations). */
type ReportRequest = { request?: RequestStamp };

export type DeploymentStarted = DomainEvent<'DeploymentStarted', TokenEventData & ReportRequest & { at: string }>;
export type NodeDeployed = DomainEvent<'NodeDeployed', TokenEventData & ReportRequest & { at: string }>;
export type DeploymentFailed = DomainEvent<'DeploymentFailed', TokenEventData & ReportRequest & { reason: string; source: string; at: string }>;

/**
 * A report with a requestId that found the allocation already in that status: recorded
 * so that its retry gets the same answer later, whatever the allocation has done since.
 */
export type DeploymentReportRepeated = DomainEvent<
  'DeploymentReportRepeated',
  TokenEventData & { status: 'deploying' | 'deployed' | 'failed_deployment'; request: RequestStamp; at: string }
>;

export type AllocationReleased = DomainEvent<
  'AllocationReleased',
  TokenEventData & {
    ending: Exclude<AllocationEnding, 'revoked'>;
    at: string;
    request: RequestStamp | null;
    /** Provider-side work that could not run now (node faulted); done when it clears. */
    pendingCleanup: string[];
  }
>;

/** The holder changed its owner data: `set` holds the keys given a new value, `removed` the keys it cleared. */
export type AllocationOwnerDataSet = DomainEvent<
  'AllocationOwnerDataSet',
  TokenEventData & { set: Readonly<Record<string, string>>; removed: string[]; at: string }
>;

/** A provider saw the node back in its pool while the ledger held it: the token is dead. */
export type AllocationRevoked = DomainEvent<'AllocationRevoked', TokenEventData & { providerStatus: string; source: string; observedAt: string }>;

export type NodeEvent =
  | NodeEnlisted
  | NodeReserved
  | ReservationCancelled
  | ReservationExpired
  | NodeAcquired
  | DeploymentStarted
  | NodeDeployed
  | DeploymentFailed
  | DeploymentReportRepeated
  | AllocationReleased
  | AllocationRevoked
  | AllocationOwnerDataSet
  | NodeHealthEvent
  | DeviceEvent;

export type NodeEventType = NodeEvent['type'];

export const ALLOCATION_ENDING_EVENTS: ReadonlySet<string> = new Set(['AllocationReleased', 'AllocationRevoked']);
