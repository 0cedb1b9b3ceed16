import type { DhcpRecord } from './dhcp-record';
import { holderOf, type OwnerLivenessReport } from './lease-owner';
import { livenessOf } from './liveness-check';
import { isPastExpiry, type LeaseState } from './lease-state';

export type DhcpVerdict = 'valid' | 'orphaned' | 'released' | 'unknown';

export interface DhcpRecordJudgement {
  verdict: DhcpVerdict;
  reason: string;
  token?: string;
  deviceId?: string;
}

/** What judging needs of a record: the server's binding, not where it came from. */
export type JudgedRecord = Pick<DhcpRecord, 'mac' | 'state' | 'ends'>;

/** A binding the server still holds: active, and not past the end it announced. */
export const heldByServer = (record: Pick<DhcpRecord, 'state' | 'ends'>, now: string): boolean =>
  record.state === 'active' && (record.ends === null || Date.parse(record.ends) > Date.parse(now));

/**
 * A binding as the ledger last recorded it still holds: a following source's active binding
 * until that source reports its end (its renewals are not recorded, so the end it announced
 * first says nothing), any other source's until the end it announced.
 */
export const recordedBindingHolds = (record: Pick<DhcpRecord, 'state' | 'ends' | 'following'>, now: string): boolean =>
  record.following === true ? record.state === 'active' : heldByServer(record, now);

/**
 * A DHCP server's record judged against the ledger (seed 2). A binding the server holds
 * is `valid` only if it is the address's active ledger lease, for the same MAC, not past
 * its expiry, with a live owner (unknown liveness counts as not live). Anything else the
 * server holds is `orphaned`: a leak to clean up at the server. A binding the server no
 * longer holds is `released`, or `unknown` if the ledger never leased the address.
 */
export const judgeDhcpRecord = (record: JudgedRecord, state: LeaseState, liveness: OwnerLivenessReport, now: string): DhcpRecordJudgement => {
  const active = state.active;
  if (!heldByServer(record, now)) {
    return state.granted > 0 || active
      ? { verdict: 'released', reason: `the DHCP server holds no binding (${record.state})` }
      : { verdict: 'unknown', reason: `the ledger never leased this address; the DHCP server holds no binding (${record.state})` };
  }
  if (!active) {
    const last = state.lastEnded;
    if (!last) return { verdict: 'orphaned', reason: 'the DHCP server holds a binding the ledger never granted' };
    return {
      verdict: 'orphaned',
      reason: `the ledger lease ${last.leaseId} was ${last.how}; the DHCP server still holds the address`,
      ...holderOf(last.owner),
    };
  }
  const holder = holderOf(active.owner);
  if (active.mac !== record.mac) {
    return { verdict: 'orphaned', reason: `the ledger leases this address to ${active.mac} (lease ${active.leaseId}), not ${record.mac}` };
  }
  if (isPastExpiry(active, now)) return { verdict: 'orphaned', reason: `the ledger lease ${active.leaseId} expired at ${active.expiresAt}`, ...holder };
  const owner = livenessOf(liveness, active.owner);
  if (!owner) return { verdict: 'orphaned', reason: 'the liveness of the lease owner could not be established', ...holder };
  if (!owner.live) return { verdict: 'orphaned', reason: `the lease owner has ended (${owner.ending})`, ...holder };
  return { verdict: 'valid', reason: `ledger lease ${active.leaseId} with a live owner`, ...holder };
};
