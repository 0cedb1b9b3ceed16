import type { Consumer } from '../consumer';
import type { NodeProfile, RequestStamp } from './node-events';
import type { NodeHealthCommand } from './health-commands';
import type { DeviceCommand } from './device-commands';

/**
 * Commands on one node. Time (`now`) and randomness (`tokenEntropy`) arrive in the
 * command, so deciding is a pure function.
 */
export type EnlistNode = { type: 'EnlistNode'; nodeId: string; profile: NodeProfile };

export type ReserveNode = {
  type: 'ReserveNode';
  nodeId: string;
  reservationId: string;
  agentName: string;
  owner: string | null;
  keyHash: string;
  expiresAt: string;
  now: string;
};

export type CancelReservation = {
  type: 'CancelReservation';
  nodeId: string;
  reservationId: string;
  keyHash: string;
  now: string;
};

export type AcquireNode = {
  type: 'AcquireNode';
  nodeId: string;
  consumer: Consumer;
  request: RequestStamp;
  reservationKeyHash: string | null;
  tokenEntropy: string;
  now: string;
};

type TokenCommand = { nodeId: string; token: string; now: string; request: RequestStamp | null };

export type StartDeployment = TokenCommand & { type: 'StartDeployment' };
export type MarkDeployed = TokenCommand & { type: 'MarkDeployed' };
export type MarkDeploymentFailed = TokenCommand & { type: 'MarkDeploymentFailed'; reason: string; source: string };
export type ReleaseAllocation = TokenCommand & {
  type: 'ReleaseAllocation';
  ending: 'released' | 'force_released' | 'model_released';
};
/** The holder's labels on its machine (MAAS's set_owner_data): keys to set, and keys to remove (an empty value). */
export type SetOwnerData = TokenCommand & { type: 'SetOwnerData'; ownerData: Readonly<Record<string, string>> };

/** What a provider (MAAS, Ironic) reported about the node. */
export type ObserveProviderStatus = {
  type: 'ObserveProviderStatus';
  nodeId: string;
  providerStatus: string;
  source: string;
  observedAt: string;
  now: string;
  /**
   * The provider says someone outside the ledger holds the machine (MAAS: another user
   * owns it), whatever its status: re-owned behind the holder's back, perhaps faster than
   * a poll could see it pass through the pool.
   */
  heldOutOfBand?: boolean;
};

export type NodeCommand =
  | EnlistNode
  | ReserveNode
  | CancelReservation
  | AcquireNode
  | StartDeployment
  | MarkDeployed
  | MarkDeploymentFailed
  | ReleaseAllocation
  | SetOwnerData
  | ObserveProviderStatus
  | NodeHealthCommand
  | DeviceCommand;

export type NodeCommandType = NodeCommand['type'];
