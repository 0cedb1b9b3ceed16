/**
 * Generated histories of one address at a DHCP server whose agent reclaims: the server
 * binds MACs (two registered devices, one stranger), clients release, owners end and the
 * cascade ends their leases, the agent reclaims what the server still holds for an ended
 * lease (posting the record once or twice: a crash between its post and its checkpoint),
 * then the server's deletion row arrives (once or twice: a re-read journal), and agents
 * post reclaims of any lease id at all. Whatever the order:
 * - every lease ends at most once, and no reclaim names the lease then active;
 * - a server's binding of a lease is reclaimed at most once, and the agent's reclaim of a
 *   binding the server holds for the last ended lease is on record. A binding is the
 *   server's, from one record of it holding the address to the next: the MAC of an ended
 *   owner can be bound again after a reclaim (the container still asks), the ledger lists
 *   the same ended lease as orphaned again, and the agent's second deletion is a new fact;
 * - after a reclaim, that server's record of the address not being held for that MAC
 *   appends nothing until the server binds the address again;
 * - folding the appended log again gives the same state.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { foldEvents } from '../core';
import { leaseDecider } from './lease-decider';
import type { LeaseCommand } from './lease-commands';
import type { LeaseEvent } from './lease-events';
import { ownerKey, type LeaseOwner, type OwnerLivenessReport } from './lease-owner';
import { initialLeaseState, type LeaseState } from './lease-state';
import { at, deviceOwner } from './testing/lease-fixtures';

const IP = '10.77.0.41';
const SOURCE = 'kea:kea-leases4.csv';
const MACS = ['00:16:3e:00:00:01', '00:16:3e:00:00:02', '00:16:3e:00:00:03'];
const DEVICES: Record<string, LeaseOwner> = { [MACS[0]]: deviceOwner(1, 1), [MACS[1]]: deviceOwner(1, 2) };

type Step =
  | { kind: 'bind'; mac: string }
  | { kind: 'client-release' }
  | { kind: 'owner-ends'; mac: string }
  | { kind: 'reclaim'; posts: number; rows: number }
  | { kind: 'reclaim-any'; sequence: number; mac: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('bind' as const), mac: fc.constantFrom(...MACS) }),
  fc.constant({ kind: 'client-release' as const }),
  fc.record({ kind: fc.constant('owner-ends' as const), mac: fc.constantFrom(MACS[0], MACS[1]) }),
  fc.record({ kind: fc.constant('reclaim' as const), posts: fc.integer({ min: 1, max: 2 }), rows: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constant('reclaim-any' as const), sequence: fc.integer({ min: 1, max: 6 }), mac: fc.constantFrom(...MACS) }),
);

describe('reclaims at a DHCP server (generated histories)', () => {
  it('a lease ends once, its binding is reclaimed once, the deletion row appends nothing, the log replays', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        let state: LeaseState = initialLeaseState();
        const log: LeaseEvent[] = [];
        const ended = new Set<string>();
        let server: { mac: string; held: boolean } | null = null;
        let minute = 0;
        const report = (): OwnerLivenessReport =>
          Object.fromEntries(
            Object.entries(DEVICES).map(([mac, owner]) => [
              ownerKey(owner),
              ended.has(mac) ? { live: false as const, ending: 'force_released' } : { live: true as const },
            ]),
          );
        const run = (command: LeaseCommand): LeaseEvent[] => {
          const decision = leaseDecider.decide(command, state);
          if (decision.outcome === 'refused') {
            assert.ok(['RecordDhcpReclaim', 'ReleaseLease'].includes(command.type), `${command.type} refused: ${decision.refusal.message}`);
            return [];
          }
          for (const event of decision.events) {
            if (event.type === 'DhcpLeaseReclaimed') assert.notEqual(state.active?.leaseId, event.data.leaseId, 'a reclaim named the active lease');
          }
          log.push(...decision.events);
          state = decision.events.reduce(leaseDecider.evolve, state);
          return decision.events;
        };
        const row = (mac: string, held: boolean): LeaseEvent[] =>
          run({
            type: 'ObserveDhcpLease',
            ip: IP,
            source: SOURCE,
            mac,
            state: held ? 'active' : 'released',
            starts: at(minute),
            ends: at(minute + 60),
            hostname: null,
            following: true,
            candidate: DEVICES[mac] ?? null,
            liveness: report(),
            now: at(minute),
          });
        const reclaimOf = (leaseId: string, mac: string): LeaseCommand => ({
          type: 'RecordDhcpReclaim',
          ip: IP,
          leaseId,
          mac,
          source: SOURCE,
          liveness: report(),
          now: at(minute),
        });

        for (const next of steps) {
          minute += 1;
          if (next.kind === 'bind') {
            server = { mac: next.mac, held: true };
            row(next.mac, true);
          } else if (next.kind === 'client-release' && server?.held) {
            server.held = false;
            row(server.mac, false);
          } else if (next.kind === 'owner-ends') {
            ended.add(next.mac);
            const owner = DEVICES[next.mac];
            if (state.active && ownerKey(state.active.owner) === ownerKey(owner)) {
              run({ type: 'ReleaseLease', ip: IP, leaseId: state.active.leaseId, reason: 'owner_ended', cause: 'e-1', now: at(minute) });
            }
          } else if (next.kind === 'reclaim' && server?.held && state.lastEnded && state.lastEnded.mac === server.mac && !state.active) {
            const { leaseId, mac } = state.lastEnded;
            server.held = false;
            for (let post = 0; post < next.posts; post++) run(reclaimOf(leaseId, mac));
            assert.deepEqual(state.reclaimed[SOURCE], { leaseId, mac }, `the reclaim of ${leaseId}'s binding is not on record`);
            for (let read = 0; read < next.rows; read++) assert.deepEqual(row(mac, false), [], "the server's deletion row appended events");
          } else if (next.kind === 'reclaim-any') {
            run(reclaimOf(`${next.sequence}@${IP}`, next.mac));
          }
        }

        const endings = new Map<string, number>();
        const reclaims = new Map<string, number>();
        let reclaimedMac: string | null = null;
        let bindings = 0;
        for (const event of log) {
          if (event.type === 'LeaseReleased' || event.type === 'LeaseExpired') endings.set(event.data.leaseId, (endings.get(event.data.leaseId) ?? 0) + 1);
          if (event.type === 'DhcpLeaseReclaimed') {
            const key = `${event.data.source} ${event.data.leaseId} (binding ${bindings})`;
            reclaims.set(key, (reclaims.get(key) ?? 0) + 1);
            reclaimedMac = event.data.mac;
          }
          if (event.type === 'DhcpLeaseObserved') {
            if (event.data.state === 'active') {
              reclaimedMac = null;
              bindings += 1;
            } else assert.notEqual(event.data.mac, reclaimedMac, 'the server said again that a reclaimed binding is over');
          }
        }
        for (const [leaseId, count] of endings) assert.equal(count, 1, `${leaseId} ended ${count} times`);
        for (const [key, count] of reclaims) assert.equal(count, 1, `${key} reclaimed ${count} times`);
        assert.deepEqual(foldEvents(leaseDecider, log), state);
      }),
      { numRuns: 300 },
    );
  });
});
