/**
 * Generated histories of one address at a DHCP server followed by the agent: bindings to
 * registered and unregistered MACs, renewals, hostname changes, releases, expiries, the
 * owner ending. Whatever the order:
 * - a renewal never appends an event;
 * - the address's lease is the server's binding exactly when the bound MAC's device lives
 *   (no lease for an unregistered MAC, never a lease for an ended device);
 * - at most one lease is active, and folding the appended log again gives the same state.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { foldEvents } from '../core';
import { leaseDecider } from './lease-decider';
import type { ObserveDhcpLease } from './lease-commands';
import type { DhcpBindingState, LeaseEvent } from './lease-events';
import { ownerKey, type LeaseOwner } from './lease-owner';
import { initialLeaseState, type LeaseState } from './lease-state';
import { at, deviceOwner } from './testing/lease-fixtures';

const IP = '10.77.0.9';
const SOURCE = 'kea:kea-leases4.csv';
const MACS = ['00:16:3e:00:00:01', '00:16:3e:00:00:02', '00:16:3e:00:00:03'];
/** The first two MACs are registered devices; the third nobody registered. */
const DEVICES: Record<string, LeaseOwner> = { [MACS[0]]: deviceOwner(1, 1), [MACS[1]]: deviceOwner(1, 2) };

type Step =
  | { kind: 'bind'; mac: string; hostname: string }
  | { kind: 'renew' }
  | { kind: 'end'; state: Exclude<DhcpBindingState, 'active'> }
  | { kind: 'device-ends'; mac: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('bind' as const), mac: fc.constantFrom(...MACS), hostname: fc.constantFrom('a', 'b') }),
  fc.constant({ kind: 'renew' as const }),
  fc.record({ kind: fc.constant('end' as const), state: fc.constantFrom('released' as const, 'expired' as const, 'free' as const) }),
  fc.record({ kind: fc.constant('device-ends' as const), mac: fc.constantFrom(MACS[0], MACS[1]) }),
);

interface Server {
  binding: { mac: string; hostname: string; state: DhcpBindingState } | null;
  minute: number;
}

describe('an address followed at its DHCP server (generated histories)', () => {
  it('renewals append nothing; the lease follows the binding and the owner; the log replays to the same state', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        let state: LeaseState = initialLeaseState();
        const log: LeaseEvent[] = [];
        const ended = new Set<string>();
        const server: Server = { binding: null, minute: 0 };
        for (const next of steps) {
          server.minute += 30;
          if (next.kind === 'device-ends') {
            ended.add(next.mac);
            continue;
          }
          if (next.kind === 'bind') server.binding = { mac: next.mac, hostname: next.hostname, state: 'active' };
          if (next.kind === 'end' && server.binding) server.binding = { ...server.binding, state: next.state };
          if (!server.binding) continue;
          const { mac, hostname, state: binding } = server.binding;
          const candidate = DEVICES[mac] ?? null;
          const liveness = Object.fromEntries(
            Object.entries(DEVICES).map(([deviceMac, owner]) => [
              ownerKey(owner),
              ended.has(deviceMac) ? { live: false as const, ending: 'device removed' } : { live: true as const },
            ]),
          );
          const command: ObserveDhcpLease = {
            type: 'ObserveDhcpLease',
            ip: IP,
            source: SOURCE,
            mac,
            state: binding,
            starts: at(server.minute),
            ends: at(server.minute + 60),
            hostname,
            following: true,
            candidate,
            liveness,
            now: at(server.minute),
          };
          const decision = leaseDecider.decide(command, state);
          assert.equal(decision.outcome, 'accepted');
          if (decision.outcome !== 'accepted') return;
          if (next.kind === 'renew') assert.deepEqual(decision.events, [], 'a renewal appended events');
          log.push(...decision.events);
          state = decision.events.reduce(leaseDecider.evolve, state);

          const held = binding === 'active';
          const owner = DEVICES[mac];
          if (held && owner && !ended.has(mac)) {
            assert.equal(state.active?.mac, mac, 'a live device bound at the server holds the lease');
            assert.equal(state.active?.dhcpSource ?? null, SOURCE);
          }
          if (held && !owner) assert.notEqual(state.active?.mac, mac, 'an unregistered MAC never holds a lease');
          if (!held) assert.equal(state.active, null, 'a binding the server ended leaves no lease');
        }
        assert.deepEqual(foldEvents(leaseDecider, log), state);
        const grants = log.filter((event) => event.type === 'LeaseGranted').length;
        const ends = log.filter((event) => event.type === 'LeaseReleased' || event.type === 'LeaseExpired').length;
        assert.ok(ends <= grants && grants - ends <= 1, 'at most one lease is active');
      }),
      { numRuns: 300 },
    );
  });
});
