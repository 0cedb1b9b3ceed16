/**
 * A rebuild's checkpoint of the lease cascade (CascadeFold), over generated histories whose
 * cascade ran part of the way and crashed, mid-event included, at random points: resumed
 * from that checkpoint, the cascade still ends every lease of an ended owner (invariant 5)
 * and releases none twice; the checkpoint is exactly the cascade's own fold at its
 * position; and it stands at the log's end whenever the log shows every release done, so
 * a ledger started after the rebuild steps through nothing again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { cascadeStep } from './cascade-step';
import { initialCascadeState } from './cascade-state';
import { CascadeFold } from './cascade-fold';
import { CascadeWorld, SimulatedCascade } from './testing/cascade-world';

const NODES = ['n0', 'n1', 'n2'];
const IPS = ['10.0.0.1', '10.0.0.2', '10.0.0.3'];
const MACS = ['00:16:3e:00:00:01', '00:16:3e:00:00:02', '00:16:3e:00:00:03'];

type Action =
  | { kind: 'acquire'; node: number }
  | { kind: 'release'; node: number }
  | { kind: 'revoke'; node: number }
  | { kind: 'register'; node: number; mac: number }
  | { kind: 'removeDevice'; pick: number }
  | { kind: 'grant'; ip: number; owner: number; mac: number }
  | { kind: 'releaseLease'; ip: number }
  | { kind: 'expireLease'; ip: number }
  | { kind: 'cascade'; events: number }
  | { kind: 'cascadeCrashMidEvent'; events: number; after: number };

const i = (max: number) => fc.integer({ min: 0, max });
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('acquire' as const), node: i(2) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('release' as const), node: i(2) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('revoke' as const), node: i(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('register' as const), node: i(2), mac: i(2) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('removeDevice' as const), pick: i(20) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('grant' as const), ip: i(2), owner: i(30), mac: i(2) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('releaseLease' as const), ip: i(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expireLease' as const), ip: i(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cascade' as const), events: fc.integer({ min: 1, max: 8 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cascadeCrashMidEvent' as const), events: fc.integer({ min: 1, max: 8 }), after: i(2) }), weight: 2 },
);

const play = (world: CascadeWorld, cascade: SimulatedCascade, a: Action): void => {
  switch (a.kind) {
    case 'acquire':
      return world.acquire(NODES[a.node], { controller: 'c', model: 'm' }, 'r');
    case 'release':
      return world.releaseAllocation(NODES[a.node]);
    case 'revoke':
      return world.revokeByProvider(NODES[a.node]);
    case 'register':
      return world.registerDevice(NODES[a.node], MACS[a.mac], `lxc-${a.mac}`);
    case 'removeDevice':
      return world.removeDevice(a.pick);
    case 'grant':
      return world.grantToOwner(IPS[a.ip], MACS[a.mac], a.owner, null);
    case 'releaseLease':
      return world.releaseLease(IPS[a.ip]);
    case 'expireLease':
      return world.expireLease(IPS[a.ip]);
    case 'cascade':
      return cascade.run(a.events);
    case 'cascadeCrashMidEvent':
      return cascade.run(a.events, { crashAfter: a.after });
  }
};

/** The rebuild's way through the log: pages of three events after a position. */
const pagesOf =
  (log: readonly RecordedEvent[]) =>
  (after: number): RecordedEvent[] =>
    log.filter((event) => event.position > after).slice(0, 3);

describe('the lease cascade checkpoint a rebuild writes', () => {
  it('resumed from it, the cascade ends every lease of an ended owner once; it is the cascade’s own fold, at the log’s end when all is done', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 60 }), async (actions) => {
        const world = new CascadeWorld();
        const running = new SimulatedCascade(world);
        for (const a of actions) play(world, running, a);

        // The rebuild: the whole log folded a page at a time, no release carried out.
        const fold = new CascadeFold();
        const read = pagesOf(world.log);
        for (let page = read(0); page.length > 0; page = read(page[page.length - 1].position)) fold.applyPage(page);
        const checkpoint = await fold.checkpoint(read);

        const own = initialCascadeState();
        for (const event of world.log.filter((e) => e.position <= checkpoint.position)) cascadeStep(own, event);
        assert.deepEqual(checkpoint, own, 'the checkpoint is what the cascade itself folds up to its position');

        const released = (lease: string) =>
          world.log.some((e) => (e.type === 'LeaseReleased' || e.type === 'LeaseExpired') && (e.data as { leaseId: string }).leaseId === lease);
        const asked = (upTo: number) => {
          const state = initialCascadeState();
          return world.log.filter((e) => e.position <= upTo).flatMap((e) => cascadeStep(state, e).map((r) => r.leaseId));
        };
        const allDone = asked(world.log.length).every(released);
        if (allDone) assert.equal(checkpoint.position, world.log.length, 'every release is in the log: the checkpoint is at its end');
        else assert.ok(asked(checkpoint.position).every(released), 'no release undone before the checkpoint');

        // A ledger started after the rebuild: its cascade resumes from the checkpoint.
        new SimulatedCascade(world, checkpoint).drain();
        const endings = new Map<string, number>();
        for (const e of world.log) {
          if (e.type !== 'LeaseReleased' && e.type !== 'LeaseExpired') continue;
          const lease = (e.data as { leaseId: string }).leaseId;
          endings.set(lease, (endings.get(lease) ?? 0) + 1);
          assert.equal(endings.get(lease), 1, `lease ${lease} ended twice`);
        }
        for (const ip of world.ips()) {
          const active = world.ip(ip).active;
          if (active) assert.ok(world.isLive(active.owner), `${ip}: lease ${active.leaseId} of an ended owner is still active`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
