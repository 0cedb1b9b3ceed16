/**
 * A reclaim (seed 2): the agent beside a DHCP server deleted there the binding of a lease
 * the ledger had ended, and records it. The event says why the binding was an orphan; a
 * repeated record appends nothing; the server's own record of the deletion, read later
 * from its lease file, appends nothing either: the binding ends once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { leaseDecider } from './lease-decider';
import type { ObserveDhcpLease, RecordDhcpReclaim } from './lease-commands';
import type { DhcpLeaseReclaimed, LeaseEvent } from './lease-events';
import { ownerKey, type LeaseOwner } from './lease-owner';
import { foldEvents } from '../core';
import { at, deviceOwner, given, liveness } from './testing/lease-fixtures';

const IP = '10.77.0.31';
const KEA = 'kea:kea-leases4.csv';
const MAC_A = '00:16:3e:00:00:0a';
const MAC_B = '00:16:3e:00:00:0b';
const container = deviceOwner(1, 1);
const spec = (history: LeaseEvent[]) => given(leaseDecider, history);

const reclaim = (extra: Partial<RecordDhcpReclaim> = {}): RecordDhcpReclaim => ({
  type: 'RecordDhcpReclaim',
  ip: IP,
  leaseId: `1@${IP}`,
  mac: MAC_A,
  source: KEA,
  liveness: liveness([], [container]),
  now: at(10),
  ...extra,
});
const observe = (mac: string, state: 'active' | 'released', candidate: LeaseOwner | null = null): ObserveDhcpLease => ({
  type: 'ObserveDhcpLease',
  ip: IP,
  source: KEA,
  mac,
  state,
  starts: at(0),
  ends: at(60),
  hostname: 'c1',
  following: true,
  candidate,
  liveness: liveness(candidate ? [candidate] : []),
  now: at(11),
});
const observedActive: LeaseEvent = {
  type: 'DhcpLeaseObserved',
  data: { ip: IP, source: KEA, mac: MAC_A, state: 'active', starts: at(0), ends: at(60), hostname: 'c1', following: true, observedAt: at(1) },
};
const learned: LeaseEvent = {
  type: 'LeaseGranted',
  data: { ip: IP, leaseId: `1@${IP}`, mac: MAC_A, owner: container, leaseKind: 'dhcp', expiresAt: null, dhcpSource: KEA },
};
const ownerEnded: LeaseEvent = { type: 'LeaseReleased', data: { ip: IP, leaseId: `1@${IP}`, reason: 'owner_ended', cause: 'e-7' } };
/** Learned from Kea, then ended by the cascade when the container's machine was torn down; Kea still holds it. */
const orphaned = [learned, observedActive, ownerEnded];
const reclaimed = (extra: Partial<DhcpLeaseReclaimed['data']> = {}): LeaseEvent => ({
  type: 'DhcpLeaseReclaimed',
  data: { ip: IP, leaseId: `1@${IP}`, mac: MAC_A, source: KEA, reason: 'owner_ended', ownerEnding: 'released', reclaimedAt: at(10), ...extra },
});

