import fc from 'fast-check';
import type { LeaseOwner } from '@ledger/domain';
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
  const now = world.now;
  let minted = 0;
  const owners = (): LeaseOwner[] =>
    world.log.flatMap((e): LeaseOwner[] => {
      const d = e.data as { nodeId: string; token: string; deviceId: string };
      if (e.type === 'NodeAcquired') return [{ kind: 'allocation', token: d.token, nodeId: d.nodeId }];
      if (e.type === 'DeviceRegistered') return [{ kind: 'device', deviceId: d.deviceId, token: d.token, nodeId: d.nodeId }];
      return [];
    });
  for (const a of actions) {
    const nodeId = 'node' in a ? NODES[a.node] : '';
    switch (a.kind) {
      case 'acquire':
        if (world.node(nodeId).profile === null)
          world.runNode({ type: 'EnlistNode', nodeId, profile: { hostname: nodeId, arch: 'amd64', cpuCount: 1, memoryMb: 1, tags: [], zone: 'z' } });
        world.runNode({
          type: 'AcquireNode',
          nodeId,
          consumer: { controller: 'c', model: 'containers' },
          request: { requestId: `lease-r${++minted}`, fingerprint: 'f' },
          reservationKeyHash: null,
          tokenEntropy: `entropy-${minted}`.padEnd(16, 'x'),
          now,
        });
        break;
      case 'release': {
        const token = world.node(nodeId).allocation?.token;
        if (token) world.runNode({ type: 'ReleaseAllocation', nodeId, token, ending: 'released', now, request: null });
        break;
      }
      case 'revoke':
        world.runNode({ type: 'ObserveProviderStatus', nodeId, providerStatus: 'Ready', source: 'maas', observedAt: now, now });
        break;
      case 'register': {
        const token = world.node(nodeId).allocation?.token;
        if (token) world.runNode({ type: 'RegisterDevice', nodeId, token, hostname: `lxc-${a.mac}`, mac: MACS[a.mac], now });
        break;
      }
      case 'removeDevice': {
        const devices = owners().filter((o) => o.kind === 'device');
        const device = devices[a.pick % Math.max(1, devices.length)];
        if (device?.kind === 'device') world.runNode({ type: 'RemoveDevice', nodeId: device.nodeId, deviceId: device.deviceId, now });
        break;
      }
      case 'grant': {
        const all = owners();
        const owner = all[a.owner % Math.max(1, all.length)];
        if (owner)
          world.runLease({
            type: 'GrantLease',
            ip: IPS[a.ip],
            mac: MACS[a.mac],
            owner,
            leaseKind: 'dhcp',
            expiresAt: null,
            liveness: world.livenessFor(IPS[a.ip], [owner]),
            now,
          });
        break;
      }
      case 'renew':
        world.runLease({ type: 'RenewLease', ip: IPS[a.ip], leaseId: null, expiresAt: null, liveness: world.livenessFor(IPS[a.ip], []), now });
        break;
      case 'releaseLease':
        if (world.ip(IPS[a.ip]).granted > 0) world.runLease({ type: 'ReleaseLease', ip: IPS[a.ip], leaseId: null, reason: 'released', cause: null, now });
        break;
      case 'expireLease': {
        const active = world.ip(IPS[a.ip]).active;
        if (active) world.runLease({ type: 'ExpireLease', ip: IPS[a.ip], leaseId: active.leaseId, now });
        break;
      }
    }
  }
  return world.log;
};
