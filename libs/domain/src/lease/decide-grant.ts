import { accept, refuse, type Decision } from '../core';
import type { GrantLease } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import { mintLeaseId } from './lease-id';
import { holderOf, sameOwner } from './lease-owner';
import { isPastExpiry, type LeaseReply, type LeaseState } from './lease-state';
import { expiryNotInFuture } from './expiry-in-future';
import { livenessOf, missingLiveness, ownerEnded } from './liveness-check';

/**
 * Granting an address (invariant 4: at most one valid lease per address):
 * - the new owner must be live;
 * - the same MAC and owner again is a renewal, or a no-op;
 * - an active lease of a live owner is never taken over: 409 ip_in_use naming it;
 * - an active lease past its expiry, or whose owner ended (an orphan), is closed by
 *   the same append that grants the new one.
 */
export const decideGrant = (command: GrantLease, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const { ip, mac, owner, leaseKind, expiresAt, now } = command;
  const badExpiry = expiryNotInFuture(expiresAt, now);
  if (badExpiry) return badExpiry;
  const newOwner = livenessOf(command.liveness, owner);
  if (!newOwner) return missingLiveness(owner);
  if (!newOwner.live) return ownerEnded(owner, newOwner.ending);

  const active = state.active;
  const closing: LeaseEvent[] = [];
  let superseded: string | undefined;
  if (active && isPastExpiry(active, now)) {
    closing.push({ type: 'LeaseExpired', data: { ip, leaseId: active.leaseId } });
  } else if (active && active.mac === mac && sameOwner(active.owner, owner)) {
    if (active.leaseKind !== leaseKind) {
      return refuse('wrong_state', `the address is already leased to this owner as ${active.leaseKind}; release it first`, { leaseId: active.leaseId });
    }
    const reply = { ip, leaseId: active.leaseId, status: 'valid', expiresAt };
    if (active.expiresAt === expiresAt) return accept([], reply);
    return accept([{ type: 'LeaseRenewed', data: { ip, leaseId: active.leaseId, expiresAt } }], reply);
  } else if (active) {
    const holder = livenessOf(command.liveness, active.owner);
    if (!holder) return missingLiveness(active.owner);
    if (holder.live) {
      return refuse('ip_in_use', `${ip} is leased to ${active.mac}`, {
        ip,
        leaseId: active.leaseId,
        mac: active.mac,
        holder: holderOf(active.owner),
      });
    }
    superseded = active.leaseId;
  }

  const leaseId = mintLeaseId(ip, state.granted + 1);
  if (superseded) closing.push({ type: 'LeaseReleased', data: { ip, leaseId: superseded, reason: 'superseded_orphan', cause: leaseId } });
  return accept(
    [...closing, { type: 'LeaseGranted', data: { ip, leaseId, mac, owner, leaseKind, expiresAt } }],
    { ip, leaseId, status: 'valid', expiresAt, ...(superseded ? { superseded } : {}) },
  );
};
