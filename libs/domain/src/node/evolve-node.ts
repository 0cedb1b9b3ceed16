import type { AllocationEnding, NodeEvent } from './node-events';
import type { NodeState, RememberedRequest } from './node-state';
import { evolveDevice } from './evolve-device';

const remember = (state: NodeState, requestId: string, entry: RememberedRequest): NodeState['requests'] => ({
  ...state.requests,
  [requestId]: entry,
});

const endAllocation = (state: NodeState, token: string, ending: AllocationEnding): NodeState => ({
  ...state,
  allocation: state.allocation?.token === token ? null : state.allocation,
  issuedTokens: { ...state.issuedTokens, [token]: { epoch: state.issuedTokens[token]?.epoch ?? 0, ending } },
});

const withAllocationStatus = (state: NodeState, token: string, status: NonNullable<NodeState['allocation']>['status']): NodeState =>
  state.allocation?.token === token ? { ...state, allocation: { ...state.allocation, status } } : state;

/** The node's state is only ever this fold of its stream. */
export const evolveNode = (state: NodeState, event: NodeEvent): NodeState => {
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
        allocation: { token, epoch, consumer, status: 'allocated', acquiredAt, reservationId },
        issuedTokens: { ...state.issuedTokens, [token]: { epoch, ending: null } },
        reservation: reservationId !== null && state.reservation?.reservationId === reservationId ? null : state.reservation,
        requests: remember(state, request.requestId, {
          fingerprint: request.fingerprint,
          reply: { nodeId, token, epoch, status: 'allocated' },
        }),
      };
    }
    case 'DeploymentStarted':
      return withAllocationStatus(state, event.data.token, 'deploying');
    case 'NodeDeployed':
      return withAllocationStatus(state, event.data.token, 'deployed');
    case 'DeploymentFailed':
      return withAllocationStatus(state, event.data.token, 'failed_deployment');
    case 'AllocationReleased': {
      const { nodeId, token, epoch, ending, request } = event.data;
      const ended = endAllocation(state, token, ending);
      return request
        ? { ...ended, requests: remember(state, request.requestId, { fingerprint: request.fingerprint, reply: { nodeId, token, epoch, status: ending } }) }
        : ended;
    }
    case 'AllocationRevoked':
      return endAllocation(state, event.data.token, 'revoked');
    case 'DeviceRegistered':
    case 'DeviceRemoved':
      return evolveDevice(state, event);
  }
};
