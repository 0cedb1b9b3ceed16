import { accept, refuse, type Decision } from '../core';
import type { RegisterDevice, RemoveDevice } from './device-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';
import { liveDevicesOf } from './device-state';
import { mintDeviceId, parseDeviceId } from './device-id';
import { fence } from './fence';

/**
 * A device is registered only under the node's live allocation (fenced by its token).
 * Registering the same hostname and MAC again is a no-op that answers the same device,
 * so a retried request never makes two; the same MAC under another hostname is refused.
 */
export const decideRegisterDevice = (command: RegisterDevice, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const fenced = fence(state, command.token);
  if ('refusal' in fenced) return { outcome: 'refused', refusal: fenced.refusal };
  const { allocation } = fenced;
  const live = liveDevicesOf(state.devices, allocation.token);
  const sameMac = live.find((device) => device.mac === command.mac);
  const reply = (deviceId: string): NodeReply => ({ nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch, deviceId, status: 'registered' });
  if (sameMac && sameMac.hostname === command.hostname) return accept([], reply(sameMac.deviceId));
  if (sameMac) {
    return refuse('already_exists', `MAC ${command.mac} is already registered on this allocation as ${sameMac.hostname}`, {
      deviceId: sameMac.deviceId,
      hostname: sameMac.hostname,
    });
  }
  const sequence = Object.values(state.devices).filter((device) => device.epoch === allocation.epoch).length + 1;
  const deviceId = mintDeviceId(command.nodeId, allocation.epoch, sequence);
  return accept(
    [
      {
        type: 'DeviceRegistered',
        data: { nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch, deviceId, hostname: command.hostname, mac: command.mac },
      },
    ],
    reply(deviceId),
  );
};

/** Removing a device twice is a no-op; a device this node never had is not found. */
export const decideRemoveDevice = (command: RemoveDevice, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const device = state.devices[command.deviceId];
  const parsed = parseDeviceId(command.deviceId);
  if (!device || parsed?.nodeId !== command.nodeId) return refuse('not_found', `no device ${command.deviceId}`);
  const reply: NodeReply = { nodeId: command.nodeId, token: device.token, epoch: device.epoch, deviceId: device.deviceId, status: device.removed ?? 'removed' };
  if (device.removed !== null) return accept([], reply);
  return accept([{ type: 'DeviceRemoved', data: { nodeId: command.nodeId, token: device.token, deviceId: device.deviceId, reason: 'removed' } }], {
    ...reply,
    status: 'removed',
  });
};
