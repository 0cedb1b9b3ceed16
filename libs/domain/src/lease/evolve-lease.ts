import type { LeaseEvent } from './lease-events';
import type { LeaseState } from './lease-state';
import { parseLeaseId } from './lease-id';

const endActive = (state: LeaseState, leaseId: string, how: 'released' | 'expired'): LeaseState => {
  const active = state.active;
  if (!active || active.leaseId !== leaseId) return state;
  return { ...state, active: null, lastEnded: { leaseId, mac: active.mac, owner: active.owner, how } };
};

/** The address's state is only ever this fold of its stream. */
export const evolveLease = (state: LeaseState, event: LeaseEvent): LeaseState => {
  switch (event.type) {
    case 'LeaseGranted': {
      const { ip, leaseId, mac, owner, leaseKind, expiresAt, dhcpSource } = event.data;
      return {
        ...state,
        ip,
        granted: Math.max(state.granted, parseLeaseId(leaseId)?.sequence ?? state.granted + 1),
        active: { leaseId, mac, owner, leaseKind, expiresAt, dhcpSource: dhcpSource ?? null },
      };
    }
    case 'LeaseRenewed':
      return state.active?.leaseId === event.data.leaseId ? { ...state, active: { ...state.active, expiresAt: event.data.expiresAt } } : state;
    case 'LeaseReleased':
      return endActive(state, event.data.leaseId, 'released');
    case 'LeaseExpired':
      return endActive(state, event.data.leaseId, 'expired');
    case 'DhcpLeaseObserved': {
      const { ip, source, mac, state: binding, starts, ends, hostname, following } = event.data;
      const observation = { source, mac, state: binding, starts, ends, hostname, ...(following ? { following } : {}) };
      return { ...state, ip, observations: { ...state.observations, [source]: observation } };
    }
  }
};
