import type { RecordedEvent } from '@ledger/event-store';
import type { DeviceEvent } from '@ledger/domain';
import type { LedgerViewState } from './views';

export const applyDeviceEvent = (view: LedgerViewState, recorded: RecordedEvent, event: DeviceEvent): void => {
  switch (event.type) {
    case 'DeviceRegistered': {
      const { deviceId, nodeId, token, epoch, hostname, mac } = event.data;
      view.devices[deviceId] = {
        deviceId,
        nodeId,
        token,
        epoch,
        hostname,
        mac,
        registeredAt: recorded.recordedAt,
        removed: null,
        lastPosition: recorded.position,
      };
      return;
    }
    case 'DeviceRemoved': {
      const device = view.devices[event.data.deviceId];
      if (!device || device.removed) return;
      device.removed = { reason: event.data.reason, at: recorded.recordedAt };
      device.lastPosition = recorded.position;
      return;
    }
  }
};
