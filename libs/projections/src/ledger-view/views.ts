import type { AllocationEnding, AllocationStatus, Consumer } from '@ledger/domain';
import type { NodeHealthView } from './node-health-view';
import type { DeviceView } from './device-views';
import type { IpLeasesView } from './lease-views';

export interface ReservationView {
  reservationId: string;
  agentName: string;
  owner: string | null;
  expiresAt: string;
}

export interface NodeView {
  nodeId: string;
  hostname: string;
  arch: string;
  cpuCount: number;
  memoryMb: number;
  tags: string[];
  zone: string;
  /** The provider's resource pool (MAAS's `pool`), when the enlistment named one. */
  pool?: string;
  epoch: number;
  /** Token of the live allocation, if any (details in `allocations`). */
  liveToken: string | null;
  reservation: ReservationView | null;
  enlistedAt: string;
  /** Faults, maintenance and pending cleanup, kept apart from the allocation. */
  health: NodeHealthView;
  /** Global position of the last event that changed this node. */
  lastPosition: number;
}

export interface AllocationEndingView {
  kind: AllocationEnding;
  at: string;
  /** For revocations: what the provider reported, and who reported it. */
  providerStatus?: string;
  source?: string;
}

export interface AllocationView {
  token: string;
  nodeId: string;
  epoch: number;
  consumer: Consumer;
  /** Deployment status while live; how it ended afterwards. */
  status: AllocationStatus | AllocationEnding;
  live: boolean;
  acquiredAt: string;
  reservationId: string | null;
  requestId: string;
  deploymentFailures: { reason: string; source: string; at: string }[];
  ending: AllocationEndingView | null;
  /** The holder's owner data, as it last set it (kept after the end, for the record); absent until it sets some. */
  ownerData?: Record<string, string>;
  lastPosition: number;
}

/** Every read model, as plain data: serialisable for checkpoints and snapshots. */
export interface LedgerViewState {
  /** Global position of the last event folded in (0: none). */
  position: number;
  nodes: Record<string, NodeView>;
  allocations: Record<string, AllocationView>;
  devices: Record<string, DeviceView>;
  /** Keyed by canonical IP address. */
  leases: Record<string, IpLeasesView>;
}

export const emptyLedgerView = (): LedgerViewState => ({ position: 0, nodes: {}, allocations: {}, devices: {}, leases: {} });
