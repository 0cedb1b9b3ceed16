import type { AllocationEnding, DeploymentFailed, DeploymentStarted, NodeDeployed, NodeEvent } from './node-events';
import type { AllocationStatus, NodeState, RememberedRequest } from './node-state';
import { evolveHealth } from './evolve-health';
import { evolveDevice } from './evolve-device';
import { applyOwnerData } from './owner-data';

const remember = (state: NodeState, requestId: string, entry: RememberedRequest): NodeState['requests'] => state.requests.set(requestId, entry);

const endAllocation = (state: NodeState, token: string, ending: AllocationEnding): NodeState => ({
  ...state,
  allocation: state.allocation?.token === token ? null : state.allocation,
  issuedTokens: state.issuedTokens.set(token, { epoch: state.issuedTokens.get(token)?.epoch ?? 0, ending }),
});

const withAllocationStatus = (state: NodeState, token: string, status: NonNullable<NodeState['allocation']>['status']): NodeState =>
  state.allocation?.token === token ? { ...state, allocation: { ...state.allocation, status } } : state;

/** A deployment report that carried a requestId is answered the same way when retried. */
const reported = (state: NodeState, event: DeploymentStarted | NodeDeployed | DeploymentFailed, status: AllocationStatus): NodeState => {
  const moved = withAllocationStatus(state, event.data.token, status);
  const { nodeId, token, epoch, request } = event.data;
  if (!request) return moved;
  return { ...moved, requests: remember(moved, request.requestId, { fingerprint: request.fingerprint, reply: { nodeId, token, epoch, status } }) };
};

/** The node's state is only ever this fold of its stream: allocations, then health. */
export const evolveNode = (state: NodeState, event: NodeEvent): NodeState => evolveHealth(evolveAllocations(state, event), event);

function evolveAllocations(state: NodeState, event: NodeEvent): NodeState {
  switch (event.type) {
    case 'NodeEnlisted': {
      const { nodeId, ...profile } = event.data;
      return { ...state, nodeId, profile };
    }
    case 'NodeReserved': {
      const { reservationId, agentName, owner, keyHash, expiresAt } = event.data;
      return { ...state, reservation: { reservationId, agentName, owner, keyHash, expiresAt } };
    }
    case 'ReservationCancelled':
    case 'ReservationExpired':
      return state.reservation?.reservationId === event.data.reservationId ? { ...state, reservation: null } : state;
    case 'NodeAcquired': {
      const { nodeId, token, epoch, consumer, acquiredAt, reservationId, request } = event.data;
      return {
        ...state,
        epoch,
        allocation: { token, epoch, consumer, status: 'allocated', acquiredAt, reservationId, ownerData: {} },
        issuedTokens: state.issuedTokens.set(token, { epoch, ending: null }),
        reservation: reservationId !== null && state.reservation?.reservationId === reservationId ? null : state.reservation,
        requests: remember(state, request.requestId, {
          fingerprint: request.fingerprint,
          reply: { nodeId, token, epoch, status: 'allocated' },
        }),
      };
    }
    case 'DeploymentReportRepeated': {
      const { nodeId, token, epoch, status, request } = event.data;
      return { ...state, requests: remember(state, request.requestId, { fingerprint: request.fingerprint, reply: { nodeId, token, epoch, status } }) };
    }
    case 'DeploymentStarted':
      return reported(state, event, 'deploying');
    case 'NodeDeployed':
      return reported(state, event, 'deployed');
    case 'DeploymentFailed':
      return reported(state, event, 'failed_deployment');
    case 'AllocationReleased': {
      const { nodeId, token, epoch, ending, request, pendingCleanup } = event.data;
      const ended = endAllocation(state, token, ending);
      const reply = { nodeId, token, epoch, status: ending, ...(pendingCleanup.length > 0 ? { pendingCleanup } : {}) };
      return request ? { ...ended, requests: remember(state, request.requestId, { fingerprint: request.fingerprint, reply }) } : ended;
    }
    case 'AllocationRevoked':
      return endAllocation(state, event.data.token, 'revoked');
    case 'AllocationOwnerDataSet':
      return state.allocation?.token === event.data.token
        ? { ...state, allocation: { ...state.allocation, ownerData: applyOwnerData(state.allocation.ownerData, event.data) } }
        : state;
    case 'PowerSyncFailed':
    case 'PowerSyncRecovered':
    case 'NodeFaulted':
    case 'FaultCleared':
    case 'MaintenanceStarted':
    case 'MaintenanceEnded':
    case 'PendingCleanupDone':
      return state; // health only: evolveHealth
    case 'DeviceRegistered':
    case 'DeviceRemoved':
      return evolveDevice(state, event);
  }
}
