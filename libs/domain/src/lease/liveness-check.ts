import { refuse, type Refusal } from '../core';
import { holderOf, ownerKey, type LeaseOwner, type OwnerLiveness, type OwnerLivenessReport } from './lease-owner';

/** The decision needs an owner's liveness the command did not carry: the caller must ask again. */
export const missingLiveness = (owner: LeaseOwner): { outcome: 'refused'; refusal: Refusal } =>
  refuse('wrong_state', `the liveness of ${ownerKey(owner)} was not supplied`, { missingLiveness: ownerKey(owner) });

export const livenessOf = (report: OwnerLivenessReport, owner: LeaseOwner): OwnerLiveness | undefined => report[ownerKey(owner)];

/** An owner that ended can hold nothing more: told like any stale token's holder. */
export const ownerEnded = (owner: LeaseOwner, ending: string): { outcome: 'refused'; refusal: Refusal } =>
  refuse('stale_token', `the lease owner ${owner.kind === 'device' ? `device ${owner.deviceId}` : 'allocation'} has ended (${ending})`, {
    ...holderOf(owner),
    nodeId: owner.nodeId,
    ending,
    action: 'release this address; an ended owner can hold no lease',
  });
