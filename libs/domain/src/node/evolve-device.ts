import type { DeviceEvent } from './device-events';
import type { NodeState } from './node-state';

export const evolveDevice = (state: NodeState, event: DeviceEvent): NodeState => {
  switch (event.type) {
    case 'DeviceRegistered': {
      const { deviceId, token, epoch, hostname, mac } = event.data;
      return { ...state, devices: { ...state.devices, [deviceId]: { deviceId, token, epoch, hostname, mac, removed: null } } };
    }
    case 'DeviceRemoved': {
      const device = state.devices[event.data.deviceId];
      if (!device || device.removed !== null) return state;
      return { ...state, devices: { ...state.devices, [device.deviceId]: { ...device, removed: event.data.reason } } };
    }
  }
};
