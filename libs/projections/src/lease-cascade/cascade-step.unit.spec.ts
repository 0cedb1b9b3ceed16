/** The lease cascade's pure core, by example: which leases an event makes it release. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mintDeviceId, mintToken } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { cascadeStep } from './cascade-step';
import { initialCascadeState } from './cascade-state';

const token = mintToken('n1', 1, 'entropy-entropy-1');
const device = mintDeviceId('n1', 1, 1);
let position = 0;
const event = (type: string, data: object, stream = 'node-n1'): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data,
  stream,
  revision: 0,
  position,
  recordedAt: '2030-01-01T00:00:00.000Z',
  metadata: { correlationId: 'c', causationId: null, actor: 't', requestId: null, schemaVersion: 1 },
});
const acquired = () => event('NodeAcquired', { nodeId: 'n1', token, epoch: 1 });
const registered = () => event('DeviceRegistered', { nodeId: 'n1', token, epoch: 1, deviceId: device, hostname: 'lxc', mac: '00:16:3e:00:00:01' });
const granted = (ip: string, owner: object) =>
  event('LeaseGranted', { ip, leaseId: `1@${ip}`, mac: '00:16:3e:00:00:01', owner, leaseKind: 'dhcp', expiresAt: null }, `ip-${ip}`);
const host = { kind: 'allocation', token, nodeId: 'n1' };
const container = { kind: 'device', deviceId: device, token, nodeId: 'n1' };

describe('the lease cascade, step by step', () => {
  it("an ended allocation releases its own lease and its containers' leases", () => {
    const state = initialCascadeState();
    for (const e of [acquired(), registered(), granted('10.0.0.1', host), granted('10.0.0.2', container)]) assert.deepEqual(cascadeStep(state, e), []);
    const ending = event('AllocationReleased', { nodeId: 'n1', token, epoch: 1, ending: 'force_released' });
    assert.deepEqual(
      cascadeStep(state, ending).sort((a, b) => (a.ip < b.ip ? -1 : 1)),
      [
        { ip: '10.0.0.1', leaseId: '1@10.0.0.1', cause: ending.id },
        { ip: '10.0.0.2', leaseId: '1@10.0.0.2', cause: ending.id },
      ],
    );
    assert.deepEqual(state, { position: ending.position, owners: {}, leases: {} }, 'ended owners are forgotten');
  });

  it('a removed device releases only its own leases', () => {
    const state = initialCascadeState();
    [acquired(), registered(), granted('10.0.0.1', host), granted('10.0.0.2', container)].forEach((e) => cascadeStep(state, e));
    const removed = event('DeviceRemoved', { nodeId: 'n1', token, deviceId: device, reason: 'removed' });
    assert.deepEqual(cascadeStep(state, removed), [{ ip: '10.0.0.2', leaseId: '1@10.0.0.2', cause: removed.id }]);
    assert.deepEqual(Object.keys(state.leases), ['1@10.0.0.1']);
  });

  it('a lease granted to an owner that already ended (the grant raced the ending) is released too', () => {
    const state = initialCascadeState();
    [acquired(), event('AllocationRevoked', { nodeId: 'n1', token, epoch: 1 })].forEach((e) => cascadeStep(state, e));
    const late = granted('10.0.0.3', host);
    assert.deepEqual(cascadeStep(state, late), [{ ip: '10.0.0.3', leaseId: '1@10.0.0.3', cause: late.id }]);
  });

  it('a lease released meanwhile is not released again; an event already folded is skipped', () => {
    const state = initialCascadeState();
    const grant = granted('10.0.0.4', host);
    [acquired(), grant, event('LeaseReleased', { ip: '10.0.0.4', leaseId: '1@10.0.0.4', reason: 'released' }, 'ip-10.0.0.4')].forEach((e) =>
      cascadeStep(state, e),
    );
    assert.deepEqual(cascadeStep(state, event('AllocationReleased', { nodeId: 'n1', token, epoch: 1 })), []);
    assert.deepEqual(cascadeStep(state, grant), [], 'positions at or before the state are already folded');
  });
});
