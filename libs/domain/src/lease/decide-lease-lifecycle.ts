import { accept, refuse, type Decision } from '../core';
import type { ExpireLease, ReleaseLease, RenewLease } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import { parseLeaseId } from './lease-id';
import { isPastExpiry, type LeaseReply, type LeaseState } from './lease-state';
import { expiryNotInFuture } from './expiry-in-future';
import { livenessOf, missingLiveness, ownerEnded } from './liveness-check';

/** Whether this address ever had the lease `leaseId` names. */
const everGranted = (state: LeaseState, ip: string, leaseId: string): boolean => {
  const parsed = parseLeaseId(leaseId);
  return parsed !== null && parsed.ip === ip && parsed.sequence <= state.granted;
};

/** Only a valid lease is renewed: never an orphan, never one past its expiry. */
export const decideRenew = (command: RenewLease, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const { ip, expiresAt, now } = command;
  const badExpiry = expiryNotInFuture(expiresAt, now);
  if (badExpiry) return badExpiry;
  const active = state.active;
  if (state.granted === 0) return refuse('not_found', `no lease was ever granted on ${ip}`);
  if (!active) return refuse('wrong_state', `${ip} has no active lease; grant a new one`, { lastLeaseId: state.lastEnded?.leaseId ?? null });
  if (command.leaseId !== null && command.leaseId !== active.leaseId) {
    return refuse('wrong_state', `lease ${command.leaseId} is not the active lease of ${ip}`, { activeLeaseId: active.leaseId });
  }
  if (isPastExpiry(active, now)) return refuse('wrong_state', `lease ${active.leaseId} expired at ${active.expiresAt}; grant a new one`);
  const owner = livenessOf(command.liveness, active.owner);
  if (!owner) return missingLiveness(active.owner);
  if (!owner.live) return ownerEnded(active.owner, owner.ending);
  const reply = { ip, leaseId: active.leaseId, status: 'valid', expiresAt };
  if (active.expiresAt === expiresAt) return accept([], reply);
  return accept([{ type: 'LeaseRenewed', data: { ip, leaseId: active.leaseId, expiresAt } }], reply);
};

/**
 * Releasing is idempotent. Naming a lease that is no longer the active one changes
 * nothing: it was released already, or the address now belongs to someone else, whose
 * lease must never be touched (the cascade relies on this).
 */
export const decideReleaseLease = (command: ReleaseLease, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const { ip, leaseId, reason, cause } = command;
  const active = state.active;
  if (leaseId !== null && !everGranted(state, ip, leaseId)) return refuse('not_found', `no lease ${leaseId} on ${ip}`);
  if (leaseId === null && state.granted === 0) return refuse('not_found', `no lease was ever granted on ${ip}`);
  const target = leaseId ?? active?.leaseId ?? null;
  if (!active || active.leaseId !== target) {
    const last = state.lastEnded;
    const status = last && (target === null || last.leaseId === target) ? last.how : 'not_active';
    return accept([], { ip, leaseId: target ?? last?.leaseId ?? null, status });
  }
  return accept(
    [{ type: 'LeaseReleased', data: { ip, leaseId: active.leaseId, reason, ...(cause !== null ? { cause } : {}) } }],
    { ip, leaseId: active.leaseId, status: 'released' },
  );
};

/** Records the end of a lease whose time ran out; early, it is refused. */
export const decideExpire = (command: ExpireLease, state: LeaseState): Decision<LeaseEvent, LeaseReply> => {
  const { ip, leaseId, now } = command;
  const active = state.active;
  if (!everGranted(state, ip, leaseId)) return refuse('not_found', `no lease ${leaseId} on ${ip}`);
  if (!active || active.leaseId !== leaseId) return accept([], { ip, leaseId, status: 'not_active' });
  if (!isPastExpiry(active, now)) return refuse('wrong_state', `lease ${leaseId} has not expired`, { expiresAt: active.expiresAt });
  return accept([{ type: 'LeaseExpired', data: { ip, leaseId } }], { ip, leaseId, status: 'expired' });
};
