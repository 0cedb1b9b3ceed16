import type { ProvisioningToken } from '../provisioning-token';
import type { DeviceId } from '../node/device-id';

/**
 * Every lease has an owner: an allocation (a host's own address) or a device under
 * one (a container's). Both carry the token and node, so the owner's liveness can be
 * read from its node stream without any read model.
 */
export type LeaseOwner =
  { kind: 'allocation'; token: ProvisioningToken; nodeId: string } | { kind: 'device'; deviceId: DeviceId; token: ProvisioningToken; nodeId: string };

/** One string per owner, e.g. for maps of owner liveness. */
export type OwnerKey = string;

export const ownerKey = (owner: LeaseOwner): OwnerKey => (owner.kind === 'allocation' ? `allocation:${owner.token}` : `device:${owner.deviceId}`);

export const sameOwner = (a: LeaseOwner, b: LeaseOwner): boolean => ownerKey(a) === ownerKey(b);

/** How the API names an owner: `{token}` or `{deviceId}`. */
export const holderOf = (owner: LeaseOwner): { token: string } | { deviceId: string; token: string } =>
  owner.kind === 'allocation' ? { token: owner.token } : { deviceId: owner.deviceId, token: owner.token };

/**
 * Whether an owner is live. Owners live on node streams, leases on ip streams, so the
 * application reads the owner's node stream (authoritative, never a read model) and
 * hands the answer to the lease decider inside the command.
 */
export type OwnerLiveness = { live: true } | { live: false; ending: string };

export type OwnerLivenessReport = Record<OwnerKey, OwnerLiveness>;
