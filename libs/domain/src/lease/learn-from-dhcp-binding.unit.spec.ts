/**
 * Leases learned from a DHCP server (seed 2): a binding the server hands to the MAC of a
 * registered, live device becomes that device's lease; a MAC nobody registered stays an
 * orphan; the server's release, expiry or rebinding ends what it bound; renewals from a
 * source that follows the server append nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { leaseDecider } from './lease-decider';
import type { LeaseCommand, ObserveDhcpLease } from './lease-commands';
import type { DhcpBindingState, LeaseEvent } from './lease-events';
import type { LeaseOwner } from './lease-owner';
import { judgeDhcpRecord } from './judge-dhcp-record';
import { foldEvents } from '../core';
import { at, deviceOwner, given, liveness } from './testing/lease-fixtures';

const IP = '10.77.0.21';
const KEA = 'kea:kea-leases4.csv';
const MAC_A = '00:16:3e:00:00:0a';
const MAC_B = '00:16:3e:00:00:0b';
const spec = (history: LeaseEvent[]) => given(leaseDecider, history);
const container = deviceOwner(1, 1);
const other = deviceOwner(1, 2);

type Binding = { mac?: string; state?: DhcpBindingState; ends?: string | null; now?: string; hostname?: string | null };
const observe = (candidate: LeaseOwner | null, live: LeaseOwner[], binding: Binding = {}, ended: LeaseOwner[] = []): ObserveDhcpLease => ({
  type: 'ObserveDhcpLease',
  ip: IP,
  source: KEA,
  mac: binding.mac ?? MAC_A,
  state: binding.state ?? 'active',
  starts: at(0),
  ends: binding.ends === undefined ? at(60) : binding.ends,
  hostname: binding.hostname === undefined ? 'c1' : binding.hostname,
  following: true,
  candidate,
  liveness: liveness(live, ended),
  now: binding.now ?? at(1),
});
const seen = (command: ObserveDhcpLease): LeaseEvent => ({
  type: 'DhcpLeaseObserved',
  data: {
    ip: IP,
    source: KEA,
    mac: command.mac,
    state: command.state,
    starts: command.starts,
    ends: command.ends,
    hostname: command.hostname,
    following: true,
    observedAt: command.now,
  },
});
const learned = (sequence: number, owner: LeaseOwner, mac = MAC_A): LeaseEvent => ({
  type: 'LeaseGranted',
  data: { ip: IP, leaseId: `${sequence}@${IP}`, mac, owner, leaseKind: 'dhcp', expiresAt: null, dhcpSource: KEA },
});
const firstBinding = observe(container, [container]);
const history = [learned(1, container), seen(firstBinding)];

describe('a lease learned from a DHCP server', () => {
  it("becomes the registered device's lease, valid with no expiry of its own", () => {
    const reply = spec([]).when(firstBinding).then(history);
    assert.equal(reply.status, 'learned');
    const state = foldEvents(leaseDecider, history);
    assert.equal(judgeDhcpRecord(firstBinding, state, liveness([container]), at(1)).verdict, 'valid');
    const renewal = observe(container, [container], { ends: at(660), now: at(600) });
    assert.equal(judgeDhcpRecord(renewal, state, liveness([container]), at(600)).verdict, 'valid', 'a renewed binding outlives its first end');
  });

  it('a MAC nobody registered is recorded but leased to nobody: orphaned', () => {
    const command = observe(null, []);
    spec([])
      .when(command)
      .then([seen(command)]);
    const state = foldEvents(leaseDecider, [seen(command)]);
    assert.deepEqual(judgeDhcpRecord(command, state, {}, at(1)), { verdict: 'orphaned', reason: 'the DHCP server holds a binding the ledger never granted' });
  });

  it('a device that has ended learns nothing', () => {
    const command = observe(container, [], {}, [container]);
    spec([])
      .when(command)
      .then([seen(command)]);
  });

  it('renewals append nothing, however often and however far they move the end', () => {
    for (const minute of [30, 60, 90, 24 * 60]) {
      spec(history)
        .when(observe(container, [container], { ends: at(minute + 60), now: at(minute) }))
        .thenNothingHappens();
    }
  });

  it('a change of hostname is recorded; the lease stays', () => {
    const renamed = observe(container, [container], { hostname: 'c1-renamed', now: at(5) });
    spec(history)
      .when(renamed)
      .then([seen(renamed)]);
  });

  it("the server's release ends the lease as released, its expiry as expired", () => {
    const release = observe(container, [container], { state: 'released', now: at(10) });
    spec(history)
      .when(release)
      .then([{ type: 'LeaseReleased', data: { ip: IP, leaseId: `1@${IP}`, reason: 'released' } }, seen(release)]);
    const expiry = observe(container, [container], { state: 'expired', now: at(70) });
    spec(history)
      .when(expiry)
      .then([{ type: 'LeaseExpired', data: { ip: IP, leaseId: `1@${IP}` } }, seen(expiry)]);
  });

  it('a binding read after its end (the agent was down) is recorded as expired', () => {
    const late = observe(container, [container], { ends: at(60), now: at(61) });
    spec(history)
      .when(late)
      .then([{ type: 'LeaseExpired', data: { ip: IP, leaseId: `1@${IP}` } }, seen({ ...late, state: 'expired' })]);
  });

  it('a rebinding to another registered MAC ends the old lease and learns the new one', () => {
    const rebound = observe(other, [container, other], { mac: MAC_B, now: at(20) });
    spec(history)
      .when(rebound)
      .then([{ type: 'LeaseReleased', data: { ip: IP, leaseId: `1@${IP}`, reason: 'rebound' } }, learned(2, other, MAC_B), seen(rebound)]);
  });

  it('never takes over a lease a live owner was granted through the API; takes over an orphan', () => {
    const granted: LeaseEvent = {
      type: 'LeaseGranted',
      data: { ip: IP, leaseId: `1@${IP}`, mac: MAC_B, owner: other, leaseKind: 'dhcp', expiresAt: at(600) },
    };
    const command = observe(container, [container, other]);
    spec([granted])
      .when(command)
      .then([seen(command)]);
    const orphanTaken = observe(container, [container], {}, [other]);
    spec([granted])
      .when(orphanTaken)
      .then([
        { type: 'LeaseReleased', data: { ip: IP, leaseId: `1@${IP}`, reason: 'superseded_orphan', cause: `2@${IP}` } },
        learned(2, container),
        seen(orphanTaken),
      ]);
  });

  it("a grant's release by the server does not end it: only leases the server bound are the server's to end", () => {
    const granted: LeaseEvent = {
      type: 'LeaseGranted',
      data: { ip: IP, leaseId: `1@${IP}`, mac: MAC_A, owner: container, leaseKind: 'dhcp', expiresAt: at(600) },
    };
    const release = observe(container, [container], { state: 'released' });
    spec([granted])
      .when(release)
      .then([seen(release)]);
  });

  it('from a snapshot source (an import), the learned lease ends when the server said, and follows its later ends', () => {
    const snapshot = { ...firstBinding, following: undefined };
    const snapshotSeen = (command: ObserveDhcpLease): LeaseEvent => {
      const event = seen(command);
      const { following: _following, ...data } = event.data as { following?: true };
      return { ...event, data } as LeaseEvent;
    };
    const learnedUntil = { ...learned(1, container), data: { ...(learned(1, container).data as object), expiresAt: at(60) } } as LeaseEvent;
    spec([])
      .when(snapshot)
      .then([learnedUntil, snapshotSeen(snapshot)]);
    const renewed = { ...observe(container, [container], { ends: at(90), now: at(30) }), following: undefined };
    spec([learnedUntil, snapshotSeen(snapshot)])
      .when(renewed)
      .then([{ type: 'LeaseRenewed', data: { ip: IP, leaseId: `1@${IP}`, expiresAt: at(90) } }, snapshotSeen(renewed)]);
  });

  it('asks again for the liveness of a candidate it was not told about', () => {
    spec([])
      .when({ ...firstBinding, liveness: {} } as LeaseCommand)
      .thenRefuses('wrong_state');
  });
});
