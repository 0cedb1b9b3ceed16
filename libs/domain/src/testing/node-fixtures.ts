import type { Consumer } from '../consumer';
import { mintToken, parseToken, type ProvisioningToken } from '../provisioning-token';
import type {
  AcquireNode,
  AllocationEnding,
  CancelReservation,
  EnlistNode,
  MarkDeployed,
  MarkDeploymentFailed,
  NodeEvent,
  NodeProfile,
  NodeReserved,
  ObserveProviderStatus,
  ReleaseAllocation,
  RequestStamp,
  ReserveNode,
  StartDeployment,
} from '../node';

/**
 * The cast and props of the node specs: one machine, the people of seed 1, and builders
 * for its commands and events with sensible defaults, so a spec states only what matters.
 */

export const NODE = 'elkhart';
export const OTHER_NODE = 'knoxville';

export const PROFILE: NodeProfile = {
  hostname: 'elkhart.scapestack',
  arch: 'amd64/generic',
  cpuCount: 8,
  memoryMb: 16384,
  tags: ['virtual', 'ssd'],
  zone: 'default',
};

export const CONSUMERS = {
  alice: { controller: 'fair-clouds', model: 'mobile-app', machine: '87' },
  bob: { controller: 'fair-clouds', model: 'show-me-the-money', machine: '12' },
  carol: { controller: 'autopilot', model: 'openstack', machine: '0', agentName: 'autopilot-7f3a' },
} satisfies Record<string, Consumer>;
export type Who = keyof typeof CONSUMERS;

/** Minutes after an arbitrary noon, as the ISO instant commands and events carry. */
export const at = (minute: number): string => new Date(Date.UTC(2025, 0, 1, 12, 0, 0) + minute * 60_000).toISOString();

/** The randomness a command handler would inject into an acquire, made readable. */
export const entropy = (label: string): string => `${label}-entropy`.padEnd(16, '0');

/** The token the `epoch`-th acquire of `nodeId` mints when given `entropy(label)`. */
export const tokenFor = (epoch: number, label: Who | string, nodeId = NODE): ProvisioningToken => mintToken(nodeId, epoch, entropy(label));

const epochOf = (token: ProvisioningToken): number => parseToken(token)?.epoch ?? 0;
const nodeOf = (token: ProvisioningToken): string => parseToken(token)?.nodeId ?? NODE;

export const stamp = (requestId: string, fingerprint = `digest-of-${requestId}`): RequestStamp => ({ requestId, fingerprint });

// ---------------------------------------------------------------- enlisting

export const enlistNode = (profile: NodeProfile = PROFILE, nodeId = NODE): EnlistNode => ({ type: 'EnlistNode', nodeId, profile });

export const nodeEnlisted = (profile: NodeProfile = PROFILE, nodeId = NODE): NodeEvent => ({
  type: 'NodeEnlisted',
  data: { nodeId, ...profile },
});

// ---------------------------------------------------------------- reservations

export const RESERVATION = { reservationId: 'res-1', agentName: 'autopilot-7f3a', keyHash: 'sha256-of-key-1', expiresAt: at(30) };

export const reserveNode = (overrides: Partial<ReserveNode> = {}): ReserveNode => ({
  type: 'ReserveNode',
  nodeId: NODE,
  ...RESERVATION,
  owner: null,
  now: at(10),
  ...overrides,
});

export const nodeReserved = (overrides: Partial<NodeReserved['data']> = {}): NodeEvent => ({
  type: 'NodeReserved',
  data: { nodeId: NODE, ...RESERVATION, owner: null, ...overrides },
});

export const cancelReservation = (overrides: Partial<CancelReservation> = {}): CancelReservation => ({
  type: 'CancelReservation',
  nodeId: NODE,
  reservationId: RESERVATION.reservationId,
  keyHash: RESERVATION.keyHash,
  now: at(10),
  ...overrides,
});

export const reservationCancelled = (reservationId = RESERVATION.reservationId, nodeId = NODE): NodeEvent => ({
  type: 'ReservationCancelled',
  data: { nodeId, reservationId },
});

export const reservationExpired = (reservationId = RESERVATION.reservationId, expiredAt = RESERVATION.expiresAt, nodeId = NODE): NodeEvent => ({
  type: 'ReservationExpired',
  data: { nodeId, reservationId, expiredAt },
});

// ---------------------------------------------------------------- acquiring

/** `by` names both the consumer and the entropy its acquire is given, so `tokenFor(epoch, by)` is its token. */
export const acquireNode = (by: Who, overrides: Partial<Omit<AcquireNode, 'type'>> = {}): AcquireNode => ({
  type: 'AcquireNode',
  nodeId: NODE,
  consumer: CONSUMERS[by],
  request: stamp(`acquire-by-${by}`),
  reservationKeyHash: null,
  tokenEntropy: entropy(by),
  now: at(10),
  ...overrides,
});