describe('recording a reclaim', () => {
  it('records the deletion with why the binding was an orphan: the lease ended with its owner, and how the owner ended', () => {
    const reply = spec(orphaned).when(reclaim()).then([reclaimed()]);
    assert.deepEqual(reply, { ip: IP, leaseId: `1@${IP}`, status: 'reclaimed' });
    const state = foldEvents(leaseDecider, [...orphaned, reclaimed()]);
    assert.equal(state.observations[KEA].state, 'free', 'the server no longer holds the address');
    assert.equal(state.observations[KEA].hostname, 'c1');
  });

  it('appends nothing when the agent records the same reclaim again (after a restart)', () => {
    spec([...orphaned, reclaimed()])
      .when(reclaim({ now: at(20) }))
      .thenNothingHappens();
  });

  it("appends nothing for the server's own record of the deletion; a later binding and its release are recorded as ever", () => {
    const history = [...orphaned, reclaimed()];
    spec(history).when(observe(MAC_A, 'released')).thenNothingHappens();
    const rebound = leaseDecider.decide(observe(MAC_B, 'active'), foldEvents(leaseDecider, history));
    assert.equal(rebound.outcome, 'accepted');
    if (rebound.outcome !== 'accepted') return;
    assert.deepEqual(
      rebound.events.map((event) => event.type),
      ['DhcpLeaseObserved'],
    );
    const after = [...history, ...rebound.events];
    const released = leaseDecider.decide(observe(MAC_B, 'released'), foldEvents(leaseDecider, after));
    assert.deepEqual(released.outcome === 'accepted' && released.events.map((event) => event.type), ['DhcpLeaseObserved']);
  });

  it("records a second deletion when the server bound the ended lease's MAC again after the first; that one too ends once", () => {
    // Found by the generated histories: the client released, the agent reclaimed, the device's owner ended, the device asked again.
    const clientReleased: LeaseEvent[] = [
      learned,
      observedActive,
      { type: 'LeaseReleased', data: { ip: IP, leaseId: `1@${IP}`, reason: 'released' } },
      { ...observedActive, data: { ...observedActive.data, state: 'released', observedAt: at(2) } } as LeaseEvent,
      reclaimed({ reason: 'released', ownerEnding: null, reclaimedAt: at(3) }),
    ];
    const rebound: LeaseEvent = { ...observedActive, data: { ...observedActive.data, observedAt: at(11) } } as LeaseEvent;
    spec(clientReleased)
      .when({ ...observe(MAC_A, 'active', container), liveness: liveness([], [container]) })
      .then([rebound]);
    const second = reclaimed({ reason: 'released', ownerEnding: null, reclaimedAt: at(12) });
    const history = [...clientReleased, rebound];
    spec(history)
      .when(reclaim({ now: at(12) }))
      .then([second]);
    spec([...history, second])
      .when(reclaim({ now: at(13) }))
      .thenNothingHappens();
    spec([...history, second])
      .when(observe(MAC_A, 'released'))
      .thenNothingHappens();
  });

  it('records an expired lease as expired, with no owner ending', () => {
    const expired: LeaseEvent = { type: 'LeaseExpired', data: { ip: IP, leaseId: `1@${IP}` } };
    spec([learned, observedActive, expired])
      .when(reclaim())
      .then([reclaimed({ reason: 'expired', ownerEnding: null })]);
  });

  it('fits an IPv6 address the same way', () => {
    const ip = '2001:db8::17';
    const at6 = (event: LeaseEvent): LeaseEvent =>
      ({ ...event, data: { ...event.data, ip, ...('leaseId' in event.data ? { leaseId: `1@${ip}` } : {}) } }) as LeaseEvent;
    spec(orphaned.map(at6))
      .when(reclaim({ ip, leaseId: `1@${ip}` }))
      .then([reclaimed({ ip, leaseId: `1@${ip}` })]);
  });

  it('refuses a lease the address never had, the active lease, one a newer lease followed, another MAC; asks for the owner it needs', () => {
    spec(orphaned)
      .when(reclaim({ leaseId: `2@${IP}` }))
      .thenRefuses('not_found');
    spec(orphaned)
      .when(reclaim({ leaseId: `1@10.77.0.32` }))
      .thenRefuses('not_found');
    spec([learned, observedActive])
      .when(reclaim())
      .thenRefuses('wrong_state', { activeLeaseId: `1@${IP}` });
    const second: LeaseEvent = { ...learned, data: { ...learned.data, leaseId: `2@${IP}` } } as LeaseEvent;
    const secondEnded: LeaseEvent = { type: 'LeaseReleased', data: { ip: IP, leaseId: `2@${IP}`, reason: 'released' } };
    spec([...orphaned, second, secondEnded])
      .when(reclaim())
      .thenRefuses('wrong_state', { lastLeaseId: `2@${IP}` });
    spec([...orphaned, second])
      .when(reclaim())
      .thenRefuses('wrong_state', { activeLeaseId: `2@${IP}` });
    spec(orphaned)
      .when(reclaim({ mac: MAC_B }))
      .thenRefuses('wrong_state', { mac: MAC_A });
    spec(orphaned)
      .when(reclaim({ liveness: {} }))
      .thenRefuses('wrong_state', { missingLiveness: ownerKey(container) });
  });
});
