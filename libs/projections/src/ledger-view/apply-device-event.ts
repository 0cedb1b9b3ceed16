import type { RecordedEvent } from '@ledger/event-store';
import type { DeviceEvent } from '@ledger/domain';
import type { CollectionChanges } from '../runtime/collection-changes';
import type { LedgerViewState } from './views';
import { stamp } from './view-changes';

export const applyDeviceEvent = (view: LedgerViewState, recorded: RecordedEvent, event: DeviceEvent, changes: CollectionChanges): void => {
  switch (event.type) {
    case 'DeviceRegistered': {
      const { deviceId, nodeId, token, epoch, hostname, mac } = event.data;
      const device = (view.devices[deviceId] = {
        deviceId,
        nodeId,
        token,
        epoch,
        hostname,
        mac,
        registeredAt: recorded.recordedAt,
        removed: null,
        lastPosition: recorded.position,
      });
      stamp(changes, 'devices', device, recorded.position);
      return;
    }
    case 'DeviceRemoved': {
      const device = view.devices[event.data.deviceId];
      if (!device || device.removed) return;
      device.removed = { reason: event.data.reason, at: recorded.recordedAt };
      stamp(changes, 'devices', device, recorded.position);
      return;
    }
  }
};