export const nodeAcquired = (
  by: Who,
  options: { epoch?: number; at?: string; reservationId?: string | null; request?: RequestStamp; nodeId?: string } = {},
): NodeEvent => {
  const { epoch = 1, reservationId = null, request = stamp(`acquire-by-${by}`), nodeId = NODE } = options;
  return {
    type: 'NodeAcquired',
    data: {
      nodeId,
      token: tokenFor(epoch, by, nodeId),
      epoch,
      consumer: CONSUMERS[by],
      acquiredAt: options.at ?? at(1),
      reservationId,
      request,
    },
  };
};

// ---------------------------------------------------------------- deployment

type TokenOverrides = { now?: string; request?: RequestStamp | null };

const tokenCommand = (token: ProvisioningToken, overrides: TokenOverrides) => ({
  nodeId: nodeOf(token),
  token,
  now: overrides.now ?? at(10),
  request: overrides.request ?? null,
});

const tokenEventData = (token: ProvisioningToken) => ({ nodeId: nodeOf(token), token, epoch: epochOf(token) });

export const startDeployment = (token: ProvisioningToken, overrides: TokenOverrides = {}): StartDeployment => ({
  type: 'StartDeployment',
  ...tokenCommand(token, overrides),
});

export const markDeployed = (token: ProvisioningToken, overrides: TokenOverrides = {}): MarkDeployed => ({
  type: 'MarkDeployed',
  ...tokenCommand(token, overrides),
});

export const markDeploymentFailed = (
  token: ProvisioningToken,
  overrides: TokenOverrides & { reason?: string; source?: string } = {},
): MarkDeploymentFailed => ({
  type: 'MarkDeploymentFailed',
  ...tokenCommand(token, overrides),
  reason: overrides.reason ?? 'curtin failed',
  source: overrides.source ?? 'juju',
});

/** A deployment event records the report's request only when the report carried one. */
const reportedBy = (request: RequestStamp | undefined) => (request ? { request } : {});

export const deploymentStarted = (token: ProvisioningToken, when = at(10), request?: RequestStamp): NodeEvent => ({
  type: 'DeploymentStarted',
  data: { ...tokenEventData(token), ...reportedBy(request), at: when },
});

export const nodeDeployed = (token: ProvisioningToken, when = at(10), request?: RequestStamp): NodeEvent => ({
  type: 'NodeDeployed',
  data: { ...tokenEventData(token), ...reportedBy(request), at: when },
});

export const deploymentFailed = (
  token: ProvisioningToken,
  options: { at?: string; reason?: string; source?: string; request?: RequestStamp } = {},
): NodeEvent => ({
  type: 'DeploymentFailed',
  data: {
    ...tokenEventData(token),
    ...reportedBy(options.request),
    reason: options.reason ?? 'curtin failed',
    source: options.source ?? 'juju',
    at: options.at ?? at(10),
  },
});

// ---------------------------------------------------------------- ending allocations

export const releaseAllocation = (token: ProvisioningToken, overrides: TokenOverrides & { ending?: ReleaseAllocation['ending'] } = {}): ReleaseAllocation => ({
  type: 'ReleaseAllocation',
  ...tokenCommand(token, overrides),
  ending: overrides.ending ?? 'released',
});

export const allocationReleased = (
  token: ProvisioningToken,
  options: { at?: string; ending?: Exclude<AllocationEnding, 'revoked'>; request?: RequestStamp | null } = {},
): NodeEvent => ({
  type: 'AllocationReleased',
  data: {
    ...tokenEventData(token),
    ending: options.ending ?? 'released',
    at: options.at ?? at(10),
    request: options.request ?? null,
    pendingCleanup: [],
  },
});

// ---------------------------------------------------------------- provider observations

export const observeProviderStatus = (
  providerStatus: string,
  observedAt: string,
  overrides: Partial<Omit<ObserveProviderStatus, 'type' | 'providerStatus' | 'observedAt'>> = {},
): ObserveProviderStatus => ({
  type: 'ObserveProviderStatus',
  nodeId: NODE,
  providerStatus,
  source: 'maas',
  observedAt,
  now: observedAt,
  ...overrides,
});

export const allocationRevoked = (token: ProvisioningToken, providerStatus: string, observedAt: string, source = 'maas'): NodeEvent => ({
  type: 'AllocationRevoked',
  data: { ...tokenEventData(token), providerStatus, source, observedAt },
});
