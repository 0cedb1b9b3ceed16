/**
 * Devices (seed 2): containers and VMs registered under an allocation live and die
 * with it. Ending the allocation, by any path, removes them in the same append.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodeDecider } from './node-decider';
import type { NodeCommand } from './node-commands';
import type { NodeEvent } from './node-events';
import { acquired, at, deviceOf, deviceRegistered, deviceRemoved, enlisted, given, NODE, released, tokenOf } from '../lease/testing/lease-fixtures';

const spec = (history: NodeEvent[]) => given(nodeDecider, history);
const register = (token: string, mac: string, hostname = 'juju-1-lxc-1'): NodeCommand => ({
  type: 'RegisterDevice',
  nodeId: NODE,
  token,
  hostname,
  mac,
  now: at(10),
});
const remove = (deviceId: string): NodeCommand => ({ type: 'RemoveDevice', nodeId: NODE, deviceId, now: at(11) });
const MAC_A = '00:16:3e:00:00:0a';
const MAC_B = '00:16:3e:00:00:0b';

describe('devices: registered under a live allocation', () => {
  it('registering mints the next device id of the allocation', () => {
    const reply = spec([enlisted(), acquired(1)])
      .when(register(tokenOf(1), MAC_A))
      .then([deviceRegistered(1, 1, MAC_A)]);
    assert.equal(reply.deviceId, deviceOf(1, 1));
    spec([enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A)])
      .when(register(tokenOf(1), MAC_B, 'juju-1-lxc-2'))
      .then([deviceRegistered(1, 2, MAC_B)]);
  });

  it('numbers devices afresh for each allocation, and never reuses an id', () => {
    const history = [enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A), released(1), deviceRemoved(1, 1, 'allocation_ended'), acquired(2)];
    spec(history)
      .when(register(tokenOf(2), MAC_A, 'juju-2-lxc-1'))
      .then([deviceRegistered(2, 1, MAC_A)]);
  });

  it('a removed device still counts, so its id is not minted again', () => {
    spec([enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A), deviceRemoved(1, 1, 'removed')])
      .when(register(tokenOf(1), MAC_B, 'juju-1-lxc-2'))
      .then([deviceRegistered(1, 2, MAC_B)]);
  });

  it('registering the same hostname and MAC again is a no-op answering the same device', () => {
    const reply = spec([enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A)])
      .when(register(tokenOf(1), MAC_A))
      .thenNothingHappens();
    assert.equal(reply.deviceId, deviceOf(1, 1));
  });

  it('the same MAC under another hostname is refused', () => {
    spec([enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A)])
      .when(register(tokenOf(1), MAC_A, 'other'))
      .thenRefuses('already_exists', { deviceId: deviceOf(1, 1) });
  });

  it('is fenced: a stale token registers nothing, an unknown one is not found', () => {
    spec([enlisted(), acquired(1), released(1), acquired(2)])
      .when(register(tokenOf(1), MAC_A))
      .thenRefuses('stale_token', { currentEpoch: 2 });
    spec([enlisted(), acquired(1)])
      .when(register(tokenOf(9), MAC_A))
      .thenRefuses('not_found');
    spec([])
      .when(register(tokenOf(1), MAC_A))
      .thenRefuses('not_found');
  });
});

describe('devices: removal', () => {
  it('removes a live device, once', () => {
    spec([enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A)])
      .when(remove(deviceOf(1, 1)))
      .then([deviceRemoved(1, 1, 'removed')]);
    spec([enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A), deviceRemoved(1, 1, 'removed')])
      .when(remove(deviceOf(1, 1)))
      .thenNothingHappens();
  });

  it('a device the node never had is not found', () => {
    spec([enlisted(), acquired(1)])
      .when(remove(deviceOf(1, 1)))
      .thenRefuses('not_found');
  });
});

describe('devices never outlive their allocation', () => {
  const withDevices = [enlisted(), acquired(1), deviceRegistered(1, 1, MAC_A), deviceRegistered(1, 2, MAC_B), deviceRemoved(1, 2, 'removed')];

  it('a release removes every live device in the same append', () => {
    spec(withDevices)
      .when({ type: 'ReleaseAllocation', nodeId: NODE, token: tokenOf(1), ending: 'force_released', now: at(20), request: null })
      .then([
        {
          type: 'AllocationReleased',
          data: { nodeId: NODE, token: tokenOf(1), epoch: 1, ending: 'force_released', at: at(20), request: null, pendingCleanup: [] },
        },
        deviceRemoved(1, 1, 'allocation_ended'),
      ]);
  });

  it('so does a revocation by a provider observation', () => {
    spec(withDevices)
      .when({ type: 'ObserveProviderStatus', nodeId: NODE, providerStatus: 'Ready', source: 'maas', observedAt: at(20), now: at(20) })
      .then([
        { type: 'AllocationRevoked', data: { nodeId: NODE, token: tokenOf(1), epoch: 1, providerStatus: 'ready', source: 'maas', observedAt: at(20) } },
        deviceRemoved(1, 1, 'allocation_ended'),
      ]);
  });

  it('a retried release (same requestId) appends nothing, devices included', () => {
    const request = { requestId: 'r-1', fingerprint: 'f' };
    const releasedWithRequest = { ...released(1), data: { ...(released(1).data as object), request } } as ReturnType<typeof released>;
    spec([...withDevices, releasedWithRequest, deviceRemoved(1, 1, 'allocation_ended')])
      .when({ type: 'ReleaseAllocation', nodeId: NODE, token: tokenOf(1), ending: 'released', now: at(21), request })
      .thenNothingHappens();
  });
});
