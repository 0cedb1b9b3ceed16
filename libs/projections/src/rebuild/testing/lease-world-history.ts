import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { CascadeWorld } from '../../lease-cascade/testing/cascade-world';

/**
 * Devices and leases for the replay property: acquires and releases, containers
 * registered and removed, leases granted (to live and to ended owners), renewed,
 * released and expired, played on the leases helper's in-memory world with the real
 * node and lease deciders. Node ids are its own, apart from the other histories'.
 */
const NODES = ['lease-n0', 'lease-n1'];
const IPS = ['10.0.0.1', '10.0.0.2', '2001:db8::1'];
const MACS = ['00:16:3e:00:00:01', '00:16:3e:00:00:02', '00:16:3e:00:00:03'];

export type LeaseAction =
  | { kind: 'acquire'; node: number }
  | { kind: 'release'; node: number }
  | { kind: 'revoke'; node: number }
  | { kind: 'register'; node: number; mac: number }
  | { kind: 'removeDevice'; pick: number }
  | { kind: 'grant'; ip: number; owner: number; mac: number }
  | { kind: 'renew'; ip: number }
  | { kind: 'releaseLease'; ip: number }
  | { kind: 'expireLease'; ip: number };

const i = (max: number) => fc.integer({ min: 0, max });
export const leaseActionsArb: fc.Arbitrary<LeaseAction[]> = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('acquire' as const), node: i(1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), node: i(1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), node: i(1) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('register' as const), node: i(1), mac: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeDevice' as const), pick: i(9) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('grant' as const), ip: i(2), owner: i(9), mac: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('renew' as const), ip: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('releaseLease' as const), ip: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('expireLease' as const), ip: i(2) }) },
  ),
  { maxLength: 30, size: 'max' },
);

/** The log the actions make, in order. */
export const leaseWorldLog = (actions: LeaseAction[]): RecordedEvent[] => {
  const world = new CascadeWorld();
  for (const a of actions) {
    const nodeId = 'node' in a ? NODES[a.node] : '';
    switch (a.kind) {
      case 'acquire':
        world.acquire(nodeId, { controller: 'c', model: 'containers' }, 'lease-r');
        break;
      case 'release':
        world.releaseAllocation(nodeId);
        break;
      case 'revoke':
        world.revokeByProvider(nodeId);
        break;
      case 'register':
        world.registerDevice(nodeId, MACS[a.mac], `lxc-${a.mac}`);
        break;
      case 'removeDevice':
        world.removeDevice(a.pick);
        break;
      case 'grant':
        world.grantToOwner(IPS[a.ip], MACS[a.mac], a.owner, null);
        break;
      case 'renew':
        world.renewLease(IPS[a.ip], null);
        break;
      case 'releaseLease':
        world.releaseLease(IPS[a.ip]);
        break;
      case 'expireLease':
        world.expireLease(IPS[a.ip]);
        break;
    }
  }
  return world.log;
};
