import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { CascadeWorld, SimulatedCascade } from '../../lease-cascade/testing/cascade-world';

/**
 * Leases of several models over their whole life, for the audit index's lease property:
 * acquires for three consumers (two models of one controller, and a model of the same
 * name under another controller), containers registered and removed, leases granted,
 * renewed, released and expired, allocations released and revoked, whole models
 * destroyed, and the lease cascade releasing (some of) the orphans, all decided by the
 * real node and lease deciders on the cascade helper's in-memory world.
 */
const NODES = ['audit-n0', 'audit-n1', 'audit-n2'];
const CONSUMERS = [
  { controller: 'c1', model: 'web' },
  { controller: 'c1', model: 'db' },
  { controller: 'c2', model: 'web' },
];
const IPS = ['10.1.0.1', '10.1.0.2', '10.1.0.3', '2001:db8::7'];
const MACS = ['00:16:3e:00:01:01', '00:16:3e:00:01:02', '00:16:3e:00:01:03'];
/** When expiries are recorded: after every expiry a grant or renewal can set. */
const LATER = '2031-01-01T00:00:00.000Z';

export type ModelLeaseAction =
  | { kind: 'acquire'; node: number; consumer: number }
  | { kind: 'release'; node: number }
  | { kind: 'revoke'; node: number }
  | { kind: 'destroyModel'; consumer: number }
  | { kind: 'register'; node: number; mac: number }
  | { kind: 'removeDevice'; pick: number }
  | { kind: 'grant'; ip: number; owner: number; mac: number; expires: boolean }
  | { kind: 'renew'; ip: number }
  | { kind: 'releaseLease'; ip: number }
  | { kind: 'expireLease'; ip: number }
  | { kind: 'cascade'; events: number };

const i = (max: number) => fc.integer({ min: 0, max });
export const modelLeaseActionsArb: fc.Arbitrary<ModelLeaseAction[]> = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('acquire' as const), node: i(2), consumer: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), node: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), node: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('destroyModel' as const), consumer: i(2) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('register' as const), node: i(2), mac: i(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeDevice' as const), pick: i(9) }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('grant' as const), ip: i(3), owner: i(9), mac: i(2), expires: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('renew' as const), ip: i(3) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('releaseLease' as const), ip: i(3) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('expireLease' as const), ip: i(3) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('cascade' as const), events: i(12) }) },
  ),
  { maxLength: 50, size: 'max' },
);

/** The log the actions make, in order (positions 1, 2, 3...). */
export const modelLeaseLog = (actions: ModelLeaseAction[]): RecordedEvent[] => {
  const world = new CascadeWorld();
  const cascade = new SimulatedCascade(world);
  const now = world.now;
  const hoursLater = (hours: number) => new Date(Date.parse(now) + hours * 3_600_000).toISOString();
  let renewals = 0;
  for (const a of actions) {
    const nodeId = 'node' in a ? NODES[a.node] : '';
    switch (a.kind) {
      case 'acquire':
        world.acquire(nodeId, CONSUMERS[a.consumer], 'audit-r');
        break;
      case 'release':
        world.releaseAllocation(nodeId);
        break;
      case 'revoke':
        world.revokeByProvider(nodeId);
        break;
      case 'destroyModel': {
        // As POST /v1/models/release does: every live allocation of the model, each on its own token.
        const { controller, model } = CONSUMERS[a.consumer];
        for (const node of NODES) {
          const consumer = world.node(node).allocation?.consumer;
          if (consumer?.controller === controller && consumer.model === model) world.releaseAllocation(node);
        }
        break;
      }
      case 'register':
        world.registerDevice(nodeId, MACS[a.mac], `lxc-${a.mac}`);
        break;
      case 'removeDevice':
        world.removeDevice(a.pick);
        break;
      case 'grant':
        world.grantToOwner(IPS[a.ip], MACS[a.mac], a.owner, a.expires ? hoursLater(1) : null);
        break;
      case 'renew':
        world.renewLease(IPS[a.ip], hoursLater(2 + ++renewals));
        break;
      case 'releaseLease':
        world.releaseLease(IPS[a.ip]);
        break;
      case 'expireLease':
        world.expireLease(IPS[a.ip], LATER);
        break;
      case 'cascade':
        cascade.run(a.events);
        break;
    }
  }
  return world.log;
};
