import { accept, type Decision } from '../core';
import type { ObserveDhcpLease } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import type { DhcpObservation, LeaseReply, LeaseState } from './lease-state';

const sameObservation = (a: DhcpObservation | undefined, b: DhcpObservation): boolean =>
  !!a && a.mac === b.mac && a.state === b.state && a.starts === b.starts && a.ends === b.ends && a.hostname === b.hostname;

/**
 * What a DHCP server saw is recorded only when it differs from the last thing that
 * server said about this address, so importing the same lease file again appends nothing.
 */
export const decideDhcpObservation = (command: ObserveDhcpLease, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const { ip, source, mac, state: binding, starts, ends, hostname, now } = command;
  const observation: DhcpObservation = { source, mac, state: binding, starts, ends, hostname };
  const reply = { ip, leaseId: state.active?.leaseId ?? null, status: 'observed' };
  if (sameObservation(state.observations[source], observation)) return accept([], { ...reply, status: 'unchanged' });
  return accept([{ type: 'DhcpLeaseObserved', data: { ip, ...observation, observedAt: now } }], reply);
};
