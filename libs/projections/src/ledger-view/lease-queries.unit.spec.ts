/** Lease status is derived at the time of asking, from the folded log; reconcile answers per address. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mintDeviceId, mintToken } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { UNTRACKED } from '../runtime/collection-changes';
import { applyEvent } from './apply-event';
import { emptyLedgerView, type LedgerViewState } from './views';
import { ipStatus, leaseStatus, listLeases } from './lease-queries';
import { reconcileIps } from '../reconcile/reconcile-ips';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const token = mintToken('n1', 1, 'entropy-entropy-1');
const device = mintDeviceId('n1', 1, 1);
const host = { kind: 'allocation', token, nodeId: 'n1' };
const container = { kind: 'device', deviceId: device, token, nodeId: 'n1' };

const fold = (events: [string, string, object][]): LedgerViewState => {
  const view = emptyLedgerView();
  events.forEach(([stream, type, data], i) =>
    applyEvent(
      view,
      {
        id: `e${i + 1}`,
        stream,
        type,
        data,
        revision: 0,
        position: i + 1,
        recordedAt: NOW.toISOString(),
        metadata: { correlationId: 'c', causationId: null, actor: 't', requestId: null, schemaVersion: 1 },
      } as RecordedEvent,
      UNTRACKED,
    ),
  );
  return view;
};

const region: [string, string, object][] = [
  ['node-n1', 'NodeEnlisted', { nodeId: 'n1', hostname: 'n1', arch: 'amd64', cpuCount: 1, memoryMb: 1, tags: [], zone: 'z' }],
  [
    'node-n1',
    'NodeAcquired',
    {
      nodeId: 'n1',
      token,
      epoch: 1,
      consumer: { controller: 'c', model: 'm' },
      acquiredAt: NOW.toISOString(),
      reservationId: null,
      request: { requestId: 'r', fingerprint: 'f' },
    },
  ],
  ['node-n1', 'DeviceRegistered', { nodeId: 'n1', token, epoch: 1, deviceId: device, hostname: 'lxc', mac: '00:16:3e:00:00:01' }],
  ['ip-10.0.0.1', 'LeaseGranted', { ip: '10.0.0.1', leaseId: '1@10.0.0.1', mac: '00:16:3e:00:00:99', owner: host, leaseKind: 'static', expiresAt: null }],
  [
    'ip-10.0.0.2',
    'LeaseGranted',
    { ip: '10.0.0.2', leaseId: '1@10.0.0.2', mac: '00:16:3e:00:00:01', owner: container, leaseKind: 'dhcp', expiresAt: '2030-01-01T13:00:00.000Z' },
  ],
];
const ended: [string, string, object][] = [
  ['node-n1', 'AllocationReleased', { nodeId: 'n1', token, epoch: 1, ending: 'force_released', at: NOW.toISOString(), request: null, pendingCleanup: [] }],
  ['node-n1', 'DeviceRemoved', { nodeId: 'n1', token, deviceId: device, reason: 'allocation_ended' }],
];
const statusesOf = (view: LedgerViewState, now = NOW) => Object.fromEntries(listLeases(view, {}, now).map((l) => [l.lease.ip, l.status]));

describe('lease status, derived', () => {
  it('valid while active with a live owner; expired once past its expiry, recorded or not', () => {
    const view = fold(region);
    assert.deepEqual(statusesOf(view), { '10.0.0.1': 'valid', '10.0.0.2': 'valid' });
    assert.deepEqual(statusesOf(view, new Date('2030-01-01T13:00:00.000Z')), { '10.0.0.1': 'valid', '10.0.0.2': 'expired' });
  });

  it('orphaned the moment the owner ends, before any release; released after', () => {
    const view = fold([...region, ...ended]);
    assert.deepEqual(statusesOf(view), { '10.0.0.1': 'orphaned', '10.0.0.2': 'orphaned' });
    const released = fold([
      ...region,
      ...ended,
      ['ip-10.0.0.2', 'LeaseReleased', { ip: '10.0.0.2', leaseId: '1@10.0.0.2', reason: 'owner_ended', cause: 'e6' }],
    ]);
    assert.deepEqual(statusesOf(released), { '10.0.0.1': 'orphaned', '10.0.0.2': 'released' });
  });

  it('released in the ledger but still held by a DHCP server: orphaned, until the server lets it go', () => {
    const observed = (state: string): [string, string, object] => [
      'ip-10.0.0.2',
      'DhcpLeaseObserved',
      {
        ip: '10.0.0.2',
        source: 'dhcpd',
        mac: '00:16:3e:00:00:01',
        state,
        starts: null,
        ends: '2030-01-02T00:00:00.000Z',
        hostname: null,
        observedAt: NOW.toISOString(),
      },
    ];
    const release: [string, string, object] = ['ip-10.0.0.2', 'LeaseReleased', { ip: '10.0.0.2', leaseId: '1@10.0.0.2', reason: 'released' }];
    const held = fold([...region, release, observed('active')]);
    assert.equal(leaseStatus(held, held.leases['10.0.0.2'], held.leases['10.0.0.2'].leases[0], NOW), 'orphaned');
    assert.equal(ipStatus(held, held.leases['10.0.0.2'], NOW), 'orphaned');
    const freed = fold([...region, release, observed('active'), observed('free')]);
    assert.equal(ipStatus(freed, freed.leases['10.0.0.2'], NOW), 'released');
  });

  it("filters by owner: a token finds its host lease and its containers' leases", () => {
    const view = fold(region);
    assert.equal(listLeases(view, { token }, NOW).length, 2);
    assert.equal(listLeases(view, { deviceId: device }, NOW).length, 1);
    assert.equal(listLeases(view, { controller: 'c', model: 'other' }, NOW).length, 0);
    assert.equal(listLeases(view, { status: 'valid', nodeId: 'n1' }, NOW).length, 2);
  });
});

describe("reconciling a consumer's addresses", () => {
  it('valid, orphaned, foreign, unknown, each with a safe action', () => {
    const live = fold(region);
    const verdicts = (view: LedgerViewState, model: string) =>
      reconcileIps(view, { controller: 'c', model }, ['10.0.0.1', '10.0.0.2', '10.0.0.3'], NOW).map((v) => v.verdict);
    assert.deepEqual(verdicts(live, 'm'), ['valid', 'valid', 'unknown']);
    assert.deepEqual(verdicts(live, 'other'), ['foreign', 'foreign', 'unknown']);
    const gone = fold([...region, ...ended]);
    const [hostIp] = reconcileIps(gone, { controller: 'c', model: 'm' }, ['10.0.0.1'], NOW);
    assert.equal(hostIp.verdict, 'orphaned');
    assert.match(hostIp.action, /stop using this address/);
    assert.equal(hostIp.token, token);
  });
});
