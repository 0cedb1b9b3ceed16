import { accept, type Decision } from '../core';
import type { ObserveDhcpLease } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import { mintLeaseId } from './lease-id';
import { isPastExpiry, type ActiveLease, type DhcpObservation, type LeaseReply, type LeaseState } from './lease-state';
import { heldByServer } from './judge-dhcp-record';
import { livenessOf, missingLiveness } from './liveness-check';

/**
 * Whether the new record says nothing the ledger does not know. A following source's
 * renewal (the same MAC, state and hostname; only its times moved) says nothing new: the
 * binding already holds until that source reports its end. Any other source's record is
 * new when any field differs, so re-importing the same file appends nothing.
 */
const nothingNew = (previous: DhcpObservation | undefined, next: DhcpObservation): boolean => {
  if (!previous || previous.mac !== next.mac || previous.state !== next.state || previous.hostname !== next.hostname) return false;
  if (!!previous.following !== !!next.following) return false;
  return next.following === true || (previous.starts === next.starts && previous.ends === next.ends);
};

/**
 * A following source's binding holds until it reports the end, so a record that is already
 * past its end when it arrives (read late, after the agent was down) is recorded as what it
 * has become: expired. Then a stored `active` from such a source always means held.
 */
const asOfNow = (command: ObserveDhcpLease): ObserveDhcpLease =>
  command.following && command.state === 'active' && !heldByServer(command, command.now) ? { ...command, state: 'expired' } : command;

type Effects = { events: LeaseEvent[]; leaseId: string | null } | { missing: ActiveLease['owner'] };

/**
 * What a binding does to the address's lease (seed 2, learning from the server):
 * - a binding the server holds for the MAC of a live registered device, on an address with
 *   no lease that holds, becomes that device's lease, learned from the server: with no
 *   expiry of its own when the source follows the server (the source reports its end),
 *   else ending when the server said;
 * - a lease learned from this server ends when the server stops holding it (released when
 *   the server recorded a release, expired otherwise) or binds the address to another MAC;
 *   from a snapshot source it also follows the later ends the server reports;
 * - a lease the ledger granted is never ended by a server's record, and a live owner's lease
 *   is never taken over: such a binding is judged orphaned, not recorded as a lease.
 */
const leaseEffects = (command: ObserveDhcpLease, state: LeaseState): Effects => {
  const { ip, source, mac, now, candidate } = command;
  const held = heldByServer(command, now);
  const active = state.active;
  const events: LeaseEvent[] = [];
  let current = active;
  if (current && current.dhcpSource === source && (!held || current.mac !== mac)) {
    const ended: LeaseEvent =
      held || command.state === 'released'
        ? { type: 'LeaseReleased', data: { ip, leaseId: current.leaseId, reason: held ? 'rebound' : 'released' } }
        : { type: 'LeaseExpired', data: { ip, leaseId: current.leaseId } };
    events.push(ended);
    current = null;
  }
  // A snapshot source (an import) reports renewals as later ends: its learned lease follows them, and once past its end it is over.
  if (held && !command.following && current && current.dhcpSource === source && current.mac === mac) {
    if (!isPastExpiry(current, now)) {
      if (current.expiresAt !== command.ends) events.push({ type: 'LeaseRenewed', data: { ip, leaseId: current.leaseId, expiresAt: command.ends } });
      return { events, leaseId: current.leaseId };
    }
    events.push({ type: 'LeaseExpired', data: { ip, leaseId: current.leaseId } });
    current = null;
  }
  if (!held || !candidate || (current && current.mac === mac)) return { events, leaseId: current?.leaseId ?? null };
  const owner = livenessOf(command.liveness, candidate);
  if (!owner) return { missing: candidate };
  if (!owner.live) return { events, leaseId: current?.leaseId ?? null };
  let superseded: string | undefined;
  if (current && isPastExpiry(current, now)) {
    events.push({ type: 'LeaseExpired', data: { ip, leaseId: current.leaseId } });
  } else if (current) {
    const holder = livenessOf(command.liveness, current.owner);
    if (!holder) return { missing: current.owner };
    if (holder.live) return { events, leaseId: current.leaseId };
    superseded = current.leaseId;
  }
  const granted = state.granted + 1;
  const leaseId = mintLeaseId(ip, granted);
  if (superseded) events.push({ type: 'LeaseReleased', data: { ip, leaseId: superseded, reason: 'superseded_orphan', cause: leaseId } });
  const expiresAt = command.following ? null : command.ends;
  events.push({ type: 'LeaseGranted', data: { ip, leaseId, mac, owner: candidate, leaseKind: 'dhcp', expiresAt, dhcpSource: source } });
  return { events, leaseId };
};

/**
 * What a DHCP server saw is recorded only when it tells the ledger something new (see
 * nothingNew), together with what it does to the address's lease (see leaseEffects).
 * A renewal from a following source appends nothing: the log grows with bindings,
 * changes of MAC, hostname or state, releases and expiries, never with renewals.
 */
export const decideDhcpObservation = (received: ObserveDhcpLease, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const command = asOfNow(received);
  const { ip, source, mac, state: binding, starts, ends, hostname, following, now } = command;
  // The server's own record of a deletion its agent reclaimed (and recorded) already: the binding ends once.
  const reclaimed = state.reclaimed[source];
  if (reclaimed && reclaimed.mac === mac && !heldByServer(command, now)) return accept([], { ip, leaseId: state.active?.leaseId ?? null, status: 'unchanged' });
  const observation: DhcpObservation = { source, mac, state: binding, starts, ends, hostname, ...(following ? { following } : {}) };
  const effects = leaseEffects(command, state);
  if ('missing' in effects) return missingLiveness(effects.missing);
  const unchanged = nothingNew(state.observations[source], observation);
  if (unchanged && effects.events.length === 0) return accept([], { ip, leaseId: effects.leaseId, status: 'unchanged' });
  const observed: LeaseEvent = { type: 'DhcpLeaseObserved', data: { ip, ...observation, observedAt: now } };
  const learned = effects.events.some((event) => event.type === 'LeaseGranted');
  return accept([...effects.events, observed], { ip, leaseId: effects.leaseId, status: learned ? 'learned' : 'observed' });
};
