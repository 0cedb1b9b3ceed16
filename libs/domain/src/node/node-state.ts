import { Map as PersistentMap } from 'immutable';
import type { Consumer } from '../consumer';
import type { ProvisioningToken } from '../provisioning-token';
import type { AllocationEnding, NodeProfile } from './node-events';
import { initialNodeHealth, type NodeHealth } from './health-state';
import type { NodeDevices } from './device-state';
import type { OwnerData } from './owner-data';

export type AllocationStatus = 'allocated' | 'deploying' | 'deployed' | 'failed_deployment';

export interface LiveAllocation {
  token: ProvisioningToken;
  epoch: number;
  consumer: Consumer;
  status: AllocationStatus;
  acquiredAt: string;
  reservationId: string | null;
  /** The holder's labels on the machine (owner-data.ts); they end with the allocation. */
  ownerData: OwnerData;
}

export interface Reservation {
  reservationId: string;
  agentName: string;
  owner: string | null;
  keyHash: string;
  expiresAt: string;
}

/** The answer a command with a requestId got, so a retry gets it again. */
export interface NodeReply {
  nodeId: string;
  token?: ProvisioningToken;
  epoch?: number;
  status?: string;
  reservationId?: string;
  expiresAt?: string;
  /** Release of a faulted node: the provider-side work left pending. */
  pendingCleanup?: string[];
  deviceId?: string;
  /** Owner data, once a change is applied: what the allocation holds now. */
  ownerData?: OwnerData;
  /** Only on a retried command's answer: the first answer again, not a new decision. */
  replayed?: true;
  /** On a replayed answer that names a token: the token's state now, so a stale holder cannot mistake the old answer for "my instance is fine". */
  live?: boolean;
  ending?: { kind: AllocationEnding } | null;
}

/** A token this node issued, and how its allocation ended (null while live). */
export interface IssuedToken {
  epoch: number;
  ending: AllocationEnding | null;
}

export interface RememberedRequest {
  fingerprint: string;
  reply: NodeReply;
}

export interface NodeState {
  nodeId: string | null;
  profile: NodeProfile | null;
  /** Allocations this node has had; the next acquire gets epoch + 1. */
  epoch: number;
  allocation: LiveAllocation | null;
  /**
   * Every token this node ever issued. These two grow with the node's whole history, so
   * they are persistent maps: a new state shares all but a path with the old one, and a
   * fold costs the same per event on the node's first allocation as on its ten-thousandth
   * (a copied object made it grow with the history: 2 ms an event after 5,000 allocations).
   */
  issuedTokens: PersistentMap<ProvisioningToken, IssuedToken>;
  reservation: Reservation | null;
  /** The answers of commands that carried a requestId, by requestId. */
  requests: PersistentMap<string, RememberedRequest>;
  /** Faults, maintenance and pending cleanup: see health-state.ts. */
  health: NodeHealth;
  /** Devices registered under this node's allocations, removed ones included. */
  devices: NodeDevices;
}

export const initialNodeState = (): NodeState => ({
  nodeId: null,
  profile: null,
  epoch: 0,
  allocation: null,
  issuedTokens: PersistentMap(),
  reservation: null,
  requests: PersistentMap(),
  health: initialNodeHealth(),
  devices: {},
});

export const isEnlisted = (state: NodeState): boolean => state.profile !== null;

/** A reservation holds until its expiry time; after that it is as good as gone. */
export const liveReservation = (state: NodeState, now: string): Reservation | null =>
  state.reservation && Date.parse(state.reservation.expiresAt) > Date.parse(now) ? state.reservation : null;
