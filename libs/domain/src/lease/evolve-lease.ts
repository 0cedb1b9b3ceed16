import type { LeaseEvent, LeaseReleaseReason } from './lease-events';
import type { LeaseState } from './lease-state';
import { parseLeaseId } from './lease-id';

const endActive = (state: LeaseState, leaseId: string, how: 'released' | 'expired', reason: LeaseReleaseReason | null): LeaseState => {
  const active = state.active;
  if (!active || active.leaseId !== leaseId) return state;
  return { ...state, active: null, lastEnded: { leaseId, mac: active.mac, owner: active.owner, how, reason } };
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
      return endActive(state, event.data.leaseId, 'released', event.data.reason);
    case 'LeaseExpired':
      return endActive(state, event.data.leaseId, 'expired', null);
    case 'DhcpLeaseObserved': {
      const { ip, source, mac, state: binding, starts, ends, hostname, following } = event.data;
      const observation = { source, mac, state: binding, starts, ends, hostname, ...(following ? { following } : {}) };
      // A new binding at the server closes the story of the binding its agent reclaimed there.
      const { [source]: _closed, ...stillReclaimed } = state.reclaimed;
      const reclaimed = binding === 'active' ? stillReclaimed : state.reclaimed;
      return { ...state, ip, observations: { ...state.observations, [source]: observation }, reclaimed };
    }
    case 'DhcpLeaseReclaimed': {
      const { ip, leaseId, mac, source } = event.data;
      const seen = state.observations[source];
      // The server no longer holds the binding: its address is back in its pool. A later binding of another MAC stays as the server said.
      const observations =
        seen && seen.mac !== mac
          ? state.observations
          : {
              ...state.observations,
              [source]: {
                source,
                mac,
                state: 'free' as const,
                starts: seen?.starts ?? null,
                ends: null,
                hostname: seen?.hostname ?? null,
                ...(seen?.following ? { following: true as const } : {}),
              },
            };
      return { ...state, ip, observations, reclaimed: { ...state.reclaimed, [source]: { leaseId, mac } } };
    }
  }
};
