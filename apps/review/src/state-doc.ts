import { query } from './api';
import type { Subject } from './story';

/** Where the state document of `subject` at the cursor `at` (null: now) is read. */
export const stateUrl = (subject: Subject, at: string | null): string => {
  const path =
    subject.kind === 'node'
      ? `/v1/state/nodes/${encodeURIComponent(subject.nodeId)}`
      : subject.kind === 'model'
        ? `/v1/state/models/${encodeURIComponent(subject.controller)}/${encodeURIComponent(subject.model)}`
        : `/v1/state/addresses/${encodeURIComponent(subject.ip)}`;
  return `${path}${query({ at })}`;
};

/** The state of one node, model or address at a moment, as `/v1/state/{nodes,models,addresses}/...` answer it. */
export interface StateDoc {
  at: string;
  position: number;
  folded: number;
  nodes: NodeDoc[];
  allocations: AllocationDoc[];
  devices: DeviceDoc[];
  leases: LeaseDoc[];
  address?: { ip: string; status: string; dhcp: { heldBy: { source: string; mac: string; ends: string | null } | null } };
}

export interface NodeDoc {
  nodeId: string;
  hostname: string;
  status: string;
  epoch: number;
  allocation: { token: string; consumer: Consumer; status: string } | null;
  reservation: { reservationId: string; agentName: string; expiresAt: string } | null;
  faults: { name: string; since: string; lastError: string }[];
  maintenance: { reason: string; by: string; since: string } | null;
  lastPosition: number;
}

export interface Consumer {
  controller: string;
  model: string;
  machine?: string;
}

export interface AllocationDoc {
  token: string;
  nodeId: string;
  epoch: number;
  consumer: Consumer;
  status: string;
  live: boolean;
  current: boolean;
  ending: { kind: string; at: string } | null;
  lastPosition: number;
}

export interface DeviceDoc {
  deviceId: string;
  nodeId: string;
  token: string;
  hostname: string;
  mac: string;
  removed: { reason: string; at: string } | null;
  lastPosition: number;
}

export interface LeaseDoc {
  ip: string;
  leaseId: string;
  mac: string;
  status: string;
  owner: { kind: string; token: string; deviceId?: string; nodeId: string };
  expiresAt: string | null;
  ended: { how: string; reason: string | null; position: number } | null;
  lastPosition: number;
}

export const consumerText = (consumer: Consumer): string => `${consumer.controller}/${consumer.model}${consumer.machine ? ` #${consumer.machine}` : ''}`;
