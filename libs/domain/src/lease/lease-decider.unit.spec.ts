/**
 * Leases (seed 2): one `ip-{ip}` stream per address, at most one active lease on it,
 * and never a valid lease for an owner that has ended.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { leaseDecider } from './lease-decider';
import type { LeaseCommand } from './lease-commands';
import type { LeaseEvent, LeaseKind } from './lease-events';
import type { LeaseOwner } from './lease-owner';
import { at, deviceOf, deviceOwner, given, hostOwner, liveness, tokenOf } from './testing/lease-fixtures';

const IP = '10.96.14.34';
const MAC_A = '00:16:3e:00:00:0a';
const MAC_B = '00:16:3e:00:00:0b';
const spec = (history: LeaseEvent[]) => given(leaseDecider, history);

const grant = (
  owner: LeaseOwner,
  mac: string,
  live: LeaseOwner[],
  ended: LeaseOwner[] = [],
  extra: Partial<{ leaseKind: LeaseKind; expiresAt: string | null; now: string }> = {},
): LeaseCommand => ({
  type: 'GrantLease',
  ip: IP,
  mac,
  owner,
  leaseKind: 'dhcp',
  expiresAt: at(600),
  liveness: liveness(live, ended),
  now: at(30),
  ...extra,
});
const granted = (sequence: number, owner: LeaseOwner, mac: string, expiresAt: string | null = at(600), leaseKind: LeaseKind = 'dhcp'): LeaseEvent => ({
  type: 'LeaseGranted',
  data: { ip: IP, leaseId: `${sequence}@${IP}`, mac, owner, leaseKind, expiresAt },
});
const releasedLease = (sequence: number, reason: 'released' | 'owner_ended' | 'superseded_orphan', cause?: string): LeaseEvent => ({
  type: 'LeaseReleased',
  data: { ip: IP, leaseId: `${sequence}@${IP}`, reason, ...(cause ? { cause } : {}) },
});
const release = (leaseId: string | null, reason: 'released' | 'owner_ended' = 'released', cause: string | null = null): LeaseCommand => ({
  type: 'ReleaseLease',
  ip: IP,
  leaseId,
  reason,
  cause,
  now: at(40),
});

const alice = hostOwner(1);
const container = deviceOwner(1, 1);
const bob = hostOwner(2);

describe('granting a lease', () => {
  it('grants a free address to a live owner, numbering leases per address', () => {
    const reply = spec([])
      .when(grant(container, MAC_A, [container]))
      .then([granted(1, container, MAC_A)]);
    assert.deepEqual(reply, { ip: IP, leaseId: `1@${IP}`, status: 'valid', expiresAt: at(600) });
    spec([granted(1, container, MAC_A), releasedLease(1, 'released')])
      .when(grant(bob, MAC_B, [bob]))
      .then([granted(2, bob, MAC_B)]);
  });

  it('refuses an owner that has ended, as a stale token', () => {
    spec([])
      .when(grant(alice, MAC_A, [], [alice]))
      .thenRefuses('stale_token', { token: tokenOf(1) });
    spec([])
      .when(grant(container, MAC_A, [], [container]))
      .thenRefuses('stale_token', { deviceId: deviceOf(1, 1) });
  });

  it('the same MAC and owner again is a no-op, or a renewal with a new expiry', () => {
    spec([granted(1, container, MAC_A)])
      .when(grant(container, MAC_A, [container]))
      .thenNothingHappens();
    spec([granted(1, container, MAC_A)])
      .when(grant(container, MAC_A, [container], [], { expiresAt: at(900) }))
      .then([{ type: 'LeaseRenewed', data: { ip: IP, leaseId: `1@${IP}`, expiresAt: at(900) } }]);
  });

  it('an address a live owner holds is ip_in_use, naming the holder', () => {
    spec([granted(1, container, MAC_A)])
      .when(grant(bob, MAC_B, [bob, container]))
      .thenRefuses('ip_in_use', { leaseId: `1@${IP}`, mac: MAC_A, holder: { deviceId: deviceOf(1, 1), token: tokenOf(1) } });
    spec([granted(1, alice, MAC_A)])
      .when(grant(bob, MAC_A, [bob, alice]))
      .thenRefuses('ip_in_use', { holder: { token: tokenOf(1) } });
  });

  it('an orphan (active lease of an ended owner) is closed in the same append', () => {
    const reply = spec([granted(1, container, MAC_A)])
      .when(grant(bob, MAC_B, [bob], [container]))
      .then([releasedLease(1, 'superseded_orphan', `2@${IP}`), granted(2, bob, MAC_B)]);
    assert.equal(reply.superseded, `1@${IP}`);
  });

  it('a lease past its expiry is recorded as expired, then the address granted', () => {
    spec([granted(1, container, MAC_A, at(20))])
      .when(grant(bob, MAC_B, [bob, container]))
      .then([{ type: 'LeaseExpired', data: { ip: IP, leaseId: `1@${IP}` } }, granted(2, bob, MAC_B)]);
  });

  it('asks again when it lacks the liveness of an owner it must judge', () => {
    spec([granted(1, container, MAC_A)])
      .when(grant(bob, MAC_B, [bob]))
      .thenRefuses('wrong_state', { missingLiveness: `device:${deviceOf(1, 1)}` });
    spec([])
      .when(grant(bob, MAC_B, []))
      .thenRefuses('wrong_state', { missingLiveness: `allocation:${tokenOf(2)}` });
  });

  it('refuses an expiry in the past and a change of kind', () => {
    // One rule, one answer (issue 10, item 8): bad input, whatever the state of the address or its owner.
    spec([])
      .when(grant(bob, MAC_B, [bob], [], { expiresAt: at(10) }))
      .thenRefuses('invalid_request');
    spec([granted(1, container, MAC_A)])
      .when(grant(bob, MAC_B, [bob], [container], { expiresAt: at(30) }))
      .thenRefuses('invalid_request');
    spec([])
      .when(grant(bob, MAC_B, [], [bob], { expiresAt: at(10) }))
      .thenRefuses('invalid_request');
    spec([granted(1, alice, MAC_A, null, 'static')])
      .when(grant(alice, MAC_A, [alice]))
      .thenRefuses('wrong_state');
  });
});

describe('renewing, releasing, expiring', () => {
  const renew = (expiresAt: string, live: LeaseOwner[], ended: LeaseOwner[] = [], leaseId: string | null = null): LeaseCommand => ({
    type: 'RenewLease',
    ip: IP,
    leaseId,
    expiresAt,
    liveness: liveness(live, ended),
    now: at(30),
  });

  it('renews only a valid lease', () => {
    spec([granted(1, container, MAC_A)])
      .when(renew(at(700), [container]))
      .then([{ type: 'LeaseRenewed', data: { ip: IP, leaseId: `1@${IP}`, expiresAt: at(700) } }]);
    spec([granted(1, container, MAC_A)])
      .when(renew(at(700), [], [container]))
      .thenRefuses('stale_token');
    spec([granted(1, container, MAC_A, at(20))])
      .when(renew(at(700), [container]))
      .thenRefuses('wrong_state');
    spec([granted(1, container, MAC_A)])
      .when(renew(at(700), [container], [], `7@${IP}`))
      .thenRefuses('wrong_state', { activeLeaseId: `1@${IP}` });
    spec([granted(1, container, MAC_A), releasedLease(1, 'released')])
      .when(renew(at(700), [container]))
      .thenRefuses('wrong_state');
    spec([])
      .when(renew(at(700), [container]))
      .thenRefuses('not_found');
    spec([granted(1, container, MAC_A)])
      .when(renew(at(10), [container]))
      .thenRefuses('invalid_request');
  });

  it('releases the active lease once; again is a no-op', () => {
    spec([granted(1, container, MAC_A)])
      .when(release(null))
      .then([releasedLease(1, 'released')]);
    const again = spec([granted(1, container, MAC_A), releasedLease(1, 'released')])
      .when(release(`1@${IP}`))
      .thenNothingHappens();
    assert.equal(again.status, 'released');
    spec([granted(1, container, MAC_A), releasedLease(1, 'released')])
      .when(release(null))
      .thenNothingHappens();
  });

  it('the cascade names the lease, so a lease a new owner holds is never touched', () => {
    spec([granted(1, container, MAC_A)])
      .when(release(`1@${IP}`, 'owner_ended', 'evt-1'))
      .then([releasedLease(1, 'owner_ended', 'evt-1')]);
    const history = [granted(1, container, MAC_A), releasedLease(1, 'superseded_orphan', `2@${IP}`), granted(2, bob, MAC_B)];
    assert.equal(
      spec(history)
        .when(release(`1@${IP}`, 'owner_ended', 'evt-1'))
        .thenNothingHappens().status,
      'released',
    );
    const later = [...history, releasedLease(2, 'released'), granted(3, alice, MAC_A)];
    assert.equal(
      spec(later)
        .when(release(`1@${IP}`, 'owner_ended', 'evt-1'))
        .thenNothingHappens().status,
      'not_active',
    );
  });

  it('a lease this address never had is not found', () => {
    spec([]).when(release(null)).thenRefuses('not_found');
    spec([granted(1, container, MAC_A)])
      .when(release(`2@${IP}`))
      .thenRefuses('not_found');
    spec([granted(1, container, MAC_A)])
      .when(release(`1@10.0.0.1`))
      .thenRefuses('not_found');
  });

  it('expiry is recorded only once the time has come', () => {
    const expire = (now: string): LeaseCommand => ({ type: 'ExpireLease', ip: IP, leaseId: `1@${IP}`, now });
    spec([granted(1, container, MAC_A, at(20))])
      .when(expire(at(21)))
      .then([{ type: 'LeaseExpired', data: { ip: IP, leaseId: `1@${IP}` } }]);
    spec([granted(1, container, MAC_A, at(20))])
      .when(expire(at(19)))
      .thenRefuses('wrong_state');
    spec([granted(1, container, MAC_A, at(20)), { type: 'LeaseExpired', data: { ip: IP, leaseId: `1@${IP}` } }])
      .when(expire(at(21)))
      .thenNothingHappens();
  });
});

describe('DHCP observations', () => {
  const observe = (state: 'active' | 'free', now = at(50)): LeaseCommand => ({
    type: 'ObserveDhcpLease',
    ip: IP,
    source: 'dhcpd@maas',
    mac: MAC_A,
    state,
    starts: at(1),
    ends: at(600),
    hostname: 'juju-1-lxc-1',
    candidate: null,
    liveness: {},
    now,
  });
  const observed = (state: 'active' | 'free', observedAt = at(50)): LeaseEvent => ({
    type: 'DhcpLeaseObserved',
    data: { ip: IP, source: 'dhcpd@maas', mac: MAC_A, state, starts: at(1), ends: at(600), hostname: 'juju-1-lxc-1', observedAt },
  });

  it('are recorded when they differ from what that server last said, and only then', () => {
    spec([])
      .when(observe('active'))
      .then([observed('active')]);
    spec([observed('active')])
      .when(observe('active', at(90)))
      .thenNothingHappens();
    spec([observed('active')])
      .when(observe('free', at(90)))
      .then([observed('free', at(90))]);
    spec([observed('active'), { ...observed('active'), data: { ...(observed('active').data as object), source: 'other' } } as LeaseEvent])
      .when(observe('active', at(91)))
      .thenNothingHappens();
  });
});
