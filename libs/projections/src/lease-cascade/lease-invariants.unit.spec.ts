/**
 * Invariants 4 and 5 of DESIGN.md, over generated histories of acquires, devices, lease
 * grants (some racing the end of their owner), releases (model releases too),
 * revocations, and a lease cascade that is run a few events at a time and crashes at
 * random points, mid-event included:
 * - at every step, an IP has at most one valid lease, and a lease whose owner ended is
 *   never valid (it shows orphaned until released);
 * - the cascade never releases a lease twice, nor one whose owner is live;
 * - once the cascade has caught up, no lease of an ended allocation or device is active.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LeaseGranted, LeaseOwner, LeaseReleased } from '@ledger/domain';
import { emptyLedgerView, isOwnerLive, leaseStatus, applyEvent, type LedgerViewState } from '../ledger-view';
import { UNTRACKED } from '../runtime/collection-changes';
import { CascadeWorld, SimulatedCascade } from './testing/cascade-world';

const NODES = ['n0', 'n1', 'n2'];
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '2001:db8::1', '2001:db8::2'];
const MACS = ['00:16:3e:00:00:01', '00:16:3e:00:00:02', '00:16:3e:00:00:03', '00:16:3e:00:00:04'];

type Action =
  | { kind: 'acquire'; node: number; model: number }
  | { kind: 'release'; node: number; force: boolean }
  | { kind: 'revoke'; node: number }
  | { kind: 'modelRelease'; model: number }
  | { kind: 'register'; node: number; mac: number }
  | { kind: 'removeDevice'; pick: number }
  | { kind: 'grant'; ip: number; owner: number; liveOwner: boolean; mac: number; static: boolean }
  | { kind: 'grantRacingTheEnd'; ip: number; owner: number; liveOwner: boolean; mac: number }
  | { kind: 'releaseLease'; ip: number }
  | { kind: 'cascade'; events: number; checkpointEvery: number }
  | { kind: 'cascadeCrash' }
  | { kind: 'cascadeCrashMidEvent'; events: number; after: number }
  | { kind: 'cascadeDrain' };

const i = (max: number) => fc.integer({ min: 0, max });
/** Mostly a live owner, sometimes any owner that ever was (to be refused, or to race). */
const liveOwner = fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('acquire' as const), node: i(2), model: i(1) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('release' as const), node: i(2), force: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('revoke' as const), node: i(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('modelRelease' as const), model: i(1) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('register' as const), node: i(2), mac: i(3) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('removeDevice' as const), pick: i(20) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('grant' as const), ip: i(4), owner: i(30), liveOwner, mac: i(3), static: fc.boolean() }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('grantRacingTheEnd' as const), ip: i(4), owner: i(30), liveOwner, mac: i(3) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('releaseLease' as const), ip: i(4) }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('cascade' as const), events: fc.integer({ min: 1, max: 8 }), checkpointEvery: fc.integer({ min: 1, max: 5 }) }),
    weight: 4,
  },
  { arbitrary: fc.constant({ kind: 'cascadeCrash' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cascadeCrashMidEvent' as const), events: fc.integer({ min: 1, max: 8 }), after: i(3) }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'cascadeDrain' as const }), weight: 1 },
);

/** Plays actions against the world as the application would. */
class Player {
  readonly world = new CascadeWorld();
  readonly cascade = new SimulatedCascade(this.world);
  private minted = 0;

  /** Every owner that ever existed, live or not, in order of birth. */
  owners(): LeaseOwner[] {
    return this.world.log.flatMap((e): LeaseOwner[] => {
      const d = e.data as { nodeId: string; token: string; deviceId: string };
      if (e.type === 'NodeAcquired') return [{ kind: 'allocation', token: d.token, nodeId: d.nodeId }];
      if (e.type === 'DeviceRegistered') return [{ kind: 'device', deviceId: d.deviceId, token: d.token, nodeId: d.nodeId }];
      return [];
    });
  }

  private endAllocation(nodeId: string, ending: 'released' | 'force_released' | 'model_released') {
    const token = this.world.node(nodeId).allocation?.token;
    if (token) this.world.runNode({ type: 'ReleaseAllocation', nodeId, token, ending, now: this.world.now, request: null });
  }

  play(a: Action): void {
    const w = this.world;
    const now = w.now;
    switch (a.kind) {
      case 'acquire': {
        const nodeId = NODES[a.node];
        if (w.node(nodeId).profile === null) {
          w.runNode({ type: 'EnlistNode', nodeId, profile: { hostname: nodeId, arch: 'amd64', cpuCount: 1, memoryMb: 1, tags: [], zone: 'z' } });
        }
        w.runNode({
          type: 'AcquireNode',
          nodeId,
          consumer: { controller: 'c', model: `m${a.model}` },
          request: { requestId: `r${++this.minted}`, fingerprint: 'f' },
          reservationKeyHash: null,
          tokenEntropy: `entropy-${this.minted}`.padEnd(16, 'x'),
          now,
        });
        return;
      }
      case 'release':
        return this.endAllocation(NODES[a.node], a.force ? 'force_released' : 'released');
      case 'revoke':
        w.runNode({ type: 'ObserveProviderStatus', nodeId: NODES[a.node], providerStatus: 'Ready', source: 'maas', observedAt: now, now });
        return;
      case 'modelRelease':
        for (const nodeId of NODES) if (w.node(nodeId).allocation?.consumer.model === `m${a.model}`) this.endAllocation(nodeId, 'model_released');
        return;
      case 'register': {
        const token = w.node(NODES[a.node]).allocation?.token;
        if (token) w.runNode({ type: 'RegisterDevice', nodeId: NODES[a.node], token, hostname: `lxc-${a.mac}`, mac: MACS[a.mac], now });
        return;
      }
      case 'removeDevice': {
        const devices = this.owners().filter((o) => o.kind === 'device');
        const device = devices[a.pick % Math.max(1, devices.length)];
        if (device?.kind === 'device') w.runNode({ type: 'RemoveDevice', nodeId: device.nodeId, deviceId: device.deviceId, now });
        return;
      }
      case 'grant':
      case 'grantRacingTheEnd': {
        const everyOwner = this.owners();
        const live = everyOwner.filter((o) => w.isLive(o));
        const owners = a.liveOwner && live.length > 0 ? live : everyOwner;
        const owner = owners[a.owner % Math.max(1, owners.length)];
        if (!owner) return;
        const ip = IPS[a.ip];
        const liveness = w.livenessFor(ip, [owner]); // read now...
        if (a.kind === 'grantRacingTheEnd') this.endAllocation(owner.nodeId, 'force_released'); // ...the owner ends meanwhile...
        const leaseKind = a.kind === 'grant' && a.static ? 'static' : 'dhcp';
        w.runLease({ type: 'GrantLease', ip, mac: MACS[a.mac], owner, leaseKind, expiresAt: null, liveness, now }); // ...and the grant lands after
        return;
      }
      case 'releaseLease':
        if (w.ip(IPS[a.ip]).granted > 0) w.runLease({ type: 'ReleaseLease', ip: IPS[a.ip], leaseId: null, reason: 'released', cause: null, now });
        return;
      case 'cascade':
        return this.cascade.run(a.events, { checkpointEvery: a.checkpointEvery });
      case 'cascadeCrash':
        return this.cascade.crash();
      case 'cascadeCrashMidEvent':
        return this.cascade.run(a.events, { crashAfter: a.after });
      case 'cascadeDrain':
        return this.cascade.drain();
    }
  }
}

/** The read model, folded incrementally from the same log. */
const catchUpView = (view: LedgerViewState, world: CascadeWorld) => {
  for (const event of world.log.slice(view.position)) applyEvent(view, event, UNTRACKED);
};

const checkEveryStep = (player: Player, view: LedgerViewState) => {
  const { world } = player;
  catchUpView(view, world);
  const now = new Date(world.now);
  for (const ips of Object.values(view.leases)) {
    const statuses = ips.leases.map((lease) => ({ lease, status: leaseStatus(view, ips, lease, now), live: world.isLive(lease.owner) }));
    assert.ok(statuses.filter((s) => s.status === 'valid').length <= 1, `${ips.ip} has more than one valid lease`);
    for (const { lease, status, live } of statuses) {
      assert.equal(isOwnerLive(view, lease.owner), live, 'the read model and the node stream disagree on an owner');
      if (!live) assert.notEqual(status, 'valid', `lease ${lease.leaseId} of an ended owner is valid`);
      if (!live && lease.ended === null) assert.equal(status, 'orphaned', `active lease ${lease.leaseId} of an ended owner is not orphaned`);
    }
  }
  // The cascade never releases a lease twice, nor one whose owner is live.
  const granted = new Map<string, LeaseGranted['data']>();
  const ended = new Map<string, number>();
  for (const event of world.log) {
    if (event.type === 'LeaseGranted') granted.set((event.data as LeaseGranted['data']).leaseId, event.data as LeaseGranted['data']);
    if (event.type === 'LeaseReleased' || event.type === 'LeaseExpired') {
      const { leaseId, reason } = event.data as LeaseReleased['data'];
      ended.set(leaseId, (ended.get(leaseId) ?? 0) + 1);
      assert.equal(ended.get(leaseId), 1, `lease ${leaseId} ended twice`);
      if (reason === 'owner_ended') {
        assert.equal(world.isLive(granted.get(leaseId)!.owner), false, `the cascade released ${leaseId}, whose owner is live`);
        assert.equal(event.metadata.actor, 'system:lease-cascade');
        assert.ok(event.metadata.causationId, 'a cascade release names its cause');
      }
    }
  }
};

/** After the cascade catches up: every lease still active has a live owner. */
const checkCaughtUp = (player: Player) => {
  const { world } = player;
  for (const ip of world.ips()) {
    const active = world.ip(ip).active;
    if (active) assert.ok(world.isLive(active.owner), `${ip}: lease ${active.leaseId} of an ended owner is still active after the cascade caught up`);
  }
};

describe('invariants 4 and 5: leases of ended owners are never valid, and the cascade ends them all', () => {
  it('hold at every step of generated histories with a crashing cascade', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 80, size: 'medium' }), (actions) => {
        const player = new Player();
        const view = emptyLedgerView();
        for (const a of actions) {
          player.play(a);
          checkEveryStep(player, view);
          if (a.kind === 'cascadeDrain') checkCaughtUp(player);
        }
        player.cascade.crash();
        player.cascade.drain();
        checkEveryStep(player, view);
        checkCaughtUp(player);
      }),
      { numRuns: 400 },
    );
  });

  it('the generator reaches the interesting cases (cascade releases, races, orphans superseded)', () => {
    let cascaded = 0;
    let superseded = 0;
    let racedGrantsReleased = 0;
    fc.assert(
      fc.property(fc.array(action, { minLength: 20, maxLength: 80, size: 'medium' }), (actions) => {
        const player = new Player();
        actions.forEach((a) => player.play(a));
        player.cascade.drain();
        for (const event of player.world.log) {
          const data = event.data as LeaseReleased['data'];
          if (event.type === 'LeaseReleased' && data.reason === 'owner_ended') cascaded++;
          if (event.type === 'LeaseReleased' && data.reason === 'superseded_orphan') superseded++;
          if (event.type === 'LeaseReleased' && data.reason === 'owner_ended' && player.world.log.find((e) => e.id === data.cause)?.type === 'LeaseGranted')
            racedGrantsReleased++;
        }
      }),
      { numRuns: 100 },
    );
    assert.ok(cascaded > 200 && superseded > 10 && racedGrantsReleased > 10, JSON.stringify({ cascaded, superseded, racedGrantsReleased }));
  });
});
