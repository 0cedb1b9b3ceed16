import type { RecordedEvent } from '@ledger/event-store';
import { ownerKey, type DeviceEvent, type LeaseEvent, type NodeEvent, type OwnerKey } from '@ledger/domain';
import type { CascadeRelease, CascadeState } from './cascade-state';

type Event = NodeEvent | LeaseEvent | DeviceEvent;

const allocationKey = (token: string): OwnerKey => `allocation:${token}`;
const deviceKey = (deviceId: string): OwnerKey => `device:${deviceId}`;

const forgetLease = (state: CascadeState, leaseId: string): void => {
  const lease = state.leases[leaseId];
  if (!lease) return;
  delete state.leases[leaseId];
  const owner = state.owners[lease.owner];
  if (owner) owner.leases = owner.leases.filter((id) => id !== leaseId);
};

/** Ends an owner (and, for an allocation, its devices): every lease they hold must be released. */
const endOwner = (state: CascadeState, key: OwnerKey, cause: string): CascadeRelease[] => {
  const owner = state.owners[key];
  if (!owner) return [];
  delete state.owners[key];
  const releases = owner.devices.flatMap((device) => endOwner(state, device, cause));
  for (const leaseId of owner.leases) {
    const lease = state.leases[leaseId];
    if (!lease) continue;
    delete state.leases[leaseId];
    releases.push({ ip: lease.ip, leaseId, cause });
  }
  return releases;
};

/**
 * The pure core of the lease cascade (invariant 5): folds one recorded event into the
 * state, in place, and says which leases to release because of it.
 * - an allocation ends (released, revoked): release its leases and its devices' leases;
 * - a device is removed: release its leases;
 * - a lease is granted to an owner that had already ended (the grant raced the ending):
 *   release it too.
 * Releasing names the lease, and the lease decider releases only the address's active
 * lease with that id, so running a step twice (after a crash) changes nothing more.
 */
export const cascadeStep = (state: CascadeState, recorded: RecordedEvent): CascadeRelease[] => {
  if (recorded.position <= state.position) return [];
  state.position = recorded.position;
  const event = { type: recorded.type, data: recorded.data } as Event;
  switch (event.type) {
    case 'NodeAcquired':
      state.owners[allocationKey(event.data.token)] ??= { leases: [], devices: [] };
      return [];
    case 'DeviceRegistered': {
      const parent = state.owners[allocationKey(event.data.token)];
      const key = deviceKey(event.data.deviceId);
      // A device registered under an allocation already ended cannot happen (it is fenced); be safe anyway.
      if (!parent) return [];
      state.owners[key] ??= { leases: [], devices: [] };
      if (!parent.devices.includes(key)) parent.devices.push(key);
      return [];
    }
    case 'AllocationReleased':
    case 'AllocationRevoked':
      return endOwner(state, allocationKey(event.data.token), recorded.id);
    case 'DeviceRemoved': {
      const key = deviceKey(event.data.deviceId);
      const parent = state.owners[allocationKey(event.data.token)];
      if (parent) parent.devices = parent.devices.filter((device) => device !== key);
      return endOwner(state, key, recorded.id);
    }
    case 'LeaseGranted': {
      const { ip, leaseId, owner } = event.data;
      const key = ownerKey(owner);
      const holder = state.owners[key];
      if (!holder) return [{ ip, leaseId, cause: recorded.id }];
      state.leases[leaseId] = { ip, owner: key };
      holder.leases.push(leaseId);
      return [];
    }
    case 'LeaseReleased':
    case 'LeaseExpired':
      forgetLease(state, event.data.leaseId);
      return [];
    default:
      return [];
  }
};
