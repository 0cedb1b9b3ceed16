import type { NodeState } from '../node/node-state';
import type { LeaseOwner, OwnerLiveness } from './lease-owner';

/**
 * Whether a lease owner is live, read from its node's state (the fold of its node
 * stream): its allocation is the node's live one and, for a device, it is not removed.
 */
export const ownerLivenessIn = (state: NodeState, owner: LeaseOwner): OwnerLiveness => {
  const issued = state.issuedTokens.get(owner.token);
  if (!issued) return { live: false, ending: 'unknown allocation' };
  if (state.allocation?.token !== owner.token) return { live: false, ending: issued.ending ?? 'superseded' };
  if (owner.kind === 'allocation') return { live: true };
  const device = state.devices[owner.deviceId];
  if (!device) return { live: false, ending: 'unknown device' };
  if (device.removed === null) return { live: true };
  return { live: false, ending: device.removed === 'removed' ? 'device removed' : 'device ended with its allocation' };
};
