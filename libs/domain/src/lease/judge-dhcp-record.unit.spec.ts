import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldEvents } from '../core';
import { judgeDhcpRecord, type JudgedRecord as DhcpRecord } from './judge-dhcp-record';
import { leaseDecider } from './lease-decider';
import type { LeaseEvent } from './lease-events';
import { at, deviceOf, deviceOwner, liveness, tokenOf } from './testing/lease-fixtures';

const IP = '10.96.14.34';
const MAC = '00:16:3e:00:00:0a';
const container = deviceOwner(1, 1);
const grantedTo = (expiresAt: string | null = at(600)): LeaseEvent => ({
  type: 'LeaseGranted',
  data: { ip: IP, leaseId: `1@${IP}`, mac: MAC, owner: container, leaseKind: 'dhcp', expiresAt },
});
const stateOf = (events: LeaseEvent[]) => foldEvents(leaseDecider, events);
const active = (mac = MAC, ends: string | null = at(600)): DhcpRecord => ({ mac, state: 'active', ends });
const NOW = at(30);

describe('a DHCP record judged against the ledger: orphaned, never valid, unless the ledger says so', () => {
  it('valid: the active lease, same MAC, owner live', () => {
    const judged = judgeDhcpRecord(active(), stateOf([grantedTo()]), liveness([container]), NOW);
    assert.deepEqual(
      { verdict: judged.verdict, deviceId: judged.deviceId, token: judged.token },
      { verdict: 'valid', deviceId: deviceOf(1, 1), token: tokenOf(1) },
    );
  });

  it('orphaned: owner ended, other MAC, lease released or expired, no lease at all, liveness unknown', () => {
    const cases: [DhcpRecord, LeaseEvent[], ReturnType<typeof liveness>, RegExp][] = [
      [active(), [grantedTo()], liveness([], [container]), /owner has ended/],
      [active('00:16:3e:00:00:0b'), [grantedTo()], liveness([container]), /leases this address to 00:16:3e:00:00:0a/],
      [active(), [grantedTo(), { type: 'LeaseReleased', data: { ip: IP, leaseId: `1@${IP}`, reason: 'owner_ended' } }], liveness([container]), /was released/],
      [active(), [grantedTo(at(20))], liveness([container]), /expired/],
      [active(), [], {}, /never granted/],
      [active(), [grantedTo()], {}, /could not be established/],
    ];
    for (const [record, events, report, reason] of cases) {
      const judged = judgeDhcpRecord(record, stateOf(events), report, NOW);
      assert.equal(judged.verdict, 'orphaned');
      assert.match(judged.reason, reason);
    }
  });

  it('a binding the server no longer holds is released, or unknown to a ledger that never leased the address', () => {
    assert.equal(judgeDhcpRecord({ mac: MAC, state: 'free', ends: null }, stateOf([grantedTo()]), liveness([container]), NOW).verdict, 'released');
    assert.equal(judgeDhcpRecord(active(MAC, at(10)), stateOf([grantedTo()]), liveness([container]), NOW).verdict, 'released', 'active but past its end');
    assert.equal(judgeDhcpRecord({ mac: MAC, state: 'expired', ends: at(10) }, stateOf([]), {}, NOW).verdict, 'unknown');
  });
});
